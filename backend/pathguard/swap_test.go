package pathguard_test

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// TestSwapAfterApproval resolves a path, lets the attacker swap a link in,
// then runs the operation. The swap happens either before the call (the
// re-resolution must notice) or inside it, after the re-resolution and
// before the os.Root operation (os.Root must refuse). Either way the call
// fails with PATH_OUTSIDE_WORKSPACE and nothing outside is read or written.
func TestSwapAfterApproval(t *testing.T) {
	swaps := []struct {
		name string
		path string
		root pathguard.Root
		swap func(testing.TB, tree)
	}{
		{"parent folder swapped for a link outside", "sub/inner.txt", ws, func(tb testing.TB, tr tree) {
			replaceWithLink(tb, tr.path("p/proj/sub"), "../../outside")
		}},
		{"parent folder swapped for an absolute link", "sub/inner.txt", ws, func(tb testing.TB, tr tree) {
			replaceWithLink(tb, tr.path("p/proj/sub"), tr.path("outside"))
		}},
		{"file swapped for a link outside", "file.txt", ws, func(tb testing.TB, tr tree) {
			replaceWithLink(tb, tr.path("p/proj/file.txt"), "../../outside/file.txt")
		}},
		{"missing folder created as a link outside", "newdir/inner.txt", ws, func(tb testing.TB, tr tree) {
			symlink(tb, "../../outside", tr.path("p/proj/newdir"))
		}},
		{"scratch folder swapped for a link to the project", "@/data/scratch/S/file.txt", scr, func(tb testing.TB, tr tree) {
			writeFile(tb, tr.path("data/scratch/S/file.txt"), "scratch-file")
			replaceWithLink(tb, tr.path("data/scratch/S"), tr.path("p/proj"))
		}},
		{"visualization base swapped for a link", "@/data/visualizations/S/chart.html", viz, func(tb testing.TB, tr tree) {
			replaceWithLink(tb, tr.path("data/visualizations"), tr.path("outside"))
			writeFile(tb, tr.path("outside/S/chart.html"), secret)
		}},
		{"external file swapped for a link into the project", "@/outside/file.txt", ext, func(tb testing.TB, tr tree) {
			replaceWithLink(tb, tr.path("outside/file.txt"), "../p/proj/file.txt")
		}},
	}
	ops := []struct {
		name string
		run  func(*pathguard.Resolver, pathguard.Resolved) (string, error)
		// fresh: the op does not re-resolve (StatFresh), so a swap "after
		// the re-check" is the same as one before the call.
		fresh bool
	}{
		{"write", func(r *pathguard.Resolver, res pathguard.Resolved) (string, error) {
			return "", r.WriteFileAtomic(res, []byte("pwned"), 0o644)
		}, false},
		{"read", func(r *pathguard.Resolver, res pathguard.Resolved) (string, error) {
			f, err := r.OpenFile(res, os.O_RDONLY, 0)
			if err != nil {
				return "", err
			}
			defer f.Close()
			b, err := io.ReadAll(f)
			return string(b), err
		}, false},
		{"create", func(r *pathguard.Resolver, res pathguard.Resolved) (string, error) {
			f, err := r.OpenFile(res, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
			if err != nil {
				return "", err
			}
			defer f.Close()
			_, err = f.WriteString("pwned")
			return "", err
		}, false},
		{"stat", func(r *pathguard.Resolver, res pathguard.Resolved) (string, error) {
			_, err := r.Stat(res)
			return "", err
		}, false},
		{"stat-fresh", func(r *pathguard.Resolver, res pathguard.Resolved) (string, error) {
			_, err := r.StatFresh(res)
			return "", err
		}, true},
		{"link", func(r *pathguard.Resolver, res pathguard.Resolved) (string, error) {
			dir, err := os.MkdirTemp("", "linkinto-")
			if err != nil {
				return "", err
			}
			defer os.RemoveAll(dir)
			dst, err := os.OpenRoot(dir)
			if err != nil {
				return "", err
			}
			defer dst.Close()
			want, _ := os.Stat(res.Abs) // what is there now, wherever a link leads
			err = r.LinkInto(res, want, dst, "snapshot")
			b, rerr := os.ReadFile(filepath.Join(dir, "snapshot"))
			if rerr == nil && err != nil {
				return "left behind: " + string(b), err
			}
			return string(b), err
		}, false},
	}
	for _, s := range swaps {
		for _, op := range ops {
			for _, inside := range []bool{false, true} {
				if inside && op.fresh {
					continue
				}
				when := "before the call"
				if inside {
					when = "after the re-check"
				}
				t.Run(s.name+"/"+op.name+"/"+when, func(t *testing.T) {
					tr := buildTree(t, t.TempDir())
					r, err := pathguard.New(tr.roots(), pathguard.Options{CaseInsensitive: func(string) bool { return false }})
					if err != nil {
						t.Fatal(err)
					}
					res, err := r.Resolve(tr.expand(s.path))
					if err != nil {
						t.Fatal(err)
					}
					if res.Root != s.root {
						t.Fatalf("before the swap Root = %s, want %s", res.Root, s.root)
					}
					if inside {
						pathguard.SetAfterRecheck(r, func() { s.swap(t, tr) })
					} else {
						s.swap(t, tr)
					}
					got, err := op.run(r, res)
					if !errs.Is(err, errs.PathOutsideWorkspace) {
						t.Fatalf("%s after swap: err = %v, want %s", op.name, err, errs.PathOutsideWorkspace)
					}
					if !strings.Contains(errs.As(err).Message, "retry") {
						t.Errorf("message %q does not say to retry", errs.As(err).Message)
					}
					if got != "" {
						t.Errorf("read %q after the swap", got)
					}
					assertNotWritten(t, tr)
				})
			}
		}
	}
}

// assertNotWritten fails if any file in the tree holds the attacker's data
// or a temporary file was left behind.
func assertNotWritten(t *testing.T, tr tree) {
	t.Helper()
	filepath.WalkDir(tr.base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		if strings.Contains(d.Name(), ".pi-") {
			t.Errorf("temporary file %s left behind", p)
		}
		if b, _ := os.ReadFile(p); string(b) == "pwned" {
			t.Errorf("%s was written after the swap", p)
		}
		return nil
	})
}
