package cmdrule

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word: its value after quote removal when it is a plain
// literal, its source text otherwise.
type word struct {
	val     string
	literal bool
}

// evalWord removes quotes from w when every part of it is literal text. A
// variable, substitution, glob, brace, tilde, $'…' or $"…" makes it
// non-literal: what it becomes is only known when the shell runs it.
func evalWord(src string, w *syntax.Word) word {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if !unquoteLit(&b, p.Value) {
				return rawWord(src, w)
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return rawWord(src, w)
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return rawWord(src, w)
			}
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return rawWord(src, w)
				}
				unquoteDouble(&b, lit.Value)
			}
		default:
			return rawWord(src, w)
		}
	}
	return word{val: b.String(), literal: true}
}

func rawWord(src string, w *syntax.Word) word {
	return word{val: sourceOf(src, w)}
}

// sourceOf is node's text as written in src.
func sourceOf(src string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return src[start:end]
}

// unquoteLit appends an unquoted literal's value with backslashes removed.
// It reports false for characters the shell would expand: globs (* ? [),
// braces ({), and a tilde anywhere (bash expands ~ after = and : in some
// words; asking there costs little).
func unquoteLit(b *strings.Builder, s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' { // a line continuation is removed
					b.WriteByte(s[i])
				}
			}
		case c == '*' || c == '?' || c == '[' || c == '{' || c == '~':
			return false
		default:
			b.WriteByte(c)
		}
	}
	return true
}

// unquoteDouble appends a double-quoted literal's value: a backslash
// escapes only $ ` " \ and newline there.
func unquoteDouble(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(c)
	}
}

// baseName is the last path element of a program word, for the restrictive
// rules (deny, ask) that must also catch /bin/rm and ./rm.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(p), ".exe")
}
