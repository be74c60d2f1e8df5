package hashline

import (
	"math/rand"
	"testing"
)

func TestLineSet(t *testing.T) {
	var s LineSet
	if !s.Empty() || s.Contains(1) || s.Len() != 0 {
		t.Fatal("zero value")
	}
	s.Add(5, 7)
	s.Add(1, 2)
	s.Add(3, 4) // bridges to [1,7]
	s.Add(10, 12)
	s.Add(0, 0) // ignored
	s.Add(9, 8) // empty
	if got := s.Intervals(); len(got) != 2 || got[0] != [2]int{1, 7} || got[1] != [2]int{10, 12} {
		t.Fatal(got)
	}
	if s.Len() != 10 || !s.Contains(7) || s.Contains(8) || !s.Contains(12) {
		t.Fatal("membership")
	}
	u := s.Union(LineRange(8, 9))
	if len(u.Intervals()) != 1 || len(s.Intervals()) != 2 {
		t.Fatal("union")
	}
	if c := s.Clip(11); c.Len() != 9 {
		t.Fatal("clip")
	}
	m := []int{0, 1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	if got := LineRange(1, 3).Map(m).Intervals(); len(got) != 1 || got[0] != [2]int{1, 2} {
		t.Fatal(got)
	}
}

func TestLineSetRandom(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for iter := 0; iter < 200; iter++ {
		var s LineSet
		ref := map[int]bool{}
		for k := 0; k < 20; k++ {
			a := r.Intn(60) + 1
			b := a + r.Intn(6)
			s.Add(a, b)
			for n := a; n <= b; n++ {
				ref[n] = true
			}
		}
		for n := 0; n < 80; n++ {
			if s.Contains(n) != ref[n] {
				t.Fatalf("line %d", n)
			}
		}
		iv := s.Intervals()
		for i := 1; i < len(iv); i++ {
			if iv[i][0] <= iv[i-1][1]+1 {
				t.Fatal("not disjoint/merged", iv)
			}
		}
		if s.Len() != len(ref) {
			t.Fatal("len")
		}
	}
}

func TestLineMap(t *testing.T) {
	a := []string{"a", "b", "c", "d", "e"}
	b := []string{"x", "a", "b", "D", "d", "e", "y"}
	m := lineMap(a, b)
	want := []int{0, 2, 3, 0, 5, 6}
	for i := range want {
		if m[i] != want[i] {
			t.Fatalf("%v", m)
		}
	}
	// Random: matches are increasing and equal.
	r := rand.New(rand.NewSource(3))
	for iter := 0; iter < 300; iter++ {
		x := make([]string, r.Intn(40))
		y := make([]string, r.Intn(40))
		for i := range x {
			x[i] = string(rune('a' + r.Intn(4)))
		}
		for i := range y {
			y[i] = string(rune('a' + r.Intn(4)))
		}
		m := lineMap(x, y)
		last, n := 0, 0
		for i := 1; i <= len(x); i++ {
			if m[i] == 0 {
				continue
			}
			if m[i] <= last || x[i-1] != y[m[i]-1] {
				t.Fatalf("bad map %v %v %v", x, y, m)
			}
			last = m[i]
			n++
		}
		if n != lcs(x, y) {
			t.Fatalf("not a longest match: %d vs %d", n, lcs(x, y))
		}
	}
}

func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}
