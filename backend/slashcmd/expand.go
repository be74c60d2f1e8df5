package slashcmd

import (
	"strings"
)

// SplitArgs splits what follows a command's name into arguments as a shell
// would, without expanding anything: spaces separate, "a b" and 'a b' are
// one argument, a backslash keeps the next character (outside single
// quotes). An unclosed quote runs to the end: a prompt is never refused
// for its quoting.
func SplitArgs(s string) []string {
	var args []string
	var cur strings.Builder
	inArg := false
	var quote rune // 0, '"' or '\''
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped = true
			inArg = true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote = r
			inArg = true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if escaped { // a trailing backslash is itself
		cur.WriteRune('\\')
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args
}

// ArgumentsLabel introduces the arguments appended to a template that has
// no placeholder, so what the user typed after the name still reaches the
// model (Claude Code does the same).
const ArgumentsLabel = "ARGUMENTS: "

// Expand fills template: $ARGUMENTS becomes args as typed (trimmed), $1 to
// $9 the arguments SplitArgs finds (a missing one is empty). Substitution
// is one pass: an argument holding "$2" is not expanded again. A template
// without any placeholder gets non-empty args appended after ArgumentsLabel.
func Expand(template, args string) string {
	raw := args // inside an unclosed quote, trailing spaces are the argument's
	args = strings.TrimSpace(args)
	var positional []string
	var out strings.Builder
	used := false
	for i := 0; i < len(template); {
		j := strings.IndexByte(template[i:], '$')
		if j < 0 {
			out.WriteString(template[i:])
			break
		}
		out.WriteString(template[i : i+j])
		i += j
		rest := template[i+1:]
		switch {
		case strings.HasPrefix(rest, "ARGUMENTS"):
			out.WriteString(args)
			i += 1 + len("ARGUMENTS")
			used = true
		case len(rest) > 0 && rest[0] >= '1' && rest[0] <= '9':
			if positional == nil {
				positional = SplitArgs(raw)
			}
			if n := int(rest[0] - '1'); n < len(positional) {
				out.WriteString(positional[n])
			}
			i += 2
			used = true
		default:
			out.WriteByte('$')
			i++
		}
	}
	if !used && args != "" {
		out.WriteString("\n\n" + ArgumentsLabel + args)
	}
	return out.String()
}
