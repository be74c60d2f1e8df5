package hashline

import "sort"

// LineSet is a set of 1-based line numbers kept as disjoint, sorted,
// inclusive intervals. Provenance ("which lines has this session seen in
// full") is naturally a handful of ranges — a Read window, Grep rows, an
// edit's preview — so intervals stay tiny where a bitmap would not.
// The zero value is the empty set. Adjacent intervals are merged, so two
// equal sets always have equal Intervals.
type LineSet struct {
	iv [][2]int
}

// LineRange returns the set [a,b] (empty when b < a or b < 1).
func LineRange(a, b int) LineSet {
	var s LineSet
	s.Add(a, b)
	return s
}

// Add inserts the lines a..b. Numbers below 1 are ignored.
func (s *LineSet) Add(a, b int) {
	if a < 1 {
		a = 1
	}
	if b < a {
		return
	}
	// First interval that could touch [a,b]: the first whose end ≥ a-1.
	i := sort.Search(len(s.iv), func(i int) bool { return s.iv[i][1] >= a-1 })
	j := i
	for j < len(s.iv) && s.iv[j][0] <= b+1 {
		a = min(a, s.iv[j][0])
		b = max(b, s.iv[j][1])
		j++
	}
	if i == j {
		s.iv = append(s.iv, [2]int{})
		copy(s.iv[i+1:], s.iv[i:])
		s.iv[i] = [2]int{a, b}
		return
	}
	s.iv[i] = [2]int{a, b}
	s.iv = append(s.iv[:i+1], s.iv[j:]...)
}

// Contains reports whether line n is in the set.
func (s LineSet) Contains(n int) bool {
	i := sort.Search(len(s.iv), func(i int) bool { return s.iv[i][1] >= n })
	return i < len(s.iv) && s.iv[i][0] <= n
}

// Union returns s ∪ o without modifying either.
func (s LineSet) Union(o LineSet) LineSet {
	out := s.Clone()
	for _, r := range o.iv {
		out.Add(r[0], r[1])
	}
	return out
}

// Len is the number of lines in the set.
func (s LineSet) Len() int {
	n := 0
	for _, r := range s.iv {
		n += r[1] - r[0] + 1
	}
	return n
}

// Empty reports whether the set has no lines.
func (s LineSet) Empty() bool { return len(s.iv) == 0 }

// Intervals returns a copy of the intervals, sorted and disjoint.
func (s LineSet) Intervals() [][2]int { return append([][2]int(nil), s.iv...) }

// Clone returns an independent copy; LineSet values share storage otherwise.
func (s LineSet) Clone() LineSet { return LineSet{iv: s.Intervals()} }

// Clip returns the part of s inside 1..n: a version's Seen set never names
// lines the version does not have.
func (s LineSet) Clip(n int) LineSet {
	var out LineSet
	for _, r := range s.iv {
		if r[0] > n {
			break
		}
		out.iv = append(out.iv, [2]int{r[0], min(r[1], n)})
	}
	return out
}

// Map carries the set through a line map: m[i] is the new number of old line
// i (0 when the line no longer exists). Lines that vanish drop out.
func (s LineSet) Map(m []int) LineSet {
	var out LineSet
	for _, r := range s.iv {
		for n := r[0]; n <= r[1] && n < len(m); n++ {
			if m[n] > 0 {
				out.Add(m[n], m[n])
			}
		}
	}
	return out
}
