package worktree

import (
	"strconv"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Variables an isolated session's commands receive.
const (
	EnvPort         = "PI_PORT"          // first port of the session's 10-port block
	EnvProjectRoot  = "PI_PROJECT_ROOT"  // the project folder (the main checkout)
	EnvWorktreeRoot = "PI_WORKTREE_ROOT" // the session's workspace root inside the worktree
)

// Env returns PI_PORT, PI_PROJECT_ROOT and PI_WORKTREE_ROOT for wt, as
// "KEY=value" entries to append to a command's environment.
func Env(wt Worktree, port int) []string {
	return []string{
		EnvPort + "=" + strconv.Itoa(port),
		EnvProjectRoot + "=" + wt.ProjectDir,
		EnvWorktreeRoot + "=" + wt.Root,
	}
}

// MaxSetupCommand bounds a setup command's length in bytes.
const MaxSetupCommand = 16 << 10

// Setup is how to run a project's setup command in a new worktree: the
// caller starts Command in the user's default command shell (the
// defaultCommandShell setting, else the platform default), untranslated,
// with Dir as working directory and Env appended to the environment, shows
// its output, and reports a failure without failing the session.
type Setup struct {
	Command string
	Dir     string
	Env     []string
}

// SetupFor returns the Setup for a new worktree, or ok=false when command is
// blank (no setup configured).
//
// Where the command lives: it is a per-project setting the host stores
// (keyed to the project path, like other project identity), never a file
// read from the repository, so cloning a repository cannot make PI-Desktop
// run a command on its own. ValidateSetupCommand checks a value before the
// caller stores it.
func SetupFor(wt Worktree, port int, command string) (s Setup, ok bool, err error) {
	if strings.TrimSpace(command) == "" {
		return Setup{}, false, nil
	}
	if err := ValidateSetupCommand(command); err != nil {
		return Setup{}, false, err
	}
	return Setup{Command: command, Dir: wt.Root, Env: Env(wt, port)}, true, nil
}

// ValidateSetupCommand accepts "" (no setup) or a command without NUL bytes
// of at most MaxSetupCommand bytes.
func ValidateSetupCommand(command string) error {
	if len(command) > MaxSetupCommand {
		return errs.New(errs.InvalidArgument, "the setup command is longer than %d bytes", MaxSetupCommand).With("field", "setupCommand")
	}
	if strings.ContainsRune(command, 0) {
		return errs.New(errs.InvalidArgument, "the setup command contains a NUL byte").With("field", "setupCommand")
	}
	return nil
}
