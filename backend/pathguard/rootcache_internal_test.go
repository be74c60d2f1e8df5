package pathguard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// rootsOf is what New decided about each root (realDir, a fact New saw on
// the way, is not a decision: a fresh build never records it).
func rootsOf(r *Resolver) [3]root {
	out := [3]root{r.workspace, r.scratch, r.viz}
	for i := range out {
		// What New saw on the way, not what it decided; a Resolver built
		// without a cache never records the identity.
		out[i].realDir, out[i].canonInfo = false, nil
	}
	return out
}

// realTempDir is a temporary folder spelled canonically (macOS's /var is a
// link), so the tests' expectations compare with resolved paths.
func realTempDir(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	if c, err := filepath.EvalSymlinks(base); err == nil {
		base = c
	}
	return base
}

// A Resolver built through the cache decides exactly as a fresh one after
// each change a session's folders can go through, including the swaps the
// cache must notice.
func TestRootCacheAgreesWithFreshCanonicalisation(t *testing.T) {
	base := realTempDir(t)
	ws := filepath.Join(base, "proj")
	data := filepath.Join(base, "data")
	scratchBase := filepath.Join(data, "scratch")
	roots := Roots{Workspace: ws, Scratch: filepath.Join(scratchBase, "s1"), Visualization: filepath.Join(data, "viz", "s1")}
	mkdir := func(p string) {
		t.Helper()
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	move := func(from, to string) {
		t.Helper()
		if err := os.Rename(from, to); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, at string) {
		t.Helper()
		if err := os.Symlink(target, at); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	mkdir(ws)
	mkdir(scratchBase)
	mkdir(filepath.Join(base, "elsewhere"))
	steps := []struct {
		name   string
		change func()
	}{
		{"initial", func() {}},
		{"scratch created", func() { mkdir(roots.Scratch) }},
		{"workspace swapped for a link", func() {
			move(ws, filepath.Join(base, "proj.moved"))
			link(filepath.Join(base, "elsewhere"), ws)
		}},
		{"workspace a real folder again", func() {
			_ = os.Remove(ws)
			mkdir(ws)
		}},
		{"workspace replaced by another folder", func() {
			move(ws, filepath.Join(base, "proj.old"))
			mkdir(ws)
		}},
		{"scratch swapped for a link into the project", func() {
			move(roots.Scratch, filepath.Join(base, "s1.moved"))
			link(ws, roots.Scratch)
		}},
		{"scratch base swapped for a link", func() {
			_ = os.Remove(roots.Scratch)
			move(scratchBase, filepath.Join(base, "scratch.moved"))
			link(ws, scratchBase)
		}},
		{"scratch base real and empty again", func() {
			_ = os.Remove(scratchBase)
			mkdir(scratchBase)
		}},
		// Missing on the last two builds, so looked for after its parent.
		{"missing scratch created as a link into the project", func() { link(ws, roots.Scratch) }},
		{"scratch missing again", func() { _ = os.Remove(roots.Scratch) }},
		{"missing scratch created as a real folder", func() { mkdir(roots.Scratch) }},
		{"scratch gone again", func() { _ = os.Remove(roots.Scratch) }},
		{"visualization base created as a link", func() { link(ws, filepath.Join(data, "viz")) }},
		{"workspace a file", func() {
			move(ws, filepath.Join(base, "proj.dir"))
			if err := os.WriteFile(ws, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"workspace a folder again", func() {
			_ = os.Remove(ws)
			mkdir(ws)
		}},
		{"scratch parent removed", func() { move(scratchBase, filepath.Join(base, "scratch.gone")) }},
		{"workspace removed", func() { move(ws, filepath.Join(base, "proj.gone")) }},
	}
	cache := &RootCache{}
	for _, st := range steps {
		st.change()
		for range 2 { // the second build is served from the cache
			fresh, ferr := New(roots, Options{})
			cached, cerr := New(roots, Options{Roots: cache})
			if (ferr == nil) != (cerr == nil) || errs.CodeOf(ferr) != errs.CodeOf(cerr) {
				t.Fatalf("%s: fresh error %v, cached error %v", st.name, ferr, cerr)
			}
			if ferr != nil {
				continue
			}
			if f, c := rootsOf(fresh), rootsOf(cached); f != c {
				t.Fatalf("%s:\nfresh  %+v\ncached %+v", st.name, f, c)
			}
		}
	}
}

// The one change the check lets through, a parent moved away and linked
// back, leaves a cached root whose path contains a link but names the very
// folder New saw. A path spelled inside it may classify into the root
// (walked from the root down) or as outside (walked whole); either way an
// operation reaches the file in that same folder, never another one.
func TestRootCacheStaleAncestorLeadsToTheSameFolder(t *testing.T) {
	base := realTempDir(t)
	parent := filepath.Join(base, "home")
	ws := filepath.Join(parent, "proj")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := &RootCache{}
	if _, err := New(Roots{Workspace: ws}, Options{Roots: cache}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(parent, filepath.Join(base, "home2")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "home2"), parent); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	r, err := New(Roots{Workspace: ws}, Options{Roots: cache})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a.txt", filepath.Join(base, "home2", "proj", "a.txt"), filepath.Join(ws, "a.txt")} {
		res, err := r.Resolve(p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Root != External && res.Root != Workspace {
			t.Errorf("%s = %s", p, res.Root)
		}
		f, err := r.OpenFile(res, os.O_RDONLY, 0)
		if err != nil {
			if res.Root == Workspace {
				t.Errorf("%s: %v", p, err)
			}
			continue
		}
		fi, _ := f.Stat()
		f.Close()
		if want, _ := os.Stat(filepath.Join(base, "home2", "proj", "a.txt")); !os.SameFile(fi, want) {
			t.Errorf("%s (%s): opened another file than the one in the workspace folder", p, res.Root)
		}
	}
}

// A parent swapped for a link to another tree that has the same names
// leads the root's spelling to another folder: nothing resolves into the
// workspace through it, and nothing of the other tree is read as the
// workspace's.
func TestRootCacheParentLinkedElsewhereIsNotTheWorkspace(t *testing.T) {
	base := realTempDir(t)
	parent := filepath.Join(base, "home")
	ws := filepath.Join(parent, "proj")
	other := filepath.Join(base, "other")
	for dir, body := range map[string]string{ws: "mine", filepath.Join(other, "proj"): "theirs"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := &RootCache{}
	r, err := New(Roots{Workspace: ws}, Options{Roots: cache})
	if err != nil {
		t.Fatal(err)
	}
	before, err := r.Resolve("a.txt")
	if err != nil || before.Root != Workspace {
		t.Fatalf("before the swap: %+v %v", before, err)
	}
	if err := os.Rename(parent, filepath.Join(base, "home.moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, parent); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	// The Resolver built before the swap, and one built after it.
	r2, err := New(Roots{Workspace: ws}, Options{Roots: cache})
	if err != nil {
		t.Fatal(err)
	}
	for i, rv := range []*Resolver{r, r2} {
		for _, p := range []string{"a.txt", filepath.Join(ws, "a.txt")} {
			res, err := rv.Resolve(p)
			if err != nil {
				continue
			}
			// Policy decides on the classification: the old folder's
			// name now leads to the other tree, so it must not be it.
			if res.Root == Workspace && res.RootDir == before.RootDir {
				t.Errorf("resolver %d, %s: classified into the old workspace folder through a link to another tree", i, p)
			}
		}
		if _, err := rv.OpenFile(before, os.O_RDONLY, 0); err == nil {
			t.Errorf("resolver %d: the resolution made before the swap still opens a file", i)
		}
	}
}

// A root spelled through a link (a data directory under /var on macOS, say)
// follows that link when it is pointed elsewhere.
func TestRootCacheFollowsARetargetedAlias(t *testing.T) {
	base := realTempDir(t)
	for _, d := range []string{"a/proj", "b/proj"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	alias := filepath.Join(base, "alias")
	if err := os.Symlink(filepath.Join(base, "a"), alias); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	roots := Roots{Workspace: filepath.Join(alias, "proj")}
	cache := &RootCache{}
	targets := []string{"a", "a", "b", "b", "a"}
	for i, target := range targets {
		if i > 0 && target != targets[i-1] {
			_ = os.Remove(alias)
			if err := os.Symlink(filepath.Join(base, target), alias); err != nil {
				t.Fatal(err)
			}
		}
		r, err := New(roots, Options{Roots: cache})
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(base, target, "proj"); r.workspace.canon != want {
			t.Fatalf("step %d: workspace = %s; want %s", i, r.workspace.canon, want)
		}
	}
}
