// Package shells describes the command shells PI-Desktop can run Bash tool
// commands in: the catalog of stable IDs, how each one is found on a
// machine (Resolve, behind a fake-able Env), how a command becomes an argv
// (Resolved.Invocation), and the Unix login-shell PATH probe (PathProbe).
// The IDs are stable: settings persist them.
package shells

// Stable shell IDs (spec §5, shell catalog).
const (
	Bash              = "bash"
	GitBash           = "git-bash"
	WindowsPowerShell = "windows-powershell"
	WindowsPwsh       = "windows-pwsh"
	Cmd               = "cmd"
)

// Dialects: the language a shell's commands are written in. A turn pins the
// shell ID and its dialect.
const (
	DialectPOSIX      = "posix"
	DialectPowerShell = "powershell"
	DialectCmd        = "cmd"
)

// Entry is one catalog entry.
type Entry struct {
	ID      string
	Label   string
	Dialect string
}

// ForPlatform lists the shells a platform supports, its default first.
func ForPlatform(goos string) []Entry {
	if goos == "windows" {
		return []Entry{
			{ID: WindowsPowerShell, Label: "Windows PowerShell", Dialect: DialectPowerShell},
			{ID: WindowsPwsh, Label: "PowerShell 7", Dialect: DialectPowerShell},
			{ID: GitBash, Label: "Git Bash", Dialect: DialectPOSIX},
			{ID: Cmd, Label: "Command Prompt", Dialect: DialectCmd},
		}
	}
	return []Entry{{ID: Bash, Label: "Bash", Dialect: DialectPOSIX}}
}

// Supported reports whether id names a shell of platform goos.
func Supported(goos, id string) bool {
	_, ok := lookup(goos, id)
	return ok
}

func lookup(goos, id string) (Entry, bool) {
	for _, e := range ForPlatform(goos) {
		if e.ID == id {
			return e, true
		}
	}
	return Entry{}, false
}
