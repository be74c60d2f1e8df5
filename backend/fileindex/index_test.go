package fileindex_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/fileindex"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// all lists every indexed file in path order.
func all(t *testing.T, x *fileindex.Index) []string {
	t.Helper()
	res, err := x.Query("", 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Sorted(slices.Values(res.Files))
}

// waitFor waits, on the index's generation (never a sleep), until the full
// listing is want; the test's deadline bounds it.
func waitFor(t *testing.T, x *fileindex.Index, want ...string) {
	t.Helper()
	slices.Sort(want)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	for {
		gen := x.Generation()
		got := all(t, x)
		if slices.Equal(got, want) {
			return
		}
		if _, err := x.Wait(ctx, gen); err != nil {
			t.Fatalf("index lists %q; want %q (%v)", got, want, err)
		}
	}
}

func newIndex(t *testing.T, root string, opts fileindex.Options) *fileindex.Index {
	t.Helper()
	x := fileindex.New(root, opts)
	t.Cleanup(func() { x.Close() })
	if err := x.Ready(t.Context()); err != nil {
		t.Fatal(err)
	}
	return x
}

func TestIndexFollowsCreateRenameAndDelete(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "main.go"), "")
	write(t, filepath.Join(root, "src", "a.ts"), "")
	x := newIndex(t, root, fileindex.Options{Debounce: time.Millisecond})
	waitFor(t, x, "main.go", "src/a.ts")
	if x.Polling() {
		t.Fatal("a small tree fell back to polling")
	}

	write(t, filepath.Join(root, "src", "b.ts"), "")
	waitFor(t, x, "main.go", "src/a.ts", "src/b.ts")

	// A new folder, with files inside before the index looks at it, and a
	// file added to it afterwards (its own watch).
	write(t, filepath.Join(root, "lib", "deep", "x.go"), "")
	waitFor(t, x, "main.go", "src/a.ts", "src/b.ts", "lib/deep/x.go")
	write(t, filepath.Join(root, "lib", "deep", "y.go"), "")
	waitFor(t, x, "main.go", "src/a.ts", "src/b.ts", "lib/deep/x.go", "lib/deep/y.go")

	if err := os.Rename(filepath.Join(root, "src", "a.ts"), filepath.Join(root, "src", "renamed.ts")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, x, "main.go", "src/renamed.ts", "src/b.ts", "lib/deep/x.go", "lib/deep/y.go")

	// A folder renamed: its files move with it, and events in it are
	// reported under the new name only.
	if err := os.Rename(filepath.Join(root, "lib"), filepath.Join(root, "pkg")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, x, "main.go", "src/renamed.ts", "src/b.ts", "pkg/deep/x.go", "pkg/deep/y.go")
	write(t, filepath.Join(root, "pkg", "deep", "z.go"), "")
	waitFor(t, x, "main.go", "src/renamed.ts", "src/b.ts", "pkg/deep/x.go", "pkg/deep/y.go", "pkg/deep/z.go")

	if err := os.Remove(filepath.Join(root, "main.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "pkg")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, x, "src/renamed.ts", "src/b.ts")

	res, err := x.Query("ren", 10)
	if err != nil || !slices.Equal(res.Files, []string{"src/renamed.ts"}) || res.Indexing || res.Truncated {
		t.Errorf("Query(ren) = %+v, %v", res, err)
	}
}

func TestIndexHonoursIgnoreRules(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".gitignore"), "dist/\n*.log\n")
	write(t, filepath.Join(root, "dist", "app.js"), "")
	write(t, filepath.Join(root, "build.log"), "")
	write(t, filepath.Join(root, ".hidden", "secret.txt"), "")
	write(t, filepath.Join(root, ".env"), "")
	write(t, filepath.Join(root, "src", "app.ts"), "")
	write(t, filepath.Join(root, "src", ".ignore"), "gen/\n")
	write(t, filepath.Join(root, "src", "gen", "types.ts"), "")
	if err := os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	x := newIndex(t, root, fileindex.Options{Debounce: time.Millisecond})
	waitFor(t, x, "src/app.ts")

	// New files follow the same rules.
	write(t, filepath.Join(root, "dist", "more.js"), "")
	write(t, filepath.Join(root, "other.log"), "")
	write(t, filepath.Join(root, "src", "gen", "more.ts"), "")
	write(t, filepath.Join(root, "src", "new.ts"), "")
	waitFor(t, x, "src/app.ts", "src/new.ts")

	// Editing an ignore file shows or hides a whole subtree.
	write(t, filepath.Join(root, ".gitignore"), "*.log\n")
	waitFor(t, x, "src/app.ts", "src/new.ts", "dist/app.js", "dist/more.js")
	write(t, filepath.Join(root, "src", ".ignore"), "*.ts\n!app.ts\n")
	waitFor(t, x, "src/app.ts", "dist/app.js", "dist/more.js")
	if err := os.Remove(filepath.Join(root, "src", ".ignore")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, x, "src/app.ts", "src/new.ts", "src/gen/types.ts", "src/gen/more.ts", "dist/app.js", "dist/more.js")
}

func TestIndexFallsBackToPollingWhenFoldersCannotAllBeWatched(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a", "one.go"), "")
	write(t, filepath.Join(root, "b", "two.go"), "")
	x := newIndex(t, root, fileindex.Options{MaxWatches: 2, PollInterval: 20 * time.Millisecond})
	waitFor(t, x, "a/one.go", "b/two.go")
	if !x.Polling() {
		t.Fatal("3 folders with a limit of 2 watches: want polling")
	}
	write(t, filepath.Join(root, "b", "three.go"), "")
	waitFor(t, x, "a/one.go", "b/two.go", "b/three.go")
}

func TestIndexListsLargeTreesWhole(t *testing.T) {
	const n = 100_000
	root := t.TempDir()
	// Hard links of an empty file (one per folder: ext4 allows 65,000
	// links): a name each without an inode each, several times faster to
	// create than 100,000 files.
	protos := t.TempDir()
	for d := range n / 1000 {
		proto := filepath.Join(protos, fmt.Sprint(d))
		write(t, proto, "")
		dir := filepath.Join(root, fmt.Sprintf("d%03d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range 1000 {
			if err := os.Link(proto, filepath.Join(dir, fmt.Sprintf("f%04d.txt", f))); err != nil {
				t.Fatal(err)
			}
		}
	}
	x := newIndex(t, root, fileindex.Options{})
	if got := x.Len(); got != n {
		t.Fatalf("indexed %d files; want all %d", got, n)
	}
	// The last file in walk order is found, where a walk capped at 50,000
	// never reached it.
	res, err := x.Query("d099/f0999", 5)
	if err != nil || len(res.Files) == 0 || res.Files[0] != "d099/f0999.txt" {
		t.Errorf("Query(d099/f0999) = %+v, %v", res, err)
	}
}

func TestIndexOfAMissingRootFails(t *testing.T) {
	x := fileindex.New(filepath.Join(t.TempDir(), "gone"), fileindex.Options{})
	t.Cleanup(func() { x.Close() })
	if err := x.Ready(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Query("", 10); err == nil {
		t.Error("Query on a missing root: want the walk's error")
	}
}

func TestPoolSharesOneIndexPerRoot(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	p := fileindex.NewPool(fileindex.Options{})
	t.Cleanup(func() { p.Close() })
	x1, err := p.Acquire(a, "s1")
	if err != nil {
		t.Fatal(err)
	}
	x2, _ := p.Acquire(a+string(filepath.Separator), "s2")
	if x1 != x2 || p.Open() != 1 {
		t.Fatalf("two sessions on one root: %p %p, %d open; want one shared index", x1, x2, p.Open())
	}
	p.Release("s1")
	if p.Open() != 1 {
		t.Fatal("the index closed while s2 still holds it")
	}
	// s2 moving to another root lets go of the first.
	if _, err := p.Acquire(b, "s2"); err != nil {
		t.Fatal(err)
	}
	if p.Open() != 1 {
		t.Fatalf("%d open; want only b's", p.Open())
	}
	if _, err := x1.Wait(t.Context(), 1<<62); err == nil {
		t.Error("the released index still runs")
	}
	p.Release("s2")
	p.Release("nobody")
	if p.Open() != 0 {
		t.Fatalf("%d open after every session let go", p.Open())
	}
	p.Close()
	if _, err := p.Acquire(a, "s3"); err == nil {
		t.Error("Acquire after Close succeeded")
	}
}
