package cmdrule

import "strings"

// allowMatches reports whether r's words are exactly the command's leading
// words: every word of the prefix a plain literal, the program spelled as
// in the rule (./git or /tmp/git is not git), each argument equal. Further
// arguments may follow; `git status` matches `git status -s`, never
// `git statusx` or `git -C x status`.
func allowMatches(r Rule, words []word) bool {
	if len(words) < len(r.Args)+1 {
		return false
	}
	if !words[0].literal || words[0].val != r.Program {
		return false
	}
	for i, a := range r.Args {
		w := words[i+1]
		if !w.literal || w.val != a {
			return false
		}
	}
	return true
}

// globalValueOptions are options of a program, before its subcommand, whose
// value is the next word (git -C DIR push): skipped when a restrictive rule
// looks for the subcommand.
var globalValueOptions = map[string][]string{
	"git":     {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path", "--super-prefix"},
	"docker":  {"-H", "--host", "--context", "-c", "--config", "-l", "--log-level"},
	"kubectl": {"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--cluster", "--user"},
	"npm":     {"--prefix", "-C", "-w", "--workspace"},
	"pnpm":    {"-C", "--dir", "--filter", "-F"},
	"yarn":    {"--cwd"},
	"cargo":   {"-C", "--config", "-Z"},
	"go":      {"-C"},
	"make":    {"-C", "-f", "--file", "--directory", "-I", "-j", "-l", "-o", "-W"},
}

// restrictiveMatches reports whether a deny or ask rule r catches the
// command. It is wider than allowMatches on purpose — a deny that misses is
// worse than one that over-asks: the program is compared by base name
// (/bin/rm is rm), the rule's leading plain words must be the command's
// first non-option words (git -C x push is git push), and the rest of the
// rule's words may appear anywhere, with short options grouped or apart
// (rm -fr and rm -r -f both carry -rf). Words that are not plain literals
// are compared as written.
func restrictiveMatches(r Rule, words []word) bool {
	if len(words) == 0 || baseName(words[0].denyVal()) != baseName(r.Program) {
		return false
	}
	lead := 0
	for lead < len(r.Args) && !strings.HasPrefix(r.Args[lead], "-") {
		lead++
	}
	args := words[1:]
	if !leadingWordsMatch(baseName(r.Program), r.Args[:lead], args) {
		return false
	}
	for _, want := range r.Args[lead:] {
		if !appears(want, args) {
			return false
		}
	}
	return true
}

func leadingWordsMatch(program string, lead []string, args []word) bool {
	valueOpts := globalValueOptions[program]
	i := 0
	for _, want := range lead {
		for i < len(args) && strings.HasPrefix(args[i].denyVal(), "-") && args[i].denyVal() != "--" {
			opt := args[i].denyVal()
			i++
			for _, v := range valueOpts {
				if opt == v {
					i++ // its value
					break
				}
			}
		}
		if i < len(args) && args[i].denyVal() == "--" {
			i++
		}
		if i >= len(args) || args[i].denyVal() != want {
			return false
		}
		i++
	}
	return true
}

// appears reports whether the rule word want is among args: equal, as
// --flag=value for --flag, or for a short option cluster (-rf) each letter
// carried by some short option word.
func appears(want string, args []word) bool {
	for _, a := range args {
		if a.denyVal() == want || (strings.HasPrefix(want, "--") && strings.HasPrefix(a.denyVal(), want+"=")) {
			return true
		}
	}
	if !isShortCluster(want) {
		return false
	}
	have := map[byte]bool{}
	for _, a := range args {
		if a.denyVal() == "--" {
			break
		}
		if isShortCluster(a.denyVal()) {
			for i := 1; i < len(a.denyVal()); i++ {
				have[a.denyVal()[i]] = true
			}
		}
	}
	for i := 1; i < len(want); i++ {
		if !have[want[i]] {
			return false
		}
	}
	return true
}

func isShortCluster(s string) bool {
	if len(s) < 2 || s[0] != '-' || s[1] == '-' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
