package search

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// matcher is a Grep pattern prepared once for both engines.
type matcher struct {
	re  *regexp.Regexp // the builtin searcher's regexp (matches within one line)
	rg  string         // the same expression in Rust regex syntax, for rg -e
	lit literal        // required literal for the prefilter; empty if none
	// pure: the pattern is lit and nothing else, so a line matches exactly
	// when it contains lit and the regexp need not run.
	pure bool
	// prog is re's program, for the lazy DFA (linedfa.go) that searches
	// when there is no literal worth a prefilter (nil otherwise); dfas
	// holds one DFA per concurrent search. skipsIdle: that DFA scans most
	// bytes by table (lineDFA.skipsIdle).
	prog      *syntax.Prog
	dfas      sync.Pool
	skipsIdle bool
}

// compilePattern parses pattern as RE2 syntax and rewrites it so that it
// matches within one line, with the same meaning in Go and in rg (see the
// package doc). Errors are INVALID_ARGUMENT naming "pattern".
func compilePattern(pattern string, ignoreCase bool) (*matcher, error) {
	flags := syntax.Perl &^ syntax.OneLine // ^ and $ are line anchors, as in rg
	if ignoreCase {
		flags |= syntax.FoldCase
	}
	tree, err := syntax.Parse(pattern, flags)
	if err != nil {
		return nil, invalidPattern("invalid regular expression: %v", err)
	}
	if err := lineLocal(tree); err != nil {
		return nil, err
	}
	tree = tree.Simplify()
	src := tree.String()
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, invalidPattern("invalid regular expression: %v", err)
	}
	m := &matcher{re: re, rg: rustSyntax(src), lit: requiredLiteral(tree)}
	m.pure = tree.Op == syntax.OpLiteral && utf8.RuneCount(m.lit.s) == len(tree.Rune)
	if !m.prefiltered() {
		// No literal, or one byte that is on most lines ("-"): the
		// prefilter would skip little, so the DFA searches instead.
		// The program regexp.Compile(src) runs: src parsed and simplified again.
		if t, err := syntax.Parse(src, syntax.Perl); err == nil {
			m.prog, _ = syntax.Compile(t.Simplify())
		}
		if m.prog != nil {
			d := newLineDFA(m.prog)
			m.skipsIdle = d.skipsIdle()
			m.dfas.Put(d) // the first search's
		}
	}
	return m, nil
}

// prefiltered reports whether the builtin engine finds candidate lines by
// a literal (the pattern is one, or holds one of 2 bytes or more) rather
// than by running a DFA over every byte.
func (m *matcher) prefiltered() bool {
	return m.pure || len(m.lit.s) >= 2
}

// skipsMostBytes reports whether the builtin engine finds candidate lines
// without looking at most bytes one by one: by a literal, or by a DFA
// whose idle state skips by table.
func (m *matcher) skipsMostBytes() bool {
	return m.prefiltered() || m.skipsIdle
}

// matchLine reports whether one line (no '\n') holds a match.
func (m *matcher) matchLine(line []byte) bool {
	if m.pure {
		return m.lit.index(line) >= 0
	}
	return m.re.Match(line)
}

func invalidPattern(format string, args ...any) error {
	return errs.New(errs.InvalidArgument, format, args...).With("field", "pattern")
}

// notTerminator is every rune except '\n' and '\r'.
var notTerminator = []rune{0, '\t', '\v', '\f', '\r' + 1, unicode.MaxRune}

// lineLocal rewrites re in place so that no match can contain a line
// terminator, which is what rg enforces (it strips '\n' from classes and
// rejects a literal one). Doing it on the tree lets the builtin searcher run
// the expression over a whole file and still find exactly the lines rg
// finds.
func lineLocal(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return invalidPattern(`the pattern contains a line break (\n); Grep matches within one line, so search for each line separately`)
			}
		}
	case syntax.OpCharClass:
		re.Rune = intersect(re.Rune, notTerminator)
		if len(re.Rune) == 0 {
			*re = syntax.Regexp{Op: syntax.OpNoMatch, Flags: re.Flags}
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		*re = syntax.Regexp{Op: syntax.OpCharClass, Flags: re.Flags, Rune: append([]rune(nil), notTerminator...)}
	case syntax.OpBeginText:
		re.Op = syntax.OpBeginLine
	case syntax.OpEndText, syntax.OpEndLine:
		// "$" also matches before the '\r' of a CRLF line.
		cr := &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{'\r'}}
		*re = syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
			{Op: syntax.OpQuest, Sub: []*syntax.Regexp{cr}},
			{Op: syntax.OpEndLine, Flags: re.Flags},
		}}
		return nil // the new nodes are final
	}
	for _, sub := range re.Sub {
		if err := lineLocal(sub); err != nil {
			return err
		}
	}
	return nil
}

// intersect returns the intersection of two sorted range lists (pairs).
func intersect(a, b []rune) []rune {
	var out []rune
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i], b[j]), min(a[i+1], b[j+1])
		if lo <= hi {
			out = append(out, lo, hi)
		}
		if a[i+1] < b[j+1] {
			i += 2
		} else {
			j += 2
		}
	}
	return out
}

// rustSyntax adapts Go's printed regexp to Rust's regex crate as rg uses
// it: the only construct whose meaning differs is the word boundary, which
// is ASCII in Go and Unicode in Rust unless written (?-u:\b).
func rustSyntax(src string) string {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '\\' || i+1 >= len(src) {
			b.WriteByte(c)
			continue
		}
		next := src[i+1]
		i++
		if next == 'b' || next == 'B' {
			fmt.Fprintf(&b, `(?-u:\%c)`, next)
			continue
		}
		b.WriteByte(c)
		b.WriteByte(next)
	}
	return b.String()
}
