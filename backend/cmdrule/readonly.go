package cmdrule

import "strings"

// readOnlyPrograms change no file whatever their arguments. Programs that
// can through an option are left out (sort -o, tree -o, file -C, find
// -delete, rg --pre, git, sed -i …), as is anything that runs other
// programs.
var readOnlyPrograms = set("true", "false", ":", "pwd", "echo", "printf", "ls", "cat", "head", "tail", "wc",
	"grep", "egrep", "fgrep", "stat", "du", "df", "which", "basename", "dirname", "realpath", "readlink",
	"uname", "whoami", "id", "sleep", "cmp", "diff")

// ReadOnly reports that the script, as parsed, can change no file: every
// command it runs (those in substitutions too) is a bare name of
// readOnlyPrograms, unwrapped, and nothing is redirected into a file. The
// host takes no checkpoint around such a command. A wrong "true" here
// loses no data: a change the snapshots did not see around the command
// counts as someone else's at a restore (a conflict, kept unless the user
// overwrites it).
func (r Result) ReadOnly() bool {
	if r.ParseError != "" || len(r.Writes) > 0 || len(r.Commands) == 0 {
		return false
	}
	for _, c := range r.Commands {
		if c.AlwaysAsk || len(c.Wrappers) > 0 || strings.ContainsAny(c.Program, `/\`) || !readOnlyPrograms[c.Program] {
			return false
		}
	}
	return true
}
