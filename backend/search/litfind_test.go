package search

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// refIndex is the finder's answer worked out the slow way: Go's regexp,
// case-insensitive under fold (the literal holds no rune whose case orbit
// leaves ASCII, so (?i) adds nothing a byte scan would miss).
func refIndex(lit []byte, fold bool, data []byte) int {
	expr := regexp.QuoteMeta(string(lit))
	if fold {
		expr = "(?i)" + expr
	}
	loc := regexp.MustCompile(expr).FindIndex(data)
	if loc == nil {
		return -1
	}
	return loc[0]
}

func TestFinderIndex(t *testing.T) {
	long := strings.Repeat("error handling here; ", 40) // the rare byte is everywhere: wide scan
	tests := []struct {
		name, lit string
		fold      bool
		data      string
		want      int
	}{
		{"exact at start", "needle", false, "needle in", 0},
		{"exact at end", "needle", false, "the needle", 4},
		{"exact absent", "needle", false, "needl needle", 6},
		{"exact too short", "needle", false, "need", -1},
		{"one byte", "x", false, "abcx", 3},
		{"fold one byte", "x", true, "abcX", 3},
		{"fold upper", "newreader", true, "func NEWREADER()", 5},
		{"fold mixed", "newreader", true, "a NewReader b newreader", 2},
		{"fold not a letter's case", "a_b", true, "A\x7fB a_B", 4}, // '_'|0x20 is 0x7f: lanes must not fold it
		{"fold digits exact", "v2", true, "V2", 0},
		{"fold not found", "newreader", true, "newreade", -1},
		{"common bytes wide", "err", false, long + "xerr", 0},
		{"common bytes wide, late", "rre", false, strings.Repeat("er ", 100) + "rre", 300},
		{"common bytes wide, fold", "err", true, strings.Repeat("er ", 100) + "ERR", 300},
		{"wide candidate at the tail", "eat", false, strings.Repeat("e ", 50) + "eat", 100},
		{"wide, all but last lane", "ee", false, "e e e e e e e e e e e e e e e e ee", 32},
		{"non-ASCII kept exact", "→x", true, "→X", 0},
		{"after invalid UTF-8", "ab", false, "\xff\xfeab", 2},
		{"many false starts then jump", "Wx", false, strings.Repeat("W", 300) + "x", 299},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := literalOf([]rune(tc.lit), tc.fold)
			if string(l.s) != strings.ToLower(tc.lit) && tc.fold || !tc.fold && string(l.s) != tc.lit {
				t.Fatalf("literal %q = %q", tc.lit, l.s)
			}
			if got := l.index([]byte(tc.data)); got != tc.want {
				t.Errorf("index(%q in %q) = %d; want %d", tc.lit, tc.data, got, tc.want)
			}
			if ref := refIndex(l.s, tc.fold, []byte(tc.data)); ref != tc.want {
				t.Errorf("the reference disagrees with the table: %d", ref)
			}
		})
	}
}

// TestFinderPlan pins which bytes are scanned for: the rarest, and a wide
// scan only when even that one is common.
func TestFinderPlan(t *testing.T) {
	tests := []struct {
		lit      string
		fold     bool
		rare     byte
		wantWide bool
	}{
		{"func NewReader", false, 'N', false},
		{"newreader", true, 'w', false},
		{"err", false, 'r', true},
		{"err", true, 'r', true},
		{"Reader(", false, 'R', false},
		{"x", false, 'x', false},
	}
	for _, tc := range tests {
		f := newFinder([]byte(tc.lit), tc.fold)
		if f.r0 != tc.rare || f.wide != tc.wantWide {
			t.Errorf("%q fold=%v: rare %q wide %v; want %q %v", tc.lit, tc.fold, f.r0, f.wide, tc.rare, tc.wantWide)
		}
		if f.probes[0].off == f.probes[1].off && len(tc.lit) > 1 {
			t.Errorf("%q: both probes at offset %d", tc.lit, f.probes[0].off)
		}
	}
}

// FuzzFinder compares the finder (jumps and the eight-lane scan) with Go's
// regexp on arbitrary literals and text, at every starting offset so that
// candidates fall in every lane and in the tail.
func FuzzFinder(f *testing.F) {
	f.Add("err", false, "x error\nerr")
	f.Add("newreader", true, "func NewReader() *NEWREADER")
	f.Add("a_b", true, "A\x7fB a_B")
	f.Add("ee", false, strings.Repeat("e ", 20)+"ee")
	f.Add("→", true, "x→")
	f.Add("Kelvin", true, "\u212Aelvin KELVIN") // 'k' folds outside ASCII: the literal is "elvin"
	f.Fuzz(func(t *testing.T, lit string, fold bool, text string) {
		l := literalOf([]rune(lit), fold)
		if l.empty() || strings.ContainsRune(string(l.s), utf8.RuneError) {
			// regexp matches U+FFFD against any invalid byte, the byte
			// scan only against its encoding (as rg does); files holding
			// invalid UTF-8 are binary and never reported anyway.
			return
		}
		data := []byte(text)
		for off := 0; off <= len(data) && off < 24; off++ {
			if got, want := l.index(data[off:]), refIndex(l.s, fold, data[off:]); got != want {
				t.Fatalf("literal %q fold=%v in %q (from %d): got %d want %d", l.s, fold, data[off:], off, got, want)
			}
		}
	})
}

// TestFinderLongRuns: the wide scan over text where the probed bytes
// occur in every lane matches the exact search.
func TestFinderLongRuns(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000} {
		data := bytes.Repeat([]byte("er"), n)
		for _, lit := range []string{"err", "rer", "ere", "erer", "rr"} {
			for _, fold := range []bool{false, true} {
				l := literalOf([]rune(lit), fold)
				if got, want := l.index(data), refIndex(l.s, fold, data); got != want {
					t.Errorf("%q in %d×\"er\" fold=%v: got %d want %d", lit, n, fold, got, want)
				}
				tail := append(bytes.Clone(data), lit...)
				if got, want := l.index(tail), refIndex(l.s, fold, tail); got != want {
					t.Errorf("%q after %d×\"er\" fold=%v: got %d want %d", lit, n, fold, got, want)
				}
			}
		}
	}
}
