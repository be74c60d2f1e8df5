package cmdrule

import "strings"

// Risky says why s should not be offered as an "Always allow" choice on an
// approval card, or "" when it may be: one click must not allow for good a
// program that deletes, overwrites or sends files, changes the repository's
// configuration or remotes, runs code it downloads, or runs as someone else.
// The user can still write such a rule deliberately (pi-desktop rules add,
// Settings → Permissions).
func (s Suggestion) Risky() string {
	name := baseName(s.Program)
	switch {
	case strings.ContainsAny(s.Program, `/\`):
		return "it names a file by its path, which a later write can replace"
	case subcommands[name] && len(s.Args) == 0:
		return "it would allow every " + name + " subcommand"
	case neverAllowed(name) != "":
		return neverAllowed(name)
	case interpreters[name] || shellPrograms[name]:
		return name + " runs whatever code it is given"
	case riskyPrograms[name] != "":
		return riskyPrograms[name]
	}
	if len(s.Args) > 0 {
		if why := riskySubcommands[name][s.Args[0]]; why != "" {
			return why
		}
	}
	return ""
}

const (
	riskyDestroys = "it deletes or overwrites files wherever it is pointed"
	riskyNetwork  = "it sends or fetches data over the network"
	riskySystem   = "it changes the system or other processes"
	riskyCopies   = "it writes files the host does not see as writes (a .git hook, a config)"
	riskyFetches  = "it downloads and runs code"
	riskyRemote   = "it changes what the repository trusts or where it sends code"
)

var riskyPrograms = map[string]string{
	"rm": riskyDestroys, "rmdir": riskyDestroys, "shred": riskyDestroys, "truncate": riskyDestroys,
	"dd": riskyDestroys, "mkfs": riskyDestroys, "fdisk": riskyDestroys, "unlink": riskyDestroys,
	"cp": riskyCopies, "mv": riskyCopies, "ln": riskyCopies, "install": riskyCopies, "tee": riskyCopies,
	"rsync": riskyCopies, "tar": riskyCopies, "unzip": riskyCopies, "patch": riskyCopies, "sed": riskyCopies, "awk": riskyCopies,
	"chmod": riskySystem, "chown": riskySystem, "chgrp": riskySystem, "chattr": riskySystem,
	"kill": riskySystem, "pkill": riskySystem, "killall": riskySystem, "reboot": riskySystem, "shutdown": riskySystem,
	"halt": riskySystem, "poweroff": riskySystem, "mount": riskySystem, "umount": riskySystem, "crontab": riskySystem,
	"at": riskySystem, "systemctl": riskySystem, "launchctl": riskySystem, "service": riskySystem, "env": riskySystem,
	"curl": riskyNetwork, "wget": riskyNetwork, "scp": riskyNetwork, "sftp": riskyNetwork, "ftp": riskyNetwork,
	"nc": riskyNetwork, "ncat": riskyNetwork, "netcat": riskyNetwork, "socat": riskyNetwork, "telnet": riskyNetwork,
}

var riskySubcommands = map[string]map[string]string{
	"git": {"config": riskyRemote, "push": riskyRemote, "remote": riskyRemote, "credential": riskyRemote,
		"daemon": riskyRemote, "submodule": riskyRemote, "filter-branch": riskyDestroys, "clean": riskyDestroys,
		"update-ref": riskyDestroys, "hook": riskyFetches},
	"npm":       {"exec": riskyFetches, "x": riskyFetches, "publish": riskyRemote, "install": riskyFetches, "i": riskyFetches, "add": riskyFetches},
	"pnpm":      {"exec": riskyFetches, "dlx": riskyFetches, "publish": riskyRemote, "install": riskyFetches, "i": riskyFetches, "add": riskyFetches},
	"yarn":      {"exec": riskyFetches, "dlx": riskyFetches, "publish": riskyRemote, "add": riskyFetches},
	"bun":       {"x": riskyFetches, "publish": riskyRemote, "install": riskyFetches, "i": riskyFetches, "add": riskyFetches},
	"pip":       {"install": riskyFetches},
	"pip3":      {"install": riskyFetches},
	"uv":        {"run": riskyFetches, "tool": riskyFetches, "pip": riskyFetches},
	"cargo":     {"install": riskyFetches, "publish": riskyRemote},
	"go":        {"install": riskyFetches, "run": riskyFetches, "generate": riskyFetches},
	"gh":        {"api": riskyNetwork, "repo": riskyRemote, "release": riskyRemote, "secret": riskyRemote, "pr": riskyRemote},
	"docker":    {"run": riskySystem, "exec": riskySystem, "rm": riskyDestroys, "rmi": riskyDestroys, "push": riskyRemote},
	"kubectl":   {"apply": riskySystem, "delete": riskyDestroys, "exec": riskySystem, "run": riskySystem},
	"terraform": {"apply": riskySystem, "destroy": riskyDestroys},
	"brew":      {"install": riskyFetches},
}

// Offered is the suggestions an approval card may offer: those not Risky.
// Settings and `rules check` show the same, so nothing looks vetted there
// that the card would refuse.
func (r Result) Offered() []Suggestion {
	var out []Suggestion
	for _, s := range r.Suggestions {
		if s.Risky() == "" {
			out = append(out, s)
		}
	}
	return out
}
