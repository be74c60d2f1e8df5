package search

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseRgJSON feeds arbitrary bytes to the rg --json parser: it must
// never panic, and whatever it emits must be well formed (ascending
// positive line numbers, non-empty groups).
func FuzzParseRgJSON(f *testing.F) {
	f.Add([]byte(`{"type":"begin","data":{"path":{"text":"./a:b.txt"}}}
{"type":"match","data":{"path":{"text":"./a:b.txt"},"lines":{"text":"x\n"},"line_number":3,"absolute_offset":4,"submatches":[]}}
{"type":"end","data":{"path":{"text":"./a:b.txt"},"binary_offset":null,"stats":{}}}
{"data":{"elapsed_total":{"human":"0.01s","nanos":1,"secs":0},"stats":{}},"type":"summary"}
`))
	f.Add([]byte(`{"type":"begin","data":{"path":{"bytes":"Li9hP2I="}}}` + "\n" +
		`{"type":"match","data":{"path":{"bytes":"Li9hP2I="},"line_number":1}}` + "\n" +
		`{"type":"end","data":{"path":{"bytes":"Li9hP2I="}}}`))
	f.Add([]byte(`{"type":"match","data":{"path":{"text":"x"},"line_number":1}}`))
	f.Add([]byte("not json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = parseRgJSON(bytes.NewReader(data), func(path string, lines []int) bool {
			if len(lines) == 0 {
				t.Fatalf("empty group for %q", path)
			}
			for i, n := range lines {
				if n < 1 || (i > 0 && n <= lines[i-1]) {
					t.Fatalf("bad lines %v", lines)
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
