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
	// wide is, for a word that is not a plain literal, its best-effort
	// value for deny and ask rules: $'…' decoded, quotes removed, other
	// expansions as written — so $'\x72m' -rf still meets deny rm -rf.
	wide string
	// fixedLead: the word's first character is known before the shell runs
	// and is not '-', so whatever it expands to cannot be an option.
	fixedLead bool
}

// denyVal is the value deny and ask rules compare.
func (w word) denyVal() string {
	if w.wide != "" {
		return w.wide
	}
	return w.val
}

// evalWord removes quotes from w when every part of it is literal text. A
// variable, substitution, glob, brace, tilde, $'…' or $"…" makes it
// non-literal: what it becomes is only known when the shell runs it.
func evalWord(src string, w *syntax.Word) word {
	var b strings.Builder
	literal := true
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if !unquoteLit(&b, p.Value) {
				literal = false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				literal = false
				decodeANSIC(&b, p.Value)
				continue
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			literal = literal && !p.Dollar
			for _, q := range p.Parts {
				if lit, ok := q.(*syntax.Lit); ok {
					unquoteDouble(&b, lit.Value)
					continue
				}
				literal = false
				b.WriteString(sourceOf(src, q))
			}
		default:
			literal = false
			b.WriteString(sourceOf(src, part))
		}
	}
	if !literal {
		return word{val: sourceOf(src, w), wide: b.String(), fixedLead: leadIsFixed(w)}
	}
	return word{val: b.String(), literal: true, fixedLead: !strings.HasPrefix(b.String(), "-")}
}

// leadIsFixed reports whether a non-literal word's first character is
// literal text other than '-': `src/$f` can never become an option,
// `$f`, `"$f"`, `-$f`, `$'-c'`, `*.go` (a file named -rf) and `{-c,x}` can.
func leadIsFixed(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	var first string
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		first = p.Value
		if strings.HasPrefix(first, "\\") && len(first) > 1 {
			return first[1] != '-' && first[1] != '\n'
		}
		if first != "" && strings.IndexByte("*?[{~", first[0]) >= 0 {
			return false
		}
	case *syntax.SglQuoted:
		if p.Dollar {
			return false
		}
		first = p.Value
	case *syntax.DblQuoted:
		if p.Dollar || len(p.Parts) == 0 {
			return false
		}
		lit, ok := p.Parts[0].(*syntax.Lit)
		if !ok {
			return false
		}
		first = lit.Value
		if strings.HasPrefix(first, "\\") {
			return false // an escape inside quotes: not worth decoding here
		}
	default:
		return false
	}
	return first != "" && first[0] != '-'
}

// decodeANSIC appends the value of $'s' (bash's ANSI-C quoting), for the
// deny view only: \x72m is rm. Escapes it does not know are kept as written.
func decodeANSIC(b *strings.Builder, s string) {
	simple := map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'a': 7, 'b': 8, 'e': 27, 'E': 27, 'f': 12, 'v': 11,
		'\\': '\\', '\'': '\'', '"': '"', '?': '?'}
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		c := s[i]
		if r, ok := simple[c]; ok {
			b.WriteByte(r)
			continue
		}
		base, max := 0, 0
		switch {
		case c == 'x':
			base, max = 16, 2
		case c == 'u':
			base, max = 16, 4
		case c == 'U':
			base, max = 16, 8
		case c >= '0' && c <= '7':
			base, max, i = 8, 3, i-1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
			continue
		}
		n, j := 0, i+1
		for ; j < len(s) && j-i-1 < max; j++ {
			d := hexVal(s[j])
			if d < 0 || d >= base {
				break
			}
			n = n*base + d
		}
		if j == i+1 {
			b.WriteByte('\\')
			b.WriteByte(c)
			continue
		}
		if c == 'u' || c == 'U' {
			b.WriteRune(rune(n))
		} else {
			b.WriteByte(byte(n))
		}
		i = j - 1
	}
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
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
	plain := true
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
			plain = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return plain
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
