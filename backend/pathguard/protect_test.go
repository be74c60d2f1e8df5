package pathguard_test

import (
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// TestDataFolderIsProtected resolves spellings that reach the host's data
// folder, directly, through links, through a nested data folder and in other
// case spellings: all but the session's own scratch, visualization and
// worktree roots are refused with PATH_PROTECTED.
func TestDataFolderIsProtected(t *testing.T) {
	const keys = "sk-ant-STORED-KEY"
	outside := func(tr tree) pathguard.Roots { // the usual layout: data beside the project
		r := tr.roots()
		r.Data = tr.path("data")
		return r
	}
	nested := func(tr tree) pathguard.Roots { // the data folder inside the project
		return pathguard.Roots{
			Workspace:     tr.path("p/proj"),
			Scratch:       tr.path("p/proj/pidata/scratch/S"),
			Visualization: tr.path("p/proj/pidata/visualizations/S"),
			Data:          tr.path("p/proj/pidata"),
		}
	}
	worktree := func(tr tree) pathguard.Roots { // an isolated session's worktree
		r := outside(tr)
		r.Workspace = tr.path("data/worktrees/W")
		return r
	}
	noViz := func(tr tree) pathguard.Roots {
		r := outside(tr)
		r.Visualization = ""
		return r
	}
	cases := []struct {
		name  string
		roots func(tree) pathguard.Roots
		path  string
		fold  bool
		proc  bool
		root  pathguard.Root // want, when not refused
	}{
		{name: "keys file", roots: outside, path: "@/data/keys.json"},
		{name: "database journal not yet there", roots: outside, path: "@/data/pi.sqlite-journal"},
		{name: "the data folder itself", roots: outside, path: "@/data"},
		{name: "the scratch base", roots: outside, path: "@/data/scratch"},
		{name: "another session's scratch", roots: outside, path: "@/data/scratch/other-session/new.md"},
		{name: "another session's visualization", roots: outside, path: "@/data/visualizations/other/x.html"},
		{name: "dotdot from own scratch to another session", roots: outside, path: "@/data/scratch/S/../other-session/new.md"},
		{name: "link in own scratch to another session", roots: outside, path: "@/data/scratch/S/to-other/new.md"},
		{name: "workspace link to the data folder", roots: outside, path: "to-data/keys.json"},
		{name: "workspace dangling link into the data folder", roots: outside, path: "dl-data"},
		{name: "workspace link to another visualization session", roots: outside, path: "to-viz-sibling/x.html"},
		{name: "relative dotdot into the data folder", roots: outside, path: "../../data/keys.json"},
		{name: "own visualization folder while the feature is off", roots: noViz, path: "@/data/visualizations/S/chart.html"},
		{name: "case spelling of the data folder", roots: outside, fold: true, path: "@/DATA/Keys.json"},
		{name: "proc alias of the data folder", roots: outside, proc: true, path: "@/data/keys.json"},
		{name: "nested: keys file", roots: nested, path: "pidata/keys.json"},
		{name: "nested: absolute", roots: nested, path: "@/p/proj/pidata/pi.sqlite-journal"},
		{name: "nested: another session's scratch", roots: nested, path: "pidata/scratch/T/x.md"},
		{name: "nested: case spelling", roots: nested, fold: true, path: "PIDATA/keys.json"},
		{name: "nested: link to it", roots: nested, path: "to-pidata/keys.json"},
		{name: "worktree: keys file", roots: worktree, path: "@/data/keys.json"},
		{name: "worktree: climbing out of the worktree", roots: worktree, path: "../../keys.json"},
		{name: "worktree: another worktree", roots: worktree, path: "../X/f.txt"},

		{name: "own scratch", roots: outside, path: "@/data/scratch/S/notes.md", root: scr},
		{name: "own visualization", roots: outside, path: "@/data/visualizations/S/chart.html", root: viz},
		{name: "workspace link into own scratch", roots: outside, path: "to-scratch/notes.md", root: scr},
		{name: "workspace file", roots: outside, path: "file.txt", root: ws},
		{name: "nested: own scratch", roots: nested, path: "pidata/scratch/S/x.md", root: scr},
		{name: "nested: workspace root", roots: nested, path: ".", root: ws},
		{name: "nested: workspace file", roots: nested, path: "file.txt", root: ws},
		{name: "worktree: its own files", roots: worktree, path: "f.txt", root: ws},
		{name: "outside the data folder", roots: outside, path: "@/outside/secret.txt", root: ext},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.proc && runtime.GOOS != "linux" {
				t.Skip("/proc/self/root exists only on Linux")
			}
			tr := buildTree(t, t.TempDir())
			for _, f := range []string{"data/keys.json", "p/proj/pidata/keys.json", "data/worktrees/W/f.txt", "data/worktrees/X/f.txt"} {
				writeFile(t, tr.path(f), keys)
			}
			for _, f := range []string{"p/proj/pidata/scratch/S/x.md", "p/proj/pidata/scratch/T/x.md", "data/scratch/S/x.md"} {
				writeFile(t, tr.path(f), "scratch")
			}
			symlink(t, tr.path("data"), tr.path("p/proj/to-data"))
			symlink(t, "../../data/pi.sqlite-journal", tr.path("p/proj/dl-data"))
			symlink(t, "pidata", tr.path("p/proj/to-pidata"))
			r, err := pathguard.New(c.roots(tr), pathguard.Options{CaseInsensitive: func(string) bool { return c.fold }})
			if err != nil {
				t.Fatal(err)
			}
			spelling := tr.expand(c.path)
			if c.proc {
				spelling = "/proc/self/root" + spelling
			}
			res, err := r.Resolve(spelling)
			if c.root == "" {
				if !errs.Is(err, errs.PathProtected) {
					t.Fatalf("Resolve(%q) = %+v, %v; want PATH_PROTECTED", spelling, res, err)
				}
				if e := errs.As(err); e.Details["field"] != "path" {
					t.Errorf("details = %v, want field=path", e.Details)
				}
				return
			}
			if err != nil || res.Root != c.root {
				t.Fatalf("Resolve(%q) = %s, %v; want %s", spelling, res.Root, err, c.root)
			}
		})
	}
}

// TestDataFolderSwappedInAfterResolve: a workspace folder resolved while it
// was real and then replaced by a link to the data folder is refused when the
// operation re-checks it, and nothing of the data folder is read or written.
func TestDataFolderSwappedInAfterResolve(t *testing.T) {
	tr := buildTree(t, t.TempDir())
	writeFile(t, tr.path("data/keys.json"), secret)
	roots := tr.roots()
	roots.Data = tr.path("data")
	r, err := pathguard.New(roots, pathguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, tr.path("p/proj/cfg/keys.json"), "ws-keys")
	res := mustResolve(t, r, "cfg/keys.json")
	replaceWithLink(t, tr.path("p/proj/cfg"), tr.path("data"))
	if f, err := r.OpenFile(res, os.O_RDONLY, 0); err == nil {
		b, _ := io.ReadAll(f)
		f.Close()
		t.Fatalf("OpenFile after the swap read %q", b)
	}
	if err := r.WriteFileAtomic(res, []byte("x"), 0o644); err == nil {
		t.Fatal("WriteFileAtomic after the swap succeeded")
	}
	if b, _ := os.ReadFile(tr.path("data/keys.json")); string(b) != secret {
		t.Fatalf("data/keys.json = %q", b)
	}
	if _, err := r.Resolve("cfg/keys.json"); !errs.Is(err, errs.PathProtected) {
		t.Fatalf("Resolve after the swap: %v, want PATH_PROTECTED", err)
	}
}

// TestProtectedIsTheWalkPredicate: walks ask Protected for each folder; it
// agrees with Resolve.
func TestProtectedIsTheWalkPredicate(t *testing.T) {
	tr := buildTree(t, t.TempDir())
	roots := tr.roots()
	roots.Data = tr.path("data")
	r, err := pathguard.New(roots, pathguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]bool{
		"data": true, "data/scratch": true, "data/scratch/other-session": true, "data/visualizations/other": true,
		"data/scratch/S": false, "data/scratch/S/deep": false, "data/visualizations/S": false,
		"p/proj": false, "outside": false, "data-twin": false,
	} {
		if got := r.Protected(tr.path(rel)); got != want {
			t.Errorf("Protected(%s) = %v, want %v", rel, got, want)
		}
	}
}
