package pathguard_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

var caseSensitive = pathguard.Options{CaseInsensitive: func(string) bool { return false }}

func newResolver(t *testing.T) (*pathguard.Resolver, tree) {
	t.Helper()
	tr := buildTree(t, t.TempDir())
	r, err := pathguard.New(tr.roots(), caseSensitive)
	if err != nil {
		t.Fatal(err)
	}
	return r, tr
}

func TestNewRejectsBadRoots(t *testing.T) {
	tr := buildTree(t, t.TempDir())
	cases := []struct {
		name  string
		roots pathguard.Roots
		code  errs.Code
		field string
	}{
		{"no workspace", pathguard.Roots{}, errs.InvalidArgument, "workspace"},
		{"relative workspace", pathguard.Roots{Workspace: "p/proj"}, errs.InvalidArgument, "workspace"},
		{"missing workspace", pathguard.Roots{Workspace: tr.path("nope")}, errs.NotFound, "workspace"},
		{"workspace is a file", pathguard.Roots{Workspace: tr.path("p/proj/file.txt")}, errs.NotFound, "workspace"},
		{"relative scratch", pathguard.Roots{Workspace: tr.path("p/proj"), Scratch: "scratch/S"}, errs.InvalidArgument, "scratch"},
		{"relative visualization", pathguard.Roots{Workspace: tr.path("p/proj"), Visualization: "v/S"}, errs.InvalidArgument, "visualization"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := pathguard.New(c.roots, caseSensitive)
			if !errs.Is(err, c.code) {
				t.Fatalf("err = %v, want %s", err, c.code)
			}
			if f := errs.As(err).Details["field"]; f != c.field {
				t.Errorf("field = %v, want %s", f, c.field)
			}
		})
	}
}

func TestDefaultCaseDetection(t *testing.T) {
	tr := buildTree(t, t.TempDir())
	r, err := pathguard.New(tr.roots(), pathguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Resolve(tr.path("p/proj/file.txt"))
	if err != nil || res.Root != ws {
		t.Fatalf("Resolve = %+v, %v", res, err)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	t.Run("keeps an existing file's mode", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("Windows has no POSIX permission bits")
		}
		r, tr := newResolver(t)
		p := tr.path("p/proj/file.txt")
		if err := os.Chmod(p, 0o640); err != nil {
			t.Fatal(err)
		}
		res := mustResolve(t, r, "file.txt")
		if err := r.WriteFileAtomic(res, []byte("new"), 0o600); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o640 {
			t.Errorf("mode = %v, %v; want 0640", fi.Mode(), err)
		}
	})
	t.Run("new file gets perm exactly", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("Windows has no POSIX permission bits")
		}
		r, tr := newResolver(t)
		res := mustResolve(t, r, "a/b/new.txt")
		if err := r.WriteFileAtomic(res, []byte("x"), 0o664); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(tr.path("p/proj/a/b/new.txt")); err != nil || fi.Mode().Perm() != 0o664 {
			t.Errorf("mode = %v, %v; want 0664", fi.Mode(), err)
		}
	})
	t.Run("a folder is refused", func(t *testing.T) {
		r, _ := newResolver(t)
		for _, p := range []string{".", "sub"} {
			err := r.WriteFileAtomic(mustResolve(t, r, p), []byte("x"), 0o644)
			if !errs.Is(err, errs.InvalidArgument) {
				t.Errorf("WriteFileAtomic(%s) = %v, want INVALID_ARGUMENT", p, err)
			}
		}
	})
	t.Run("creates the scratch folder lazily", func(t *testing.T) {
		r, tr := newResolver(t)
		if err := os.RemoveAll(tr.path("data/scratch/S")); err != nil {
			t.Fatal(err)
		}
		res := mustResolve(t, r, tr.path("data/scratch/S/n.md"))
		if err := r.WriteFileAtomic(res, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(tr.path("data/scratch/S")); err != nil || !fi.IsDir() {
			t.Errorf("scratch folder = %v, %v", fi, err)
		}
	})
	t.Run("no scratch folder in a redirected data folder", func(t *testing.T) {
		r, tr := newResolver(t)
		res := mustResolve(t, r, tr.path("data/scratch/S/n.md"))
		if err := os.Rename(tr.path("data/scratch"), tr.path("outside/scratch")); err != nil {
			t.Fatal(err)
		}
		symlink(t, tr.path("outside/empty"), tr.path("data/scratch"))
		if err := r.WriteFileAtomic(res, []byte("x"), 0o644); !errs.Is(err, errs.PathOutsideWorkspace) {
			t.Fatalf("err = %v, want PATH_OUTSIDE_WORKSPACE", err)
		}
		if _, err := os.Stat(tr.path("outside/empty")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("created %s: %v", tr.path("outside/empty"), err)
		}
	})
	t.Run("external parents are created", func(t *testing.T) {
		r, tr := newResolver(t)
		res := mustResolve(t, r, tr.path("outside/x/y/z.txt"))
		if res.Root != ext {
			t.Fatalf("Root = %s", res.Root)
		}
		if err := r.WriteFileAtomic(res, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(res.Abs); err != nil || string(b) != "x" {
			t.Errorf("read back %q, %v", b, err)
		}
	})
}

func TestOpenFileMissing(t *testing.T) {
	r, _ := newResolver(t)
	_, err := r.OpenFile(mustResolve(t, r, "nope.txt"), os.O_RDONLY, 0)
	if !errs.Is(err, errs.NotFound) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want NOT_FOUND wrapping fs.ErrNotExist", err)
	}
}

func TestForeignResolved(t *testing.T) {
	r, tr := newResolver(t)
	other, err := pathguard.New(pathguard.Roots{Workspace: tr.path("outside")}, caseSensitive)
	if err != nil {
		t.Fatal(err)
	}
	res := mustResolve(t, other, "secret.txt") // Workspace of the other resolver
	if _, err := r.OpenFile(res, os.O_RDONLY, 0); !errs.Is(err, errs.PathOutsideWorkspace) {
		t.Errorf("OpenFile(foreign) = %v, want PATH_OUTSIDE_WORKSPACE", err)
	}
	if _, err := r.OpenFile(pathguard.Resolved{Root: ws, Rel: "file.txt"}, os.O_RDONLY, 0); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("OpenFile(zero) = %v, want INVALID_ARGUMENT", err)
	}
	// StatFresh does not re-resolve, so it checks the root is this
	// resolver's itself.
	for name, res := range map[string]pathguard.Resolved{"foreign": res, "zero": {Root: ws, Rel: "file.txt"}} {
		if _, err := r.StatFresh(res); !errs.Is(err, errs.InvalidArgument) {
			t.Errorf("StatFresh(%s) = %v, want INVALID_ARGUMENT", name, err)
		}
	}
}

// StatFresh answers as Stat does for a path just resolved.
func TestStatFreshAgreesWithStat(t *testing.T) {
	r, tr := newResolver(t)
	for _, p := range []string{"file.txt", "sub", "sub/inner.txt", "nope.txt", tr.path("outside/secret.txt")} {
		res := mustResolve(t, r, p)
		want, werr := r.Stat(res)
		got, gerr := r.StatFresh(res)
		if errs.CodeOf(werr) != errs.CodeOf(gerr) || errors.Is(werr, fs.ErrNotExist) != errors.Is(gerr, fs.ErrNotExist) {
			t.Fatalf("%s: Stat err %v, StatFresh err %v", p, werr, gerr)
		}
		if werr == nil && (!os.SameFile(want, got) || want.Mode() != got.Mode()) {
			t.Errorf("%s: StatFresh %v, Stat %v", p, got.Mode(), want.Mode())
		}
	}
}

// TestConcurrentUse runs resolves and writes in parallel under -race.
func TestConcurrentUse(t *testing.T) {
	r, tr := newResolver(t)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			res, err := r.Resolve(fmt.Sprintf("c/%d.txt", i%4))
			if err != nil {
				t.Error(err)
				return
			}
			if err := r.WriteFileAtomic(res, []byte("x"), 0o644); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	entries, err := os.ReadDir(tr.path("p/proj/c"))
	if err != nil || len(entries) != 4 {
		t.Errorf("entries = %v, %v; want 4 files and no temporaries", entries, err)
	}
}

func mustResolve(t *testing.T, r *pathguard.Resolver, p string) pathguard.Resolved {
	t.Helper()
	res, err := r.Resolve(filepath.FromSlash(p))
	if err != nil {
		t.Fatalf("Resolve(%s): %v", p, err)
	}
	return res
}

func TestKeyFoldsOnCaseInsensitiveVolumes(t *testing.T) {
	dir := t.TempDir()
	for _, fold := range []bool{false, true} {
		r, err := pathguard.New(pathguard.Roots{Workspace: dir}, pathguard.Options{CaseInsensitive: func(string) bool { return fold }})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := r.Resolve("New.txt")
		b, _ := r.Resolve("new.TXT")
		if same := r.Key(a) == r.Key(b); same != fold {
			t.Errorf("fold=%v: keys %q and %q equal=%v", fold, r.Key(a), r.Key(b), same)
		}
	}
}

func TestRemove(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	keep := filepath.Join(outside, "keep.txt")
	if err := os.WriteFile(keep, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(ws, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := pathguard.New(pathguard.Roots{Workspace: ws}, pathguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := r.Resolve("a.txt")
	if err := r.Remove(a); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ws, "a.txt")); !os.IsNotExist(err) {
		t.Error("file not removed")
	}
	d, _ := r.Resolve("dir")
	if err := r.Remove(d); err == nil {
		t.Error("Remove deleted a folder")
	}
	// A link planted after resolution is removed as a link; its target stays.
	if err := os.WriteFile(filepath.Join(ws, "b.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := r.Resolve("b.txt")
	os.Remove(filepath.Join(ws, "b.txt"))
	if err := os.Symlink(keep, filepath.Join(ws, "b.txt")); err != nil {
		t.Fatal(err)
	}
	_ = r.Remove(b)
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("Remove followed a planted link: %v", err)
	}
}

func TestWriteFileNewNeverReplaces(t *testing.T) {
	ws := t.TempDir()
	r, err := pathguard.New(pathguard.Roots{Workspace: ws}, pathguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := r.Resolve("n.txt")
	if err := r.WriteFileNew(res, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteFileNew(res, []byte("second"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second WriteFileNew = %v; want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "n.txt")); string(b) != "first" {
		t.Errorf("file = %q", b)
	}
	entries, _ := os.ReadDir(ws)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}
