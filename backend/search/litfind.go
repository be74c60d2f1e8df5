package search

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
)

// finder locates a literal (literal.go) in a file. bytes.Index jumps
// between occurrences of the literal's first byte and falls back to a
// brute-force compare when they are frequent: for a literal of common
// letters ("err") that runs at about 200 MB/s, and a case-insensitive
// literal had only a byte-by-byte scan. finder instead
//
//   - jumps between occurrences (in either case, under fold) of the
//     literal's rarest byte with bytes.IndexByte, as long as few of them
//     turn out false;
//   - when they are frequent, tests eight positions at a time (SWAR): at
//     each of the two rarest offsets of the literal, one 8-byte load
//     compared with that byte in all eight lanes (case folded by OR-ing
//     0x20 into letters), so only positions where both agree are compared
//     in full. (A third offset costs more than it saves.)
//
// Both find the leftmost occurrence, exactly as a byte-by-byte scan does.
type finder struct {
	lit    []byte // ASCII letters lowercase when fold
	fold   bool
	rare   int      // offset of the rarest byte, the target of the jumps
	r0, r1 byte     // that byte in its two cases (equal when it has one)
	probes [2]probe // the same offset twice in a one-byte literal
	reach  int      // the largest probe offset + 8: the bytes one SWAR step loads
	wide   bool     // scan eight positions at a time from the start
}

// probe is one offset of the literal tested eight positions at a time.
type probe struct {
	off        int
	want, mask uint64 // want: the byte in every lane; mask: 0x20 lanes to fold letters
}

const (
	lanesLow7 = 0x7f7f7f7f7f7f7f7f
	lanesHigh = 0x8080808080808080
	lanes01   = 0x0101010101010101
)

// zeroLanes sets the high bit of each byte of x that is zero, and of no
// other (no borrow crosses a lane, unlike the shorter x-0x01… & ^x trick).
func zeroLanes(x uint64) uint64 {
	return ^(((x & lanesLow7) + lanesLow7) | x) & lanesHigh
}

// byteOrder ranks bytes from the most to the least frequent in source code
// and prose (a rough order; it only steers which bytes are scanned for).
// A byte not listed (other controls, non-ASCII) counts as rarest.
const byteOrder = " et\nariosnl\tcdupm.()_f,hg\"b=/;:*y-{}kvw0x1ESTR><[]IANOCL&DPMF2'!jq#+|BUHG34zWVKY58697%$XJQZ\\@?^~`\r"

// frequency is higher for a more frequent byte (both cases of a letter
// under fold, which the scan looks for together).
func frequency(c byte, fold bool) int {
	f := len(byteOrder) - strings.IndexByte(byteOrder, c)
	if f > len(byteOrder) { // not listed
		f = 0
	}
	if fold && isLowerASCII(c) {
		f = max(f, frequency(c-('a'-'A'), false))
	}
	return f
}

func isLowerASCII(c byte) bool { return 'a' <= c && c <= 'z' }

func newFinder(lit []byte, fold bool) *finder {
	f := &finder{lit: lit, fold: fold}
	if len(lit) == 0 {
		return f
	}
	// The probes: the two rarest offsets, the rarest first; ties go to the
	// later offset, which spreads them.
	used := make([]bool, len(lit))
	for k := range f.probes {
		best := -1
		for i, c := range lit {
			if !used[i] && (best < 0 || frequency(c, fold) <= frequency(lit[best], fold)) {
				best = i
			}
		}
		if best < 0 { // a one-byte literal: probe it twice
			best = f.probes[0].off
		}
		used[best] = true
		c := lit[best]
		p := probe{off: best, want: lanes01 * uint64(c)}
		if fold && isLowerASCII(c) {
			p.mask = lanes01 * 0x20
		}
		f.probes[k] = p
		f.reach = max(f.reach, best+8)
	}
	f.rare = f.probes[0].off
	f.r0, f.r1 = lit[f.rare], lit[f.rare]
	if fold {
		f.r1 = otherCaseASCII(f.r0)
	}
	// Even the rarest byte is common (a short word of common letters):
	// jumps would stop every few bytes, so the scan is wide from the start.
	f.wide = frequency(f.r0, fold) > len(byteOrder)-commonBytes
	return f
}

// commonBytes is how many of byteOrder's first bytes are too frequent to
// jump between (about one in every few dozen bytes of code).
const commonBytes = 32

// index returns the offset of the first occurrence of the literal in data,
// or -1.
func (f *finder) index(data []byte) int {
	n := len(f.lit)
	switch {
	case n == 0:
		return 0
	case len(data) < n:
		return -1
	case !f.fold && n == 1:
		return bytes.IndexByte(data, f.lit[0])
	case f.wide:
		return f.scanWide(data, 0)
	}
	// Jump between occurrences of the rare byte; next0/next1 remember the
	// next one of each case so the scan stays linear.
	last := len(data) - n + f.rare // the last offset the rare byte can have
	next0, next1 := -1, -1
	fails := 0
	for i := 0; ; {
		if next0 < i+f.rare {
			next0 = nextByteUpTo(data, i+f.rare, last, f.r0)
		}
		p := next0
		if f.r1 != f.r0 {
			if next1 < i+f.rare {
				next1 = nextByteUpTo(data, i+f.rare, last, f.r1)
			}
			p = min(p, next1)
		}
		if p > last {
			return -1
		}
		start := p - f.rare
		if f.equalAt(data, start) {
			return start
		}
		i = start + 1
		if fails++; fails > 4+i/16 { // over one false stop in 16 bytes: go wide
			return f.scanWide(data, i)
		}
	}
}

// nextByteUpTo is the index of c in data[from:last+1], or last+1.
func nextByteUpTo(data []byte, from, last int, c byte) int {
	if from > last {
		return last + 1
	}
	if k := bytes.IndexByte(data[from:last+1], c); k >= 0 {
		return from + k
	}
	return last + 1
}

// scanWide finds the first occurrence at or after i, eight positions at a
// time.
func (f *finder) scanWide(data []byte, i int) int {
	n := len(f.lit)
	p0, p1 := f.probes[0], f.probes[1]
	for ; i+f.reach <= len(data); i += 8 {
		m := zeroLanes((binary.LittleEndian.Uint64(data[i+p0.off:])|p0.mask)^p0.want) &
			zeroLanes((binary.LittleEndian.Uint64(data[i+p1.off:])|p1.mask)^p1.want)
		for ; m != 0; m &= m - 1 {
			start := i + bits.TrailingZeros64(m)>>3
			if start+n <= len(data) && f.equalAt(data, start) {
				return start
			}
		}
	}
	for ; i+n <= len(data); i++ {
		if f.equalAt(data, i) {
			return i
		}
	}
	return -1
}

// equalAt reports whether the literal occurs at start (start+len ≤ len(data)).
func (f *finder) equalAt(data []byte, start int) bool {
	d := data[start : start+len(f.lit)]
	if !f.fold {
		return bytes.Equal(d, f.lit)
	}
	for i, c := range f.lit {
		if lowerASCII(d[i]) != c {
			return false
		}
	}
	return true
}
