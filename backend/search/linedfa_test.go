package search

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// perLine is the definition the DFA must meet: the lines (as matchLines
// numbers them) that regexp matches one by one.
func perLine(m *matcher, text string) []int {
	var want []int
	body := strings.TrimPrefix(text, "\uFEFF")
	if body == "" {
		return nil
	}
	for i, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if m.re.MatchString(l) {
			want = append(want, i+1)
		}
	}
	return want
}

// TestLineDFAMatchesRegexp runs patterns without a required literal (the
// ones the DFA serves) over texts that exercise every empty-width
// assertion, CRLF, invalid UTF-8, non-ASCII classes and case folding.
func TestLineDFAMatchesRegexp(t *testing.T) {
	texts := []string{
		"",
		"\n",
		"2024-01-02\nno date\r\nx 1999/12/31 y\n12345-67-89\n",
		"word\nwords sword\n a_b \n\n",
		"ünïcödé\nÜNÏCÖDÉ\n\xff\xfe bad\n世界 hello\n",
		"abc\r\n\r\nabc\r",
		"\uFEFFstart\nlast line without newline",
		"KELVIN \u212Aelvin kelvin\nstraße STRASSE\n",
		// Non-ASCII runes and invalid bytes right against a match, which an
		// idle state skips as it skips the bytes that keep it idle.
		"ü2024-01-02ü\n\xff2024/01/02\xfe\né123 x\u00e9y 世1999.12.31界\n",
		"aé\nbé1\n\u212A 42\n",
		"a é\nab\n1é\n  é\n",
	}
	patterns := []struct {
		p    string
		fold bool
	}{
		{`[0-9]{4}[-/.][0-9]{2}[-/.][0-9]{2}`, false},
		{`\d+`, false},
		{`^\w+$`, false},
		{`\b[vw]\w*`, false},
		{`\Bord\b|^$`, false},
		{`[^a]$`, false},
		{`.`, false},
		{`x*`, false},
		{`\pL+\s\pL`, false},
		{`[ü-ÿ]`, true},
		{`(?i)[k]elvin|stra[sß]`, false},
		{`\A\z`, false},
		{`[\x{FFFD}x]`, false},
		{`a|b|c`, true},
		{`(a|b)*[cd]`, false},
		{`\d{4}-\d{2}`, false}, // a one-byte literal: the DFA, not the prefilter
		{`\B`, false},          // holds between two non-word runes: a non-ASCII rune after a space matches
		{`1\B|  \B`, false},
	}
	for _, p := range patterns {
		m, err := compilePattern(p.p, p.fold)
		if err != nil {
			t.Fatalf("%s: %v", p.p, err)
		}
		if m.prog == nil {
			t.Fatalf("%s has a literal %q: not a DFA case", p.p, m.lit.s)
		}
		for _, text := range texts {
			want := perLine(m, text)
			d := newLineDFA(m.prog)
			got, ok := d.lines([]byte(strings.TrimPrefix(text, "\uFEFF")), 0)
			if !ok || !equalInts(got, want) {
				t.Errorf("pattern %q fold=%v text %q: DFA %v (ok %v), regexp %v", p.p, p.fold, text, got, ok, want)
			}
			if first, _ := d.lines([]byte(strings.TrimPrefix(text, "\uFEFF")), 1); len(want) > 0 && (len(first) != 1 || first[0] != want[0]) {
				t.Errorf("pattern %q text %q: max 1 gave %v, want [%d]", p.p, text, first, want[0])
			}
		}
	}
}

// TestLineDFABudget: a pattern whose DFA would need more than maxDFAStates
// states gives up, and matchLines answers through regexp instead, the
// same lines.
func TestLineDFABudget(t *testing.T) {
	m, err := compilePattern(`[ab]*[ac][ab]{13}`, false)
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range 2000 {
		for range 60 {
			b.WriteByte("ab"[rnd.IntN(2)])
		}
		b.WriteString("\nc\n")
	}
	text := b.String()
	d := newLineDFA(m.prog)
	if _, ok := d.lines([]byte(text), 0); ok || !d.full {
		t.Fatalf("the DFA did not run out of states (ok %v, full %v, %d states)", ok, d.full, len(d.states))
	}
	if got, want := m.matchLines([]byte(text), 0), perLine(m, text); !equalInts(got, want) {
		t.Errorf("matchLines after the budget ran out: %d lines, want %d", len(got), len(want))
	}
}

// TestPureLiteral: only a pattern that is its literal and nothing else
// skips the regexp.
func TestPureLiteral(t *testing.T) {
	cases := []struct {
		p    string
		fold bool
		pure bool
	}{
		{"func NewReader", false, true},
		{"newreader", true, true},
		{"kelvin", true, false}, // k folds to the Kelvin sign: the literal is "elvin"
		{"ünïcödé", false, true},
		{"ünïcödé", true, false},
		{`func \w+Reader\(`, false, false},
		{`err$`, false, false},
		{`\berr`, false, false},
	}
	for _, tc := range cases {
		m, err := compilePattern(tc.p, tc.fold)
		if err != nil {
			t.Fatal(err)
		}
		if m.pure != tc.pure {
			t.Errorf("%q fold=%v: pure %v, want %v (literal %q)", tc.p, tc.fold, m.pure, tc.pure, m.lit.s)
		}
	}
}
