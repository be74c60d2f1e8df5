package search

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseRgText feeds arbitrary bytes to the rg output parser in each
// mode: it must never panic, and whatever it emits must be well formed
// (non-empty distinct paths, ascending positive line numbers, positive
// counts).
func FuzzParseRgText(f *testing.F) {
	f.Add([]byte("./a:b.txt\x003:[Omitted long matching line]\n./a:b.txt\x007:x\n./c\nd\x001:\n"), 0)
	f.Add([]byte("./a.txt\x0012\n./b\xff.txt\x001\n"), 1)
	f.Add([]byte("./a.txt\x00./b.txt\x00"), 2)
	f.Add([]byte("./l\x001:[Omitted long matching line]\n./l: WARNING: stopped searching binary file after match (found \"\\0\" byte around offset 9)\n"), 0)
	f.Add([]byte("not rg\n"), 0)
	modes := []string{ModeContent, ModeCount, ModeFilesWithMatches}
	f.Fuzz(func(t *testing.T, data []byte, mode int) {
		m := modes[(mode%3+3)%3]
		seen := map[string]bool{}
		_ = parseRgText(bytes.NewReader(data), m, func(r rgHitRec) bool {
			if r.path == "" || seen[r.path] {
				t.Fatalf("path %q empty or emitted twice", r.path)
			}
			seen[r.path] = true
			switch m {
			case ModeContent:
				if len(r.lines) == 0 {
					t.Fatalf("empty group for %q", r.path)
				}
				for i, n := range r.lines {
					if n < 1 || (i > 0 && n <= r.lines[i-1]) {
						t.Fatalf("bad lines %v", r.lines)
					}
				}
			case ModeCount:
				if r.count < 1 {
					t.Fatalf("count %d", r.count)
				}
			}
			return false
		})
	})
}

// FuzzMatchLines checks the builtin searcher (literal prefilter plus
// whole-file regexp) against the obvious line-by-line search: the
// prefilter must never drop a matching line.
func FuzzMatchLines(f *testing.F) {
	seeds := []struct {
		pattern string
		fold    bool
		text    string
	}{
		{"needle", false, "a\nneedle\r\nb needle\n"},
		{"kelvin", true, "\u212Aelvin\nKELVIN\nkelvin"},
		{`(?i)straße`, false, "STRASSE\nstraße\nSTRAßE\n"},
		{`^\w+$`, false, "ab\n\ncd ef\r\nx"},
		{`a.b`, false, "a\rb\na\nb\naxb"},
		{`x*`, false, "\n\n"},
		{`foo(bar)+baz`, true, "FOOBARBARBAZ\nfoobaz"},
		{`\bword\b`, false, "a word.\nwords\n"},
		{`[^a]$`, false, "ba\r\nbb\r\n"},
		{`[0-9]{4}-[0-9]{2}`, false, "2024-01\nx 1999-1\n"}, // no literal: the lazy DFA
		{`\b[a-z]+\B`, true, "Ab cd\nÉtat\n"},
		{`^$|\pL\d`, false, "\n\nä1\n\xff2"},
		{"err", false, "er er rr\nerr err\n\nxerr"},                        // common letters: the eight-lane scan
		{"ERR", true, "er Er\nfoo\nhErRor\n" + "e r e r e r e r e r\nerr"}, // folded lanes
		{`New\w+er`, true, "newreader\nNEWWRITER\nnew er\n"},               // a folded literal prefilter, then regexp
		{`[0-9]{2}[-.][0-9]`, false, "ü12-3\n\xff45.6\xfe\n世78-x"},         // an idle DFA state skipping non-ASCII bytes
		{`[ks]\d`, true, "\u212A1 \u017F2\nk3\n"},                          // folded ASCII classes that match non-ASCII runes
		{`\B|[0-9]`, false, "a é\nab\n1é"},                                 // \B holds between a space and a non-ASCII rune
	}
	for _, s := range seeds {
		f.Add(s.pattern, s.fold, s.text)
	}
	f.Fuzz(func(t *testing.T, pattern string, fold bool, text string) {
		m, err := compilePattern(pattern, fold)
		if err != nil {
			return
		}
		data := []byte(text)
		got := m.matchLines(data, 0)
		var want []int
		body := strings.TrimPrefix(text, "\uFEFF")
		if body != "" {
			lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
			for i, l := range lines {
				if m.re.MatchString(l) {
					want = append(want, i+1)
				}
			}
		}
		if !equalInts(got, want) {
			t.Fatalf("pattern %q fold=%v text %q: got %v want %v (literal %q)", pattern, fold, text, got, want, m.lit.s)
		}
	})
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
