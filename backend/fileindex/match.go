package fileindex

import "strings"

// Scores of the fuzzy matcher. A query matches a path when its characters
// occur in it in order (case-insensitively); among the ways they can
// occur, the best scoring one counts, as in an editor's quick-open:
// characters at the start of a path segment, a word or a camelCase hump
// score more, runs of consecutive characters score more, gaps cost, and
// characters in the base name score more than the same characters in a
// folder name, so "fsu" finds FileSuggestions.tsx before
// frontend/src/utils.ts.
const (
	scoreMatch        = 16
	gapStart          = -3
	gapExtension      = -1
	bonusSegment      = 10 // first character of a path segment
	bonusWord         = 8  // after '_', '-', '.' or ' '
	bonusCamel        = 7  // an upper-case letter after a lower-case one
	bonusConsecutive  = 5  // the character right after the previous match
	bonusBaseName     = 6  // a character of the base name
	firstCharMultiple = 2  // the first query character's position bonus counts twice
)

// noScore is below every real score.
const noScore = -1 << 30

// matcher scores paths against one query; its scratch rows are reused, so
// a matcher serves one goroutine.
type matcher struct {
	q         []byte // lower-case query
	first     []int  // earliest position of each query byte (forward greedy)
	last      []int  // latest position of each query byte (backward greedy)
	prev, cur []cell
}

// cell is the best score of matching the query up to one of its
// characters, with that character at pos.
type cell struct{ pos, score int32 }

// newMatcher takes the query folded (see fold).
func newMatcher(query string) *matcher {
	q := []byte(query)
	return &matcher{q: q, first: make([]int, len(q)), last: make([]int, len(q))}
}

// fold lower-cases the ASCII letters of s, and returns s itself when it
// has none, so an index of lower-case paths holds each path once.
func fold(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i]-'A' < 26 {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lower(b[j])
			}
			return string(b)
		}
	}
	return s
}

// lower folds ASCII letters only: paths are matched byte by byte, and a
// byte-wise fold keeps every byte of a UTF-8 name comparable.
func lower(c byte) byte {
	if c-'A' < 26 {
		return c + 'a' - 'A'
	}
	return c
}

// score returns the best score of the query in p, or ok=false when the
// query's characters do not all occur in p in order. lp is fold(p).
func (m *matcher) score(p, lp string) (int, bool) {
	q := m.q
	if len(q) == 0 {
		return 0, true
	}
	// Forward greedy: the earliest place each character can be, and
	// whether the query occurs at all. This is the only work done for the
	// paths that do not match.
	// strings.IndexByte is vectorised: most paths are rejected in a few
	// calls without looking at each byte in Go.
	j := 0
	for i, c := range q {
		k := strings.IndexByte(lp[j:], c)
		if k < 0 {
			return 0, false
		}
		m.first[i] = j + k
		j += k + 1
	}
	// Backward greedy: the latest place each character can be.
	j = len(lp)
	for i := len(q) - 1; i >= 0; i-- {
		j = strings.LastIndexByte(lp[:j], q[i])
		m.last[i] = j
	}
	base := strings.LastIndexByte(p, '/') + 1

	// A sparse dynamic programme over the places each character can be:
	// row i holds, for every place of q[i], the best score of q[:i+1]
	// ending there.
	prev := m.prev[:0]
	for j := m.first[0]; j <= m.last[0]; j++ {
		if lp[j] == q[0] {
			prev = append(prev, cell{int32(j), int32(scoreMatch + firstCharMultiple*bonusAt(p, j) + baseBonus(j, base))})
		}
	}
	cur := m.cur[:0]
	for i := 1; i < len(q); i++ {
		cur = cur[:0]
		k := 0
		// best of score[k] + gapExtension*(j-k-2) + gapStart over the
		// places k < j-1 seen so far, kept as score[k] - gapExtension*k.
		gapKey := int32(noScore)
		for j := m.first[i]; j <= m.last[i]; j++ {
			if lp[j] != q[i] {
				continue
			}
			for k < len(prev) && int(prev[k].pos) < j-1 {
				gapKey = max(gapKey, prev[k].score-gapExtension*prev[k].pos)
				k++
			}
			best := int32(noScore)
			if gapKey > noScore {
				best = gapKey + gapStart + gapExtension*int32(j-2)
			}
			if k < len(prev) && int(prev[k].pos) == j-1 {
				best = max(best, prev[k].score+bonusConsecutive)
			}
			if best <= noScore/2 {
				continue
			}
			cur = append(cur, cell{int32(j), best + int32(scoreMatch+bonusAt(p, j)+baseBonus(j, base))})
		}
		prev, cur = cur, prev
		if len(prev) == 0 {
			break
		}
	}
	m.prev, m.cur = prev, cur
	best := int32(noScore)
	for _, c := range prev {
		best = max(best, c.score)
	}
	return int(best), best > noScore/2
}

// bonusAt is how much a match at p[j] is worth for where it stands.
func bonusAt(p string, j int) int {
	if j == 0 {
		return bonusSegment
	}
	switch prev, c := p[j-1], p[j]; {
	case prev == '/':
		return bonusSegment
	case prev == '_' || prev == '-' || prev == '.' || prev == ' ':
		return bonusWord
	case prev-'a' < 26 && c-'A' < 26:
		return bonusCamel
	case prev-'0' >= 10 && c-'0' < 10:
		return bonusCamel // a number after a word: file2, v10
	}
	return 0
}

func baseBonus(j, base int) int {
	if j >= base {
		return bonusBaseName
	}
	return 0
}
