package search

import (
	"bytes"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// literal is a byte string every match must contain. It lets the builtin
// searcher skip files with one bytes.Index (or a case-folding scan) and run
// the regexp only on lines that contain it: that is what makes whole-file
// search competitive with rg (shared/design/decisions.md, "Grep").
type literal struct {
	s    []byte // exact bytes; ASCII letters lowercased when fold
	fold bool   // ASCII letters match in either case
}

func (l literal) empty() bool { return len(l.s) == 0 }

// index returns the first offset of l in data, or -1.
func (l literal) index(data []byte) int {
	if !l.fold {
		return bytes.Index(data, l.s)
	}
	return indexFold(data, l.s)
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
		return literal{s: []byte(string(runes))}
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
	return literal{s: best, fold: true}
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

// indexFold finds lit (lowercase ASCII letters) in data ignoring ASCII case.
// It jumps between candidate first bytes with bytes.IndexByte, remembering
// the next position of each case so the scan stays linear.
func indexFold(data, lit []byte) int {
	n := len(lit)
	if n == 0 {
		return 0
	}
	c0, c1 := lit[0], otherCaseASCII(lit[0])
	next0, next1 := -1, -1
	for i := 0; i+n <= len(data); {
		if next0 < i {
			next0 = nextByte(data, i, c0)
		}
		p := next0
		if c1 != c0 {
			if next1 < i {
				next1 = nextByte(data, i, c1)
			}
			p = min(p, next1)
		}
		if p+n > len(data) {
			return -1
		}
		if equalFoldTail(data[p+1:p+n], lit[1:]) {
			return p
		}
		i = p + 1
	}
	return -1
}

// nextByte is the index of c at or after i, or len(data).
func nextByte(data []byte, i int, c byte) int {
	if k := bytes.IndexByte(data[i:], c); k >= 0 {
		return i + k
	}
	return len(data)
}

func equalFoldTail(data, lit []byte) bool {
	for i, c := range lit {
		if lowerASCII(data[i]) != c {
			return false
		}
	}
	return true
}
