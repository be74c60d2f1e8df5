package toolcli

import (
	"fmt"
	"strings"
	"unicode"
)

// ANSI colors of the diff preview (only when Stdout is a terminal).
const (
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiCyan  = "\x1b[36m"
	ansiDim   = "\x1b[2m"
	ansiReset = "\x1b[0m"
)

// diff prints an approval's diff preview (already bounded by the host) and
// its note under the prompt, indented. The lines are the target file's
// content, so control characters are shown escaped: a file must not be able
// to drive the user's terminal while they decide about it.
func (p *printer) diff(diff, note string) {
	if note != "" {
		p.line("  (" + terminalSafe(note) + ")")
	}
	if diff == "" {
		return
	}
	for l := range strings.SplitSeq(strings.TrimSuffix(diff, "\n"), "\n") {
		p.line("    " + p.paint(terminalSafe(l)))
	}
}

// paint colors one diff line by its first character.
func (p *printer) paint(l string) string {
	if !p.color {
		return l
	}
	color := ""
	switch {
	case strings.HasPrefix(l, "+"):
		color = ansiGreen
	case strings.HasPrefix(l, "-"):
		color = ansiRed
	case strings.HasPrefix(l, "@@"):
		color = ansiCyan
	case strings.HasPrefix(l, "["): // the "[diff truncated: …]" marker
		color = ansiDim
	default:
		return l
	}
	return color + l + ansiReset
}

// terminalSafe escapes control characters (ESC, CR, BEL, C1 controls) and
// bidi overrides, which could make a line read differently than it is, as
// Go escapes; tabs stay.
func terminalSafe(s string) string {
	if !strings.ContainsFunc(s, isUnsafe) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isUnsafe(r) {
			q := fmt.Sprintf("%+q", string(r))
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isUnsafe(r rune) bool {
	return r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029')
}
