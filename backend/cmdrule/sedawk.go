package cmdrule

import (
	"fmt"
	"strings"
)

// sedReason: sed that writes files (-i, the w command, s///w) or runs them
// (the e command, s///e), or reads its script from a file, asks.
func sedReason(args []word) string {
	var scripts []string
	explicit := false
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "--":
			i = len(args)
		case v == "-e" || v == "--expression":
			explicit = true
			if i+1 < len(args) {
				i++
				scripts = append(scripts, args[i].val)
			}
		case strings.HasPrefix(v, "--expression="):
			explicit = true
			scripts = append(scripts, strings.TrimPrefix(v, "--expression="))
		case v == "-f" || strings.HasPrefix(v, "--file"):
			return "sed " + v + " reads its script from a file"
		case strings.HasPrefix(v, "--in-place"):
			return "sed " + v + " edits files in place"
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1:
			if strings.ContainsAny(v[1:], "if") {
				return "sed " + v + " edits files in place or reads a script file"
			}
			if strings.HasSuffix(v, "e") {
				explicit = true
				if i+1 < len(args) {
					i++
					scripts = append(scripts, args[i].val)
				}
			}
		case !explicit && !strings.HasPrefix(v, "-") && len(scripts) == 0:
			scripts = append(scripts, v)
		}
	}
	for _, s := range scripts {
		if why := sedScriptReason(s); why != "" {
			return why
		}
	}
	for _, a := range args {
		if !a.literal && !strings.HasPrefix(a.val, "-") {
			return "the sed script " + a.val + " is only known when the shell runs it"
		}
	}
	return ""
}

// sedScriptReason scans a sed script's commands for w, W, e, r-less writes
// and the s command's w and e flags. Anything it cannot follow asks.
func sedScriptReason(s string) string {
	i := 0
	skipAddr := func() {
		for i < len(s) {
			c := s[i]
			switch {
			case c >= '0' && c <= '9', c == '$', c == ',', c == '!', c == '~', c == ' ', c == '\t', c == '+':
				i++
			case c == '/':
				i = skipDelimited(s, i+1, '/')
			case c == '\\' && i+1 < len(s):
				i = skipDelimited(s, i+2, s[i+1])
			default:
				return
			}
		}
	}
	for i < len(s) {
		skipAddr()
		if i >= len(s) {
			break
		}
		c := s[i]
		i++
		switch c {
		case ';', '\n', '{', '}', ' ', '\t':
		case 'w', 'W', 'e':
			return fmt.Sprintf("the sed command %q writes a file or runs a command", string(c))
		case 's', 'y':
			if i >= len(s) {
				return ""
			}
			d := s[i]
			if d == '\\' || d == '\n' {
				return "sed script not followed: an unusual delimiter"
			}
			i = skipDelimited(s, i+1, d)
			i = skipDelimited(s, i, d)
			if c == 'y' {
				continue
			}
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				if s[i] == 'w' || s[i] == 'e' || s[i] == 'W' {
					return fmt.Sprintf("the s command's %q flag writes a file or runs a command", string(s[i]))
				}
				i++
			}
		case 'a', 'i', 'c', ':', 'b', 't', 'T', 'r', 'R', 'q', 'Q', 'l', 'L':
			// Text or a label/file name to the end of the line; r/R read.
			for i < len(s) && s[i] != '\n' && !(c != 'a' && c != 'i' && c != 'c' && s[i] == ';') {
				i++
			}
		case 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', '=', 'z', 'F', '#':
			if c == '#' {
				for i < len(s) && s[i] != '\n' {
					i++
				}
			}
		default:
			return fmt.Sprintf("sed script not followed at %q", string(c))
		}
	}
	return ""
}

// skipDelimited returns the index after the next unescaped d from i.
func skipDelimited(s string, i int, d byte) int {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
			continue
		case d:
			return i + 1
		}
		i++
	}
	return i
}

// awkReason: awk programs that run commands (system, pipes) or write
// files (>), or come from a file, ask.
func awkReason(args []word) string {
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "-F" || v == "-v" || v == "--field-separator" || v == "--assign":
			i++
		case strings.HasPrefix(v, "-F") || strings.HasPrefix(v, "-v") || strings.HasPrefix(v, "--field-separator=") || strings.HasPrefix(v, "--assign="):
		case v == "--":
			if i+1 < len(args) {
				return awkProgramReason(args[i+1])
			}
			return ""
		case strings.HasPrefix(v, "-"):
			return "awk " + v + " is an option that may load code; it is not looked through"
		default:
			return awkProgramReason(args[i])
		}
	}
	return ""
}

func awkProgramReason(w word) string {
	if !w.literal {
		return "the awk program " + w.val + " is only known when the shell runs it"
	}
	if strings.Contains(w.val, "system") || strings.ContainsAny(w.val, "|>") {
		return "the awk program runs commands or writes files (system, | or >)"
	}
	return ""
}
