package search

import (
	"fmt"
	"strings"
	"testing"
)

// capsTree is a tree wide and deep enough for rg's threads to print files
// out of walk order: 12 folders (names that sort differently per component
// and as whole strings: "d-1" and "d/…"), 15 files each with 1–4 matching
// lines, a binary file whose NUL lies past rg's first buffer (rg warns
// after its matches), and a file over the size limit.
func capsTree(t *testing.T) (string, int) {
	t.Helper()
	files := map[string]string{}
	total := 0
	for d := range 12 {
		dir := fmt.Sprintf("d%d", d)
		if d%4 == 1 {
			dir = fmt.Sprintf("d-%d", d)
		}
		if d == 3 {
			dir = "d"
		}
		for f := range 15 {
			n := 1 + (d+f)%4
			var b strings.Builder
			for l := range n {
				fmt.Fprintf(&b, "line %d\nneedle %s/%d/%d\n", l, dir, f, l)
			}
			files[fmt.Sprintf("%s/sub%d/f%02d.txt", dir, f%3, f)] = b.String()
			total += n
		}
	}
	files["d2/late-nul.txt"] = "needle first\n" + strings.Repeat("x", 200_000) + "\n\x00needle\n"
	root := t.TempDir()
	writeTree(t, root, files)
	writeBigFile(t, root+"/d5/big.txt", "needle big ", MaxFileBytes+1)
	return root, total
}

// TestGrepPlansAgreeAtTheCaps: whether rg runs in walk order and stops at
// the limit, or multi-threaded with its hits sorted and cut in Go, the
// result is the builtin engine's, at every kind of cap: none, one hit, in
// the middle of a file, exactly the total, and one past it.
func TestGrepPlansAgreeAtTheCaps(t *testing.T) {
	rgPath(t)
	root, total := capsTree(t)
	files := 12 * 15
	for _, mode := range []string{ModeContent, ModeCount, ModeFilesWithMatches} {
		all := total
		if mode != ModeContent {
			all = files
		}
		for _, limit := range []int{1, 2, 7, all / 2, all - 1, all, all + 1, 1 << 20} {
			t.Run(fmt.Sprintf("%s/%d", mode, limit), func(t *testing.T) {
				r := grepBoth(t, GrepOptions{Root: root, Pattern: `needle \w+`, Mode: mode, HeadLimit: limit, Context: 1})
				if want := limit < all; r.Truncated != want {
					t.Errorf("truncated %v, want %v", r.Truncated, want)
				}
				if limit >= all && (len(r.Skipped) != 1 || r.Skipped[0].Path != "d5/big.txt") {
					t.Errorf("skipped %v, want d5/big.txt", r.Skipped)
				}
			})
		}
	}
}
