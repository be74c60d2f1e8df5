package search

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"testing"
)

// TestGrepBatchesKeepWalkOrder: a folder of more files than one job takes
// (fileBatch), with subfolders sorting between its files, gives every
// file in walk order at every cap, the same through every engine and plan,
// and leaves no folder handle open behind.
func TestGrepBatchesKeepWalkOrder(t *testing.T) {
	files := map[string]string{}
	var want []string
	n := 3*fileBatch + 5
	for i := range n {
		name := fmt.Sprintf("wide/f%03d.txt", i)
		if i%20 == 10 {
			// a folder that sorts between two files ("f010.sub" < "f010.txt"):
			// its files come between theirs
			files[fmt.Sprintf("wide/f%03d.sub/inner.txt", i)] = "needle inner\n"
			want = append(want, fmt.Sprintf("wide/f%03d.sub/inner.txt", i), name)
		} else {
			want = append(want, name)
		}
		files[name] = "needle\n"
	}
	root := t.TempDir()
	writeTree(t, root, files)
	before := openFDs(t)
	for _, limit := range []int{1, fileBatch - 1, fileBatch, fileBatch + 1, len(want) - 1, len(want), 1 << 20} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			r := grepBoth(t, GrepOptions{Root: root, Pattern: "needle", Mode: ModeFilesWithMatches, HeadLimit: limit})
			if got, w := paths(r), want[:min(limit, len(want))]; !slices.Equal(got, w) {
				t.Errorf("files:\n got %q\nwant %q", got, w)
			}
		})
	}
	if after := openFDs(t); after > before {
		t.Errorf("%d descriptors open after the searches, %d before: a folder handle leaked", after, before)
	}
}

// openFDs counts this process's open descriptors on Linux (0 elsewhere).
// No GC runs first: a handle left to its finalizer counts as leaked.
func openFDs(t *testing.T) int {
	t.Helper()
	if runtime.GOOS != "linux" {
		return 0
	}
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}
