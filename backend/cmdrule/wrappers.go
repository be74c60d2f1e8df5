package cmdrule

import (
	"strings"
)

// wrapperOptions lists, per wrapper looked through, its options that take
// the next word as their value; any other option of the wrapper, unless
// listed in wrapperFlags, stops the look-through (ask).
var wrapperOptions = map[string][]string{
	"timeout": {"-s", "--signal", "-k", "--kill-after"},
	"nice":    {"-n", "--adjustment"},
	"stdbuf":  {"-i", "-o", "-e", "--input", "--output", "--error"},
	"nohup":   nil,
	"time":    nil,
	"command": nil,
	"builtin": nil,
	"env":     nil,
}

// wrapperFlags are the wrappers' options without a value that are safe.
var wrapperFlags = map[string][]string{
	"timeout": {"--preserve-status", "--foreground", "-v", "--verbose"},
	"time":    {"-p"},
	"command": {"-p"},
	"env":     {"-i", "--ignore-environment", "-"},
}

// peel looks through the wrappers at the start of words (timeout 10 git
// status is git status). It returns the index of the program that runs, the
// wrappers as written, and a reason to ask when a wrapper's words are not
// all plain literals or it has an option it cannot look through. sudo, doas
// and su are not wrappers: they ask (see alwaysAsk).
func peel(words []word) (start int, wrappers []string, why string) {
	for start < len(words) {
		w := words[start]
		if !w.literal {
			return start, wrappers, ""
		}
		name := w.val
		if _, ok := wrapperOptions[name]; !ok {
			return start, wrappers, ""
		}
		if name == "command" && start+1 < len(words) && (words[start+1].val == "-v" || words[start+1].val == "-V") {
			return start, wrappers, "" // a lookup, not a run
		}
		next, why := skipWrapper(name, words, start+1)
		if why != "" {
			return start, wrappers, why
		}
		if next >= len(words) {
			// A wrapper with nothing to run is the program itself.
			return start, wrappers, ""
		}
		wrappers = append(wrappers, joinRange(words[start:next]))
		start = next
	}
	return start, wrappers, ""
}

// skipWrapper returns the index of the first word after wrapper name's own
// options and operands (timeout's duration, env's assignments).
func skipWrapper(name string, words []word, i int) (int, string) {
	for i < len(words) {
		w := words[i]
		if !w.literal {
			return i, name + " has an argument only known when the shell runs it (" + w.val + ")"
		}
		v := w.val
		if v == "--" {
			i++
			break
		}
		if name == "env" && isAssignment(v) {
			if n, _, _ := strings.Cut(v, "="); dangerousVar(n) {
				return i, "env sets " + n + ", which changes what the command runs"
			}
			i++
			continue
		}
		if !strings.HasPrefix(v, "-") || v == "-" && name != "env" {
			break
		}
		if name == "nice" && len(v) > 1 && isDigits(v[1:]) { // nice -5
			i++
			continue
		}
		switch opt, attached := optionValue(v, wrapperOptions[name]); {
		case opt && attached:
			i++
		case opt:
			i += 2
		case contains(wrapperFlags[name], v):
			i++
		default:
			return i, name + " " + v + " is an option the classifier does not look through"
		}
	}
	if name == "timeout" && i < len(words) {
		i++ // the duration
	}
	return min(i, len(words)), ""
}

// optionValue reports whether v is one of opts (its value the next word)
// or carries its value attached (-n5, --signal=KILL).
func optionValue(v string, opts []string) (isOpt, attached bool) {
	for _, o := range opts {
		switch {
		case v == o:
			return true, false
		case strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"="):
			return true, true
		case !strings.HasPrefix(o, "--") && len(v) > len(o) && strings.HasPrefix(v, o):
			return true, true
		}
	}
	return false, false
}

func isAssignment(v string) bool {
	name, _, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

func joinRange(ws []word) string {
	vals := make([]string, len(ws))
	for i, w := range ws {
		vals[i] = w.val
	}
	return strings.Join(vals, " ")
}
