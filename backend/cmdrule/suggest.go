package cmdrule

import "strings"

// suggest lists the "Always allow …" choices for the commands that ask only
// because no rule allows them: one per distinct program and subcommand
// (git status, go test, npm run test), never the exact command, and none at
// all when any command holds a construct that always asks — allowing part
// of such a command would not make it run without a card anyway, and the
// card must not suggest that it would.
func suggest(cmds []Command) []Suggestion {
	for _, c := range cmds {
		if c.AlwaysAsk {
			return nil
		}
	}
	var out []Suggestion
	seen := map[string]bool{}
	for _, c := range cmds {
		if !c.unmatched {
			continue
		}
		s, ok := suggestion(c.words)
		if !ok || seen[s.Words()] {
			continue
		}
		seen[s.Words()] = true
		out = append(out, s)
	}
	return out
}

// suggestion is the rule that would allow words' program and subcommand.
func suggestion(words []word) (Suggestion, bool) {
	prog := words[0]
	if !prog.literal || prog.val == "" {
		return Suggestion{}, false
	}
	name := prog.val
	if strings.ContainsAny(name, `/\`) {
		// A program named by its path is a file a later Write can replace,
		// and /usr/bin/git is git: neither may be allowed by its spelling.
		return Suggestion{}, false
	}
	if !subcommands[name] {
		if interpreters[baseName(name)] || shellPrograms[baseName(name)] {
			// Allowing the bare interpreter would allow every script.
			return Suggestion{}, false
		}
		return Suggestion{Program: name, Args: []string{}}, true
	}
	// The subcommand must be the first argument, a plain word: for
	// `git -C x status` there is no safe short rule to offer.
	n := 1
	if runScripts[name] && len(words) > 1 && (words[1].val == "run" || words[1].val == "run-script") {
		n = 2
	}
	if len(words) <= n {
		return Suggestion{}, false
	}
	args := make([]string, 0, n)
	for _, w := range words[1 : n+1] {
		if !w.literal || w.val == "" || strings.HasPrefix(w.val, "-") || strings.ContainsAny(w.val, "/=") && name != "make" {
			return Suggestion{}, false
		}
		args = append(args, w.val)
	}
	return Suggestion{Program: name, Args: args}, true
}
