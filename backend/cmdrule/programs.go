package cmdrule

import "strings"

// alwaysAsk names programs that run code the classifier cannot see, or run
// as someone else: no rule can allow them, whatever follows.
var alwaysAsk = map[string]string{
	"eval":     "eval runs a string as shell code",
	"exec":     "exec replaces the shell with another program",
	"source":   "source runs a file's commands in this shell",
	".":        ". runs a file's commands in this shell",
	"alias":    "an alias can make any word run anything",
	"trap":     "trap runs a string as shell code later",
	"enable":   "enable switches shell builtins on and off",
	"hash":     "hash changes which file a program name runs",
	"fc":       "fc re-runs commands from the history",
	"xargs":    "xargs runs commands built from its input",
	"parallel": "parallel runs commands built from its input",
	"watch":    "watch runs its arguments as a shell command",
	"sudo":     "runs as another user; never looked through",
	"doas":     "runs as another user; never looked through",
	"su":       "runs as another user; never looked through",
	"pkexec":   "runs as another user; never looked through",
	"npx":      "npx downloads and runs a package",
	"pnpx":     "pnpx downloads and runs a package",
	"bunx":     "bunx downloads and runs a package",
	"coproc":   "coproc runs a command in the background",
}

// neverAllowed is why an allow rule for program could never apply.
func neverAllowed(program string) string {
	return alwaysAsk[baseName(program)]
}

// shellPrograms are programs that run a shell language: -c code or code on their
// input is not visible to the classifier.
var shellPrograms = set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox",
	"pwsh", "powershell", "cmd")

// interpreters run a language whose inline code (python -c, node -e) or
// code on their input the classifier cannot see.
var interpreters = set("python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "deno", "bun",
	"perl", "ruby", "php", "lua", "luajit", "rscript", "julia", "tclsh", "wish", "osascript", "irb",
	"sqlite3", "psql", "mysql", "ssh", "gdb", "lldb", "vim", "nvim", "emacs", "expect", "groovy", "scala", "jshell")

// dangerousVar reports assignments that change what a command runs or how:
// the program search path, the dynamic loader, start-up files, git's
// environment, a home whose dotfiles configure the program.
func dangerousVar(name string) bool {
	switch name {
	case "PATH", "BASH_ENV", "ENV", "PROMPT_COMMAND", "IFS", "SHELLOPTS", "BASHOPTS", "PS4", "CDPATH",
		"HOME", "ZDOTDIR", "PAGER", "EDITOR", "VISUAL", "LESSOPEN", "LESSCLOSE", "MANPAGER",
		"NODE_OPTIONS", "NODE_PATH", "PERL5OPT", "PERL5LIB", "RUBYOPT", "RUBYLIB", "PYTHONPATH",
		"PYTHONSTARTUP", "PYTHONHOME", "PYTHONINSPECT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "SSH_ASKPASS",
		"NPM_CONFIG_SCRIPT_SHELL", "npm_config_script_shell", "CARGO_HOME", "RUSTC_WRAPPER", "GOFLAGS", "CC", "CXX":
		return true
	}
	for _, p := range []string{"LD_", "DYLD_", "GIT_", "XDG_", "BASH_FUNC_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// runOptions are options that make a program run another program or load
// a configuration that can: the command asks whatever rule allows it
// (go test -exec, npm --script-shell, tar --to-command, ssh -o, rsync -e).
var runOptions = map[string][]string{
	"go":    {"-exec", "-toolexec", "--exec", "--toolexec"},
	"npm":   {"--script-shell", "--node-options"},
	"pnpm":  {"--script-shell", "--node-options"},
	"yarn":  {"--script-shell", "--node-options"},
	"cargo": {"--config"},
	"make":  {"-f", "--file", "--makefile", "--eval"},
	"gmake": {"-f", "--file", "--makefile", "--eval"},
	"tar":   {"--to-command", "-I", "--use-compress-program", "--checkpoint-action", "--info-script", "-F", "--new-volume-script"},
	"zip":   {"-TT", "--unzip-command"},
	"ssh":   {"-o", "-F"},
	"scp":   {"-o", "-F", "-S"},
	"sftp":  {"-o", "-F", "-S"},
	"rsync": {"-e", "--rsh", "--rsync-path"},
}

// runOption is the argument among args that is one of program's
// runOptions (as written, with =value, or a short one with its value
// attached), or "".
func runOption(program string, args []word) string {
	opts := runOptions[program]
	for _, a := range args {
		v := a.denyVal()
		if v == "--" {
			break
		}
		for _, o := range opts {
			short := len(o) == 2
			if v == o || strings.HasPrefix(v, o+"=") || short && strings.HasPrefix(v, o) {
				return v
			}
		}
		// make VAR=value on the command line overrides the makefile's.
		if (program == "make" || program == "gmake") && (strings.HasPrefix(v, "SHELL=") || strings.HasPrefix(v, "MAKEFLAGS=") || strings.HasPrefix(v, ".SHELLFLAGS=")) {
			return v
		}
	}
	return ""
}

// subcommands lists programs whose first word is a subcommand: an "Always
// allow" suggestion keeps it (git status, not git).
var subcommands = set("git", "go", "cargo", "docker", "podman", "kubectl", "helm", "gh", "npm", "pnpm", "yarn",
	"bun", "pip", "pip3", "uv", "poetry", "brew", "dotnet", "terraform", "rustup", "deno", "swift", "mix",
	"bundle", "composer", "gradle", "mvn", "conda", "make", "just", "task", "nx", "turbo")

// runScripts are package managers whose `run X` runs the package's script
// X: the suggestion keeps the script's name (npm run test).
var runScripts = set("npm", "pnpm", "yarn", "bun")

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
