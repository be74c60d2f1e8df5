package search

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// literal is a byte string every match must contain. It lets the builtin
// searcher skip files with one bytes.Index (or a case-folding scan) and run
// the regexp only on lines that contain it: that is what makes whole-file
// search competitive with rg (shared/design/decisions.md, "Grep").
type literal struct {
	s    []byte  // exact bytes; ASCII letters lowercased when fold
	fold bool    // ASCII letters match in either case
	find *finder // the search for s (litfind.go)
}

func (l literal) empty() bool { return len(l.s) == 0 }

// index returns the first offset of l in data, or -1.
func (l literal) index(data []byte) int {
	if l.find == nil {
		return 0 // the empty literal (no prefilter) is everywhere
	}
	return l.find.index(data)
}

// requiredLiteral extracts the longest literal that every match of re must
// contain, or an empty literal. It only looks through concatenation,
// grouping and mandatory repetition: alternations yield nothing, which is
// always safe.
func requiredLiteral(re *syntax.Regexp) literal {
	switch re.Op {
	case syntax.OpLiteral:
		return literalOf(re.Rune, re.Flags&syntax.FoldCase != 0)
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		var best literal
		for _, sub := range re.Sub {
			if l := requiredLiteral(sub); len(l.s) > len(best.s) {
				best = l
			}
		}
		return best
	}
	return literal{}
}

// literalOf turns literal runes into a prefilter. Under case folding only
// runes whose whole case orbit is ASCII (or that have no case at all) can
// be scanned for cheaply; "k" (Kelvin sign) and "s" (long s) fold to
// non-ASCII runes, so the longest run of safe runes is used.
func literalOf(runes []rune, fold bool) literal {
	if !fold {
		s := []byte(string(runes))
		return literal{s: s, find: newFinder(s, false)}
	}
	var best, cur []byte
	flush := func() {
		if len(cur) > len(best) {
			best = cur
		}
		cur = nil
	}
	for _, r := range runes {
		if !foldSafe(r) {
			flush()
			continue
		}
		if r < utf8.RuneSelf {
			cur = append(cur, lowerASCII(byte(r)))
		} else {
			cur = utf8.AppendRune(cur, r)
		}
	}
	flush()
	return literal{s: best, fold: true, find: newFinder(best, true)}
}

// foldSafe reports whether every rune that r case-folds to is ASCII, or r
// has no other case.
func foldSafe(r rune) bool {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf || r >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func otherCaseASCII(c byte) byte {
	switch {
	case 'a' <= c && c <= 'z':
		return c - ('a' - 'A')
	case 'A' <= c && c <= 'Z':
		return c + ('a' - 'A')
	}
	return c
}
