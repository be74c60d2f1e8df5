package slashcmd

import (
	"regexp"
	"slices"
	"strings"
)

// Limits: commands come from folders anyone can fill (a cloned repository),
// and the menu and the prompt must stay small.
const (
	// MaxSize is the largest command file read, in bytes.
	MaxSize = 64 << 10
	// MaxFiles is the most .md files read from one folder (subfolders
	// included); the rest are reported in one row.
	MaxFiles = 256
	// MaxDepth is how many subfolders deep names go (git/commit.md is 1).
	MaxDepth = 3
	// MaxDescription is the longest description kept, in bytes.
	MaxDescription = 1024
	// MaxArgumentHint is the longest argument hint kept, in bytes.
	MaxArgumentHint = 256
)

// Source is where a command comes from.
type Source string

const (
	SourceUser    Source = "user"
	SourceProject Source = "project"
	// SourcePlugin is an enabled plugin's commands/ folder: read last, and
	// never replacing a command of the same name.
	SourcePlugin Source = "plugin"
)

// Command is a usable command.
type Command struct {
	// Name is what follows "/" in the composer: "review", "git:commit".
	Name         string
	Description  string
	ArgumentHint string
	Source       Source
	// Path is the file's path as shown to the user.
	Path string
	// Template is the body after the front matter.
	Template string
}

// State is a listed file's standing.
type State string

const (
	StateEffective  State = "effective"  // offered in the menu
	StateOverridden State = "overridden" // a later source has the same name
	StateError      State = "error"      // the file cannot be used: Problems[0] says why
)

// Row is one file as listed (or one folder that could not be read fully).
type Row struct {
	Command
	State State
	// Problems say why a file cannot be used, what of it was ignored, or
	// which file replaced it. Empty for a clean command in effect.
	Problems []string
}

// Catalog is the result of Load.
type Catalog struct {
	// Commands are those in effect, sorted by name.
	Commands []Command
	// Rows are every file seen, sorted by name, then override order.
	Rows []Row
}

// Lookup returns the command in effect with that name.
func (c Catalog) Lookup(name string) (Command, bool) {
	i := slices.IndexFunc(c.Commands, func(cmd Command) bool { return cmd.Name == name })
	if i < 0 {
		return Command{}, false
	}
	return c.Commands[i], true
}

// Builtins are the composer's own commands: a file cannot take their names.
// skill is the prefix of /skill:<name>.
func builtinNames() []string {
	return []string{"new", "plan", "goal", "agent", "compact", "model", "mode", "mcp", "skill"}
}

// Builtin reports whether name belongs to the composer (a built-in, or the
// /skill: prefix).
func Builtin(name string) bool {
	first, _, _ := strings.Cut(name, ":")
	return slices.Contains(builtinNames(), strings.ToLower(first))
}

var namePart = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

// validPart reports whether one segment of a name (a folder or the file's
// stem) can be typed after "/".
func validPart(s string) bool { return len(s) <= 64 && namePart.MatchString(s) }
