package fileindex

import (
	"runtime"
	"slices"
	"sync"
)

// hit is one matching path and its score.
type hit struct {
	path  string
	score int
}

// better orders hits best first: higher score, then the shorter path, then
// path order, so equal queries always list the same files.
func better(a, b hit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if len(a.path) != len(b.path) {
		return len(a.path) < len(b.path)
	}
	return a.path < b.path
}

// ranking is one query's answer over a list.
type ranking struct {
	top     []string // the best limit paths, best first
	matched []int32  // index in the list of every path that matched
}

// parallelFrom is the list size from which a query is split between the
// cores: below it, starting goroutines costs more than it saves.
const parallelFrom = 16_384

// rank ranks the paths of l against query (folded; see fold). within, when
// not nil, lists the only indexes to look at: the matches of a query this
// one extends, since a path that matches "fil" matched "fi". Each part
// keeps only its best limit hits while it scans, so a query costs one pass
// and no sort of every match.
func rank(l list, within []int32, query string, limit int) ranking {
	n := len(l.paths)
	if within != nil {
		n = len(within)
	}
	parts := min(runtime.GOMAXPROCS(0), max(1, n/parallelFrom))
	if parts == 1 {
		top, matched := rankRange(l, within, query, limit, 0, n)
		return ranking{top: paths(top), matched: matched}
	}
	tops := make([][]hit, parts)
	matches := make([][]int32, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			tops[p], matches[p] = rankRange(l, within, query, limit, p*n/parts, (p+1)*n/parts)
		})
	}
	wg.Wait()
	all := slices.Concat(tops...)
	slices.SortFunc(all, func(x, y hit) int {
		if better(x, y) {
			return -1
		}
		return 1
	})
	return ranking{top: paths(all[:min(limit, len(all))]), matched: slices.Concat(matches...)}
}

func paths(hits []hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.path
	}
	return out
}

// rankRange ranks entries [from, to) of within (or of l when within is nil).
func rankRange(l list, within []int32, query string, limit, from, to int) ([]hit, []int32) {
	m := newMatcher(query)
	top := make([]hit, 0, min(limit, to-from)+1)
	matched := make([]int32, 0, min(to-from, 1024))
	for k := from; k < to; k++ {
		i := k
		if within != nil {
			i = int(within[k])
		}
		p := l.paths[i]
		s, ok := m.score(p, l.folded[i])
		if !ok {
			continue
		}
		matched = append(matched, int32(i))
		h := hit{p, s}
		if len(top) == limit && !better(h, top[len(top)-1]) {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, h, func(x, y hit) int {
			if better(x, y) {
				return -1
			}
			return 1
		})
		top = slices.Insert(top, at, h)
		if len(top) > limit {
			top = top[:limit]
		}
	}
	return top, matched
}
