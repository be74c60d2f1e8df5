package pathguard

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Walking from a confirmed root down gives what the whole walk gives, for
// every kind of path below it, and says when it took the short way.
func TestCanonicalBelowRootAgreesWithTheWholeWalk(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the short walk is not used on Windows")
	}
	base := realTempDir(t)
	ws := filepath.Join(base, "proj")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(ws, "src", "pkg"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(ws, "main.go"), filepath.Join(ws, "src", "pkg", "a.go"), filepath.Join(outside, "x")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{"in": filepath.Join(ws, "src"), "out": outside, "dangling": filepath.Join(base, "nowhere", "y"), "rel": "src/pkg"}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	r, err := New(Roots{Workspace: ws}, Options{Roots: &RootCache{}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		rel   string
		short bool // answered without the whole walk
	}{
		{".", true},
		{"main.go", true},
		{"src/pkg/a.go", true},
		{"src/pkg", true},
		{"new.go", true},
		{"src/missing/deeper/x.go", true},
		{"in/pkg/a.go", false},
		{"out/x", false},
		{"dangling", false},
		{"rel/a.go", false},
		{"main.go/below", false},
	}
	for _, c := range cases {
		lex := filepath.Join(ws, c.rel)
		want, werr := canonicalize(lex)
		got, seen, gerr := r.canonicalize(lex)
		if got != want || (werr == nil) != (gerr == nil) {
			t.Errorf("%s: %q, %v; the whole walk: %q, %v", c.rel, got, gerr, want, werr)
		}
		if _, _, short := r.canonicalBelowRoot(lex); short != c.short {
			t.Errorf("%s: short walk %v, want %v", c.rel, short, c.short)
		}
		// What the short walk saw of the target is what the disk says.
		fi, err := os.Lstat(lex)
		switch {
		case !c.short:
			if seen.Known() {
				t.Errorf("%s: the whole walk reported the target %+v", c.rel, seen)
			}
		case err != nil:
			if !seen.Missing || seen.Info != nil {
				t.Errorf("%s: missing (%v), reported %+v", c.rel, err, seen)
			}
		case seen.Missing || seen.Info == nil || !os.SameFile(seen.Info, fi) || seen.Info.Mode() != fi.Mode():
			t.Errorf("%s: reported %+v, not its Lstat", c.rel, seen)
		}
	}
	// A scratch folder inside the workspace (as in a temporary session):
	// its paths are walked whole, since only that walk sees its base
	// folder; the workspace's other paths still take the short way.
	withScratch, err := New(Roots{Workspace: ws, Scratch: filepath.Join(ws, "src", "pkg")}, Options{Roots: &RootCache{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, short := withScratch.canonicalBelowRoot(filepath.Join(ws, "src", "pkg", "a.go")); short {
		t.Error("a path in the scratch folder took the short walk")
	}
	if _, _, short := withScratch.canonicalBelowRoot(filepath.Join(ws, "main.go")); !short {
		t.Error("a workspace path beside the scratch folder took the whole walk")
	}
	// Outside every root, and a sibling whose name starts like the root's.
	for _, p := range []string{filepath.Join(outside, "x"), ws + "2/x", base} {
		if _, _, short := r.canonicalBelowRoot(p); short {
			t.Errorf("%s: took the short walk outside the roots", p)
		}
	}
}

func TestBelowDir(t *testing.T) {
	cases := []struct {
		dir, p string
		at     int
		ok     bool
	}{
		{"/a/b", "/a/b", 4, true},
		{"/a/b", "/a/b/c", 4, true},
		{"/a/b", "/a/bc", 0, false},
		{"/a/b", "/a", 0, false},
		{"/", "/x/y", 0, true},
		{"/", "/", 1, true},
		{"", "/x", 0, false},
	}
	for _, c := range cases {
		at, ok := belowDir(c.dir, c.p)
		if at != c.at || ok != c.ok {
			t.Errorf("belowDir(%q, %q) = %d, %v; want %d, %v", c.dir, c.p, at, ok, c.at, c.ok)
		}
	}
}
