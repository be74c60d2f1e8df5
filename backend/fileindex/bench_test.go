package fileindex

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// syntheticTree returns n paths shaped like a large monorepo: 2 to 7
// folders deep, names made of common words in the usual casings.
func syntheticTree(n int) []string {
	words := strings.Fields("api app auth backend build cache client cmd common components composer config core " +
		"data db docs editor features file files frontend handler hooks http index internal lib list " +
		"main model net parser pkg plugin provider query render router search server service session " +
		"settings src store suggestions test tools types ui util utils view web worker")
	exts := []string{".go", ".ts", ".tsx", ".md", ".json", ".css", ".py", ".rs"}
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string { return words[r.IntN(len(words))] }
	name := func() string {
		switch r.IntN(3) {
		case 0:
			return word() + "_" + word()
		case 1:
			a, b := word(), word()
			return strings.ToUpper(a[:1]) + a[1:] + strings.ToUpper(b[:1]) + b[1:]
		}
		return word()
	}
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		depth := 2 + r.IntN(6)
		parts := make([]string, depth)
		for i := range depth - 1 {
			parts[i] = word()
		}
		parts[depth-1] = name() + exts[r.IntN(len(exts))]
		p := strings.Join(parts, "/")
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// keystrokes are what a user types after @, one prefix per keystroke.
func keystrokes() []string {
	var out []string
	for _, q := range []string{"filesugg", "fsu", "main.go", "src/comp", "HttpServer", "docs/readme", "zzzz"} {
		for i := 1; i <= len(q); i++ {
			out = append(out, q[:i])
		}
	}
	return out
}

// BenchmarkQuery100k is one @-suggestion keystroke over a 100,000-file
// index, typed one character at a time: ns/op is the mean over the
// keystrokes; p50-ns and p99-ns are their percentiles, first-key-p50-ns the
// median of the first keystrokes (a scan of every path); index-MB is the heap the index holds
// (folder listing plus the list queries scan).
func BenchmarkQuery100k(b *testing.B) {
	paths := syntheticTree(100_000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t := newTree()
	for _, p := range paths {
		// Copies, as a walk yields fresh strings, and folders as the walk
		// meets them.
		p = strings.Clone(p)
		for d := dirOf(p); d != "" && t.dirs[d] == nil; d = dirOf(d) {
			for _, dd := range ancestorsTopDown(d) {
				if t.dirs[dd] == nil {
					t.addDir(dd)
				}
			}
		}
		t.addFile(p)
	}
	files := t.flatten()
	runtime.GC()
	runtime.ReadMemStats(&after)
	indexMB := float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
	paths = nil

	// An index as Query sees it, without the walk and the watcher.
	x := &Index{files: files, gen: 1}
	qs := keystrokes()
	var lat, firsts []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := qs[i%len(qs)]
		start := time.Now()
		res, err := x.Query(q, 50)
		d := time.Since(start)
		lat = append(lat, d)
		if len(q) == 1 {
			firsts = append(firsts, d)
		}
		if err != nil || (len(res.Files) == 0 && q[0] != 'z') {
			b.Fatalf("Query(%q) = %v, %v", q, res, err)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	slices.Sort(firsts)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
	if len(firsts) > 0 {
		// The first keystroke after @ scans every path; later ones only
		// the paths the previous keystroke matched.
		b.ReportMetric(float64(firsts[len(firsts)/2].Nanoseconds()), "first-key-p50-ns")
	}
	b.ReportMetric(indexMB, "index-MB")
	b.ReportMetric(float64(len(files.paths)), "files")
	runtime.KeepAlive(t)
}

func ancestorsTopDown(d string) []string {
	var out []string
	for ; d != ""; d = dirOf(d) {
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

func TestSyntheticTreeIsWhatTheBenchmarkClaims(t *testing.T) {
	paths := syntheticTree(1000)
	if len(paths) != 1000 {
		t.Fatalf("%d paths", len(paths))
	}
	for _, p := range paths {
		if n := strings.Count(p, "/"); n < 1 || n > 6 {
			t.Fatalf("%q is %d folders deep", p, n)
		}
	}
}
