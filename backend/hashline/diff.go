package hashline

// Drift recovery needs a line map (which base line is which live line), not a
// patch. It must also be deterministic: go-diff's DiffMain stops at a
// wall-clock timeout, so the same inputs could map differently under load and
// an authorization decision would depend on machine speed. This is a plain
// Myers O(ND) diff with a work budget counted in steps instead; when the
// budget runs out the unmatched middle stays unmapped, which only ever makes
// recovery decline (fail closed).

// diffBudget bounds the Myers search in snake steps, and maxEditDistance
// the number of inserted plus deleted lines it looks for (the trace it keeps
// for backtracking grows with its square).
const (
	diffBudget      = 20_000_000
	maxEditDistance = 2000
)

// lineMap returns m with len(a)+1 entries: m[i] is the 1-based line of b
// matched to line i of a in a longest common subsequence, or 0.
func lineMap(a, b []string) []int {
	m := make([]int, len(a)+1)
	// Intern lines so comparisons are integer compares.
	ids := make(map[string]int32, len(a))
	ia := make([]int32, len(a))
	for i, s := range a {
		id, ok := ids[s]
		if !ok {
			id = int32(len(ids))
			ids[s] = id
		}
		ia[i] = id
	}
	ib := make([]int32, len(b))
	for i, s := range b {
		id, ok := ids[s]
		if !ok {
			id = -1 // absent from a: can never match
		}
		ib[i] = id
	}
	// Common prefix and suffix are matched without search.
	p := 0
	for p < len(ia) && p < len(ib) && ia[p] == ib[p] {
		m[p+1] = p + 1
		p++
	}
	sa, sb := len(ia), len(ib)
	for sa > p && sb > p && ia[sa-1] == ib[sb-1] {
		m[sa] = sb
		sa--
		sb--
	}
	myers(ia[p:sa], ib[p:sb], func(x, y int) { m[p+x+1] = p + y + 1 })
	return m
}

// myers calls match(x, y) (0-based) for every pair on a shortest edit path
// between a and b, or matches nothing if the budget runs out.
func myers(a, b []int32, match func(x, y int)) {
	n, mm := len(a), len(b)
	if n == 0 || mm == 0 {
		return
	}
	maxD := min(n+mm, maxEditDistance)
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	var trace [][]int32 // trace[d] = v[-d-1 .. d+1] before step d
	work := 0
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int32(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1])
			} else {
				x = int(v[off+k-1]) + 1
			}
			y := x - k
			for x < n && y < mm && a[x] == b[y] {
				x++
				y++
				work++
			}
			work++
			v[off+k] = int32(x)
			if x >= n && y >= mm {
				backtrack(trace, n, mm, match)
				return
			}
		}
		if work > diffBudget {
			return
		}
	}
}

func backtrack(trace [][]int32, x, y int, match func(x, y int)) {
	for d := len(trace) - 1; d >= 0; d-- {
		t := trace[d]
		get := func(k int) int { return int(t[k+d+1]) }
		k := x - y
		var pk int
		if k == -d || (k != d && get(k-1) < get(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := get(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			match(x, y)
		}
		if d > 0 {
			x, y = px, py
		}
	}
}
