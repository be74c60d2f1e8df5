package hashline

import "strconv"

// Drift recovery (contract §6, branch C): the tag names a retained version
// that is no longer live, typically because a formatter or a shell command
// changed the file. The edit is replayed on the live file only when every
// anchor provably moved by one common offset: each anchor is matched by the
// line diff, each run of anchors has a matched unanchored neighbour at the
// same offset (both neighbours when an anchored text is duplicated, since
// a diff can align repeated lines to the wrong copy), and all runs agree.

// recoverOffset returns the offset d that maps base lines onto live lines,
// or a cause explaining why recovery declines.
func recoverOffset(base, live []string, anchors LineSet) (int, string, bool) {
	if anchors.Empty() {
		return 0, "the ops have no anchors to remap", false
	}
	m := lineMap(base, live)
	// Count occurrences of anchored texts in both versions.
	count := map[string]int{}
	for _, r := range anchors.Intervals() {
		for n := r[0]; n <= r[1]; n++ {
			count[base[n-1]] = 0
		}
	}
	for _, v := range [][]string{base, live} {
		seen := map[string]int{}
		for _, s := range v {
			if _, ok := count[s]; ok {
				seen[s]++
			}
		}
		for s, c := range seen {
			count[s] = max(count[s], c)
		}
	}
	d, have := 0, false
	for _, r := range anchors.Intervals() {
		a, b := r[0], r[1]
		dup := false
		for n := a; n <= b; n++ {
			if m[n] == 0 {
				return 0, "anchor line " + strconv.Itoa(n) + " changed or vanished in the live file", false
			}
			off := m[n] - n
			if !have {
				d, have = off, true
			} else if off != d {
				return 0, "anchors moved by different offsets (" + signed(d) + " and " + signed(off) + ")", false
			}
			if count[base[n-1]] > 1 {
				dup = true
			}
		}
		need, got := 1, 0
		if dup {
			need = 2
		}
		if a > 1 && m[a-1] == a-1+d {
			got++
		}
		if b < len(base) && m[b+1] == b+1+d {
			got++
		}
		if got < need {
			why := "no unchanged neighbour"
			if dup {
				why = "anchored text is duplicated and both neighbours are not unchanged"
			}
			return 0, "anchor lines " + strconv.Itoa(a) + "-" + strconv.Itoa(b) + ": " + why + " at offset " + signed(d), false
		}
	}
	return d, "", true
}

func signed(d int) string {
	if d >= 0 {
		return "+" + strconv.Itoa(d)
	}
	return strconv.Itoa(d)
}
