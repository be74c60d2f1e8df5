// Package names shows file names safely in text: a name may hold a line
// break, an escape sequence, a bidi override or a zero-width character,
// and echoed raw it could forge a line of tool output (a newline in a name
// printing a fake "[secret.txt#ABCD] …" header) or read differently from
// what it is. Escape makes every such character visible and the whole
// name reversible; Unescape reverses it.
//
// The escape: a backslash becomes \\ (so the escape is reversible); \n,
// \r and \t stay short; other C0 controls, DEL and bytes that are not
// UTF-8 become \xHH; C1 controls, bidi controls (U+061C, U+200E/F,
// U+202A–U+202E, U+2066–U+2069), zero-width and invisible characters
// (U+200B–U+200D, U+2060, U+FEFF) and the line/paragraph separators
// U+2028/U+2029 become \uHHHH. Every other character is kept, so ordinary
// names (accents, CJK, emoji, spaces) show as they are.
package names

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Escape returns name with its unsafe characters escaped. A name without
// any is returned as is, without allocating.
func Escape(name string) string {
	if clean(name) {
		return name
	}
	var b strings.Builder
	b.Grow(len(name) + 8)
	for i := 0; i < len(name); {
		c := name[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\\':
				b.WriteString(`\\`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20 || c == 0x7f:
				fmt.Fprintf(&b, `\x%02x`, c)
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, c)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(name[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether name needs no escaping.
func clean(name string) bool {
	for i := 0; i < len(name); {
		c := name[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || c == '\\' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(name[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

// Hidden reports a character that must not reach text shown to the model
// or the user raw (a C0 control, DEL, or what Escape writes as \uHHHH):
// untrusted one-line text (a page title) shows it as a space instead.
func Hidden(r rune) bool { return r < 0x20 || r == 0x7f || unsafeRune(r) }

// unsafeRune reports a non-ASCII character that must not be shown raw.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi
		return true
	case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff: // zero-width
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// Unescape reverses Escape. It reports false (and returns s) when s holds
// no escape or a backslash that Escape would not have written: such a
// spelling is taken literally.
func Unescape(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return s, false
		}
		i++
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'x':
			if i+3 > len(s) {
				return s, false
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return s, false
			}
			b.WriteByte(byte(v))
			i += 2
		case 'u':
			if i+5 > len(s) {
				return s, false
			}
			v, err := strconv.ParseUint(s[i+1:i+5], 16, 32)
			if err != nil {
				return s, false
			}
			b.WriteRune(rune(v))
			i += 4
		default:
			return s, false
		}
	}
	return b.String(), true
}
