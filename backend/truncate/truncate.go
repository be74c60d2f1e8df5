// Package truncate cuts strings to a limit in bytes or runes without
// splitting a UTF-8 sequence, so a shortened message, preview or row is never
// made invalid by the cut.
//
// A byte that is not valid UTF-8 counts as one rune, as in a range loop and
// utf8.RuneCountInString; such bytes are kept, not repaired.
//
// It is a leaf: any backend package may import it.
package truncate

import "unicode/utf8"

// Ellipsis marks a string that was cut.
const Ellipsis = "…"

// Bytes returns the longest prefix of s of at most n bytes that does not end
// inside a UTF-8 sequence.
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Runes returns the first n runes of s.
func Runes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

// Tail returns the longest suffix of s of at most n bytes that does not start
// inside a UTF-8 sequence.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	start := len(s) - max(n, 0)
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[start:]
}

// BytesEllipsis is Bytes followed by Ellipsis when s was cut; the result may
// exceed n by the ellipsis.
func BytesEllipsis(s string, n int) string {
	if c := Bytes(s, n); len(c) < len(s) {
		return c + Ellipsis
	}
	return s
}

// RunesEllipsis is Runes followed by Ellipsis when s was cut.
func RunesEllipsis(s string, n int) string {
	if c := Runes(s, n); len(c) < len(s) {
		return c + Ellipsis
	}
	return s
}
