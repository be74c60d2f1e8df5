package pathguard_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

const (
	ws  = pathguard.Workspace
	scr = pathguard.Scratch
	viz = pathguard.Visualization
	ext = pathguard.External
)

// attack is one spelling resolved against a fresh tree. Paths starting with
// "@" are under the tree's base; others are relative to the workspace.
type attack struct {
	name    string
	path    string
	proc    bool                                       // prefix the expanded path with /proc/self/root (Linux only)
	roots   func(tree) pathguard.Roots                 // nil: tree.roots()
	setup   func(testing.TB, tree)                     // before New
	after   func(testing.TB, tree)                     // after New, before Resolve
	fold    bool                                       // inject a case-insensitive volume
	root    pathguard.Root                             // want Root
	lexical pathguard.Root                             // want Lexical
	abs     string                                     // want Abs ("@" template); "" = not checked
	rel     string                                     // want Rel for contained roots; "" = not checked
	noWrite bool                                       // the target is a folder: skip the file operations
	wantErr errs.Code                                  // Resolve fails with this code
	check   func(*testing.T, tree, pathguard.Resolved) // extra assertions
}

func attacks() []attack {
	nested := func(tr tree) pathguard.Roots {
		return pathguard.Roots{
			Workspace:     tr.path("p/proj"),
			Scratch:       tr.path("p/proj/.pi/scratch/S"),
			Visualization: tr.path("p/proj/.pi/visualizations/S"),
		}
	}
	mkdirs := func(rels ...string) func(testing.TB, tree) {
		return func(tb testing.TB, tr tree) {
			for _, rel := range rels {
				if err := os.MkdirAll(tr.path(rel), 0o755); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
	withViz := func(rel string) func(tree) pathguard.Roots {
		return func(tr tree) pathguard.Roots {
			r := tr.roots()
			r.Visualization = ""
			if rel != "" {
				r.Visualization = tr.path(rel)
			}
			return r
		}
	}
	return []attack{
		// Plain spellings.
		{name: "relative file", path: "file.txt", root: ws, lexical: ws, abs: "@/p/proj/file.txt", rel: "file.txt"},
		{name: "workspace root", path: ".", root: ws, lexical: ws, abs: "@/p/proj", rel: ".", noWrite: true},
		{name: "missing folders stay inside", path: "new/deeper/f.txt", root: ws, lexical: ws, abs: "@/p/proj/new/deeper/f.txt", rel: "new/deeper/f.txt"},
		{name: "absolute inside", path: "@/p/proj/sub/inner.txt", root: ws, lexical: ws, rel: "sub/inner.txt"},
		{name: "absolute outside", path: "@/outside/secret.txt", root: ext, lexical: ext, abs: "@/outside/secret.txt"},

		// Lexical escapes.
		{name: "dotdot escape", path: "../../outside/secret.txt", root: ext, lexical: ext, abs: "@/outside/secret.txt"},
		{name: "dotdot behind missing folders", path: "sub/missing/more/../../../../../outside/secret.txt", root: ext, lexical: ext, abs: "@/outside/secret.txt"},
		{name: "dotdot that comes back", path: "sub/../../proj/file.txt", root: ws, lexical: ws, rel: "file.txt"},
		{name: "absolute dotdot escape", path: "@/p/proj/sub/../../outside/secret.txt", root: ext, lexical: ext, abs: "@/p/outside/secret.txt"},

		// Prefix twins.
		{name: "prefix twin absolute", path: "@/p/proj_evil/secret.txt", root: ext, lexical: ext},
		{name: "prefix twin relative", path: "../proj_evil/secret.txt", root: ext, lexical: ext, abs: "@/p/proj_evil/secret.txt"},

		// Links inside the workspace.
		{name: "link to outside file", path: "link-out-file", root: ext, lexical: ws, abs: "@/outside/secret.txt"},
		{name: "link to outside folder", path: "link-out-dir/secret.txt", root: ext, lexical: ws, abs: "@/outside/secret.txt"},
		{name: "new file under outside folder link", path: "link-out-dir/new.txt", root: ext, lexical: ws, abs: "@/outside/new.txt"},
		{name: "chain out", path: "chain1/inner.txt", root: ext, lexical: ws, abs: "@/outside/inner.txt"},
		{name: "chain in", path: "chain-in1/inner.txt", root: ws, lexical: ws, rel: "sub/inner.txt"},
		{name: "absolute link inside", path: "abs-in/inner.txt", root: ws, lexical: ws, rel: "sub/inner.txt"},
		{name: "parent link inside", path: "sub/up/file.txt", root: ws, lexical: ws, rel: "file.txt"},
		{name: "parent link escapes", path: "sub/up2/proj_evil/secret.txt", root: ext, lexical: ws, abs: "@/p/proj_evil/secret.txt"},
		{name: "workspace link into scratch", path: "to-scratch/notes.md", root: scr, lexical: ws, rel: "notes.md"},
		{name: "workspace link to another visualization session", path: "to-viz-sibling/x.html", root: ext, lexical: ws, abs: "@/data/visualizations/other/x.html"},
		{name: "link loop", path: "loop1", wantErr: errs.InvalidArgument},

		// Dangling links: classified by where a create would land.
		{name: "dangling out", path: "dangling-out", root: ext, lexical: ws, abs: "@/outside/new.txt"},
		{name: "dangling out absolute", path: "dangling-out-abs", root: ext, lexical: ws, abs: "@/outside/new-abs.txt"},
		{name: "dangling chain", path: "dangling-chain", root: ext, lexical: ws, abs: "@/outside/new.txt"},
		{name: "dangling through missing folder", path: "dangling-deep", root: ext, lexical: ws, abs: "@/outside/deep.txt"},
		{name: "dangling into prefix twin", path: "dangling-evil", root: ext, lexical: ws, abs: "@/p/proj_evil/new.txt"},
		{name: "dangling in", path: "dangling-in", root: ws, lexical: ws, rel: "sub/created.txt"},
		{name: "dangling in missing folder", path: "dangling-in-deep", root: ws, lexical: ws, rel: "sub/newdir/new.txt"},

		// Scratch.
		{name: "scratch file", path: "@/data/scratch/S/notes.md", root: scr, lexical: scr, rel: "notes.md"},
		{name: "scratch link into project", path: "@/data/scratch/S/to-proj/file.txt", root: ws, lexical: scr, abs: "@/p/proj/file.txt", rel: "file.txt"},
		{name: "scratch link elsewhere", path: "@/data/scratch/S/to-else/secret.txt", root: ext, lexical: scr, abs: "@/outside/secret.txt"},
		{name: "scratch dangling into project", path: "@/data/scratch/S/dl-proj", root: ws, lexical: scr, rel: "from-scratch.txt"},
		{name: "scratch dangling elsewhere", path: "@/data/scratch/S/dl-else", root: ext, lexical: scr, abs: "@/outside/from-scratch.txt"},
		{name: "scratch link to another session", path: "@/data/scratch/S/to-other/new.md", root: ext, lexical: scr, abs: "@/data/scratch/other-session/new.md"},
		{name: "scratch dotdot to another session", path: "@/data/scratch/S/../other-session/new.md", root: ext, lexical: ext},
		{name: "relative spelling into scratch", path: "../../data/scratch/S/notes.md", root: scr, lexical: ext, rel: "notes.md"},
		{name: "scratch not created yet", path: "@/data/scratch/S/n.md", setup: func(tb testing.TB, tr tree) {
			if err := os.RemoveAll(tr.path("data/scratch/S")); err != nil {
				tb.Fatal(err)
			}
		}, root: scr, lexical: scr, rel: "n.md"},
		{name: "scratch folder is a link to the project", path: "@/data/scratch/S/file.txt", setup: func(tb testing.TB, tr tree) {
			replaceWithLink(tb, tr.path("data/scratch/S"), tr.path("p/proj"))
		}, root: ws, lexical: ext, rel: "file.txt"},
		{name: "temporary session: scratch is the workspace", path: "notes.md", roots: func(tr tree) pathguard.Roots {
			return pathguard.Roots{Workspace: tr.path("data/scratch/S"), Scratch: tr.path("data/scratch/S")}
		}, root: scr, lexical: ws, rel: "notes.md"},

		// Visualization.
		{name: "visualization file", path: "@/data/visualizations/S/chart.html", root: viz, lexical: viz, rel: "chart.html"},
		{name: "visualization new file", path: "@/data/visualizations/S/new.html", root: viz, lexical: viz, rel: "new.html"},
		{name: "visualization dotdot to sibling", path: "@/data/visualizations/S/../other/x.html", root: ext, lexical: ext},
		{name: "relative spelling into visualization", path: "../../data/visualizations/S/chart.html", root: viz, lexical: ext},
		{name: "visualization off", path: "@/data/visualizations/S/chart.html", roots: withViz(""), root: ext, lexical: ext},
		{name: "visualization base is a link", path: "@/data2/visualizations/S/c.html", setup: func(tb testing.TB, tr tree) {
			mkdirs("data2/real/S")(tb, tr)
			symlink(tb, "real", tr.path("data2/visualizations"))
		}, roots: withViz("data2/visualizations/S"), root: ext, lexical: ext, abs: "@/data2/real/S/c.html"},
		{name: "visualization session folder is a link to the project", path: "@/data3/visualizations/S/file.txt", setup: func(tb testing.TB, tr tree) {
			mkdirs("data3/visualizations")(tb, tr)
			symlink(tb, tr.path("p/proj"), tr.path("data3/visualizations/S"))
		}, roots: withViz("data3/visualizations/S"), root: ws, lexical: ext, rel: "file.txt"},
		{name: "visualization base replaced by a link after New", path: "@/data/visualizations/S/chart.html", after: func(tb testing.TB, tr tree) {
			replaceWithLink(tb, tr.path("data/visualizations"), "visualizations.moved")
		}, root: ext, lexical: viz, abs: "@/data/visualizations.moved/S/chart.html"},

		// Data folder nested in the workspace: scratch and visualization win.
		{name: "nested scratch absolute", path: "@/p/proj/.pi/scratch/S/x.md", roots: nested, setup: mkdirs("p/proj/.pi/scratch/S", "p/proj/.pi/visualizations/S"), root: scr, lexical: scr, rel: "x.md"},
		{name: "nested scratch relative", path: ".pi/scratch/S/x.md", roots: nested, setup: mkdirs("p/proj/.pi/scratch/S", "p/proj/.pi/visualizations/S"), root: scr, lexical: ws, rel: "x.md"},
		{name: "nested visualization", path: "@/p/proj/.pi/visualizations/S/c.html", roots: nested, setup: mkdirs("p/proj/.pi/scratch/S", "p/proj/.pi/visualizations/S"), root: viz, lexical: viz, rel: "c.html"},
		{name: "nested data folder's other session", path: ".pi/scratch/T/x.md", roots: nested, setup: mkdirs("p/proj/.pi/scratch/S"), root: ws, lexical: ws, rel: ".pi/scratch/T/x.md"},

		// Aliases.
		{name: "alias spelling of the workspace", path: "@/alias/proj/file.txt", root: ws, lexical: ext, rel: "file.txt"},
		{name: "workspace given through an alias", path: "@/alias/proj/file.txt", roots: func(tr tree) pathguard.Roots {
			r := tr.roots()
			r.Workspace = tr.path("alias/proj")
			return r
		}, root: ws, lexical: ws, abs: "@/p/proj/file.txt", rel: "file.txt"},
		{name: "proc root alias into workspace", proc: true, path: "@/p/proj/file.txt", root: ws, lexical: ext, abs: "@/p/proj/file.txt"},
		{name: "proc root alias into scratch", proc: true, path: "@/data/scratch/S/new.md", root: scr, lexical: ext, rel: "new.md"},
		{name: "proc root alias outside", proc: true, path: "@/outside/secret.txt", root: ext, lexical: ext, abs: "@/outside/secret.txt"},

		// Case-insensitive volumes (injected; the disk here is case-sensitive).
		{name: "case variant folded", fold: true, path: "@/p/PROJ/file.txt", root: ws, lexical: ws, abs: "@/p/proj/file.txt", rel: "file.txt"},
		{name: "case variant not folded", path: "@/p/PROJ/file.txt", root: ext, lexical: ext, abs: "@/p/PROJ/file.txt"},
		{name: "case variant through a link out", fold: true, path: "@/p/PROJ/link-out-dir/secret.txt", root: ext, lexical: ws, abs: "@/outside/secret.txt"},
		{name: "case variant through a dangling link in", fold: true, path: "@/p/Proj/dangling-in", root: ws, lexical: ws, rel: "sub/created.txt"},
		{name: "case variant of the twin", fold: true, path: "@/p/PROJ_EVIL/secret.txt", root: ext, lexical: ext},
		{name: "case variant of scratch", fold: true, path: "@/data/SCRATCH/s/notes.md", root: scr, lexical: scr, abs: "@/data/scratch/S/notes.md"},
		{name: "case variant that is another folder", fold: true, path: "@/p/PROJ/secret.txt", setup: func(tb testing.TB, tr tree) {
			writeFile(tb, tr.path("p/PROJ/secret.txt"), secret)
		}, root: ext, lexical: ws, abs: "@/p/PROJ/secret.txt"},

		// Malformed.
		{name: "empty", path: "", wantErr: errs.InvalidArgument},
		{name: "NUL byte", path: "a\x00b", wantErr: errs.InvalidArgument},
	}
}

// TestAttacks runs every attack against a Resolver built afresh and
// against one built through a RootCache, as the host builds them (paths
// inside a root are then walked from the root down).
func TestAttacks(t *testing.T) {
	for _, cached := range []bool{false, true} {
		for _, a := range attacks() {
			t.Run(fmt.Sprintf("%s/cached=%v", a.name, cached), func(t *testing.T) {
				testAttack(t, a, cached)
			})
		}
	}
}

func testAttack(t *testing.T, a attack, cached bool) {
	if a.proc && runtime.GOOS != "linux" {
		t.Skip("/proc/self/root exists only on Linux")
	}
	tr := buildTree(t, t.TempDir())
	if a.setup != nil {
		a.setup(t, tr)
	}
	roots := tr.roots()
	if a.roots != nil {
		roots = a.roots(tr)
	}
	var opts pathguard.Options
	if cached {
		opts.Roots = &pathguard.RootCache{}
	}
	if a.fold {
		opts.CaseInsensitive = func(string) bool { return true }
	} else {
		opts.CaseInsensitive = func(string) bool { return false }
	}
	r, err := pathguard.New(roots, opts)
	if err != nil {
		t.Fatal(err)
	}
	if a.after != nil {
		a.after(t, tr)
	}
	spelling := tr.expand(a.path)
	if a.proc {
		spelling = "/proc/self/root" + spelling
	}
	res, err := r.Resolve(spelling)
	if a.wantErr != "" {
		if !errs.Is(err, a.wantErr) {
			t.Fatalf("Resolve(%q) error = %v, want %s", spelling, err, a.wantErr)
		}
		if e := errs.As(err); e.Details["field"] != "path" {
			t.Errorf("details = %v, want field=path", e.Details)
		}
		return
	}
	if err != nil {
		t.Fatalf("Resolve(%q): %v", spelling, err)
	}
	checkResolved(t, tr, a, res)
	if !a.noWrite {
		checkFileOps(t, r, tr, a, res)
	}
}

func checkResolved(t *testing.T, tr tree, a attack, res pathguard.Resolved) {
	t.Helper()
	if res.Root != a.root || res.Lexical != a.lexical {
		t.Errorf("Root, Lexical = %s, %s; want %s, %s (Abs %s)", res.Root, res.Lexical, a.root, a.lexical, res.Abs)
	}
	if a.abs != "" && res.Abs != tr.expand(a.abs) {
		t.Errorf("Abs = %s, want %s", res.Abs, tr.expand(a.abs))
	}
	if res.Root == ext {
		if res.RootDir != "" || res.Rel != filepath.ToSlash(res.Abs) {
			t.Errorf("External RootDir, Rel = %q, %q", res.RootDir, res.Rel)
		}
		return
	}
	if a.rel != "" && res.Rel != a.rel {
		t.Errorf("Rel = %q, want %q", res.Rel, a.rel)
	}
	if got := filepath.Join(res.RootDir, filepath.FromSlash(res.Rel)); got != res.Abs {
		t.Errorf("RootDir+Rel = %s, Abs = %s", got, res.Abs)
	}
	if !inside(res.RootDir, res.Abs) {
		t.Errorf("Abs %s is not inside RootDir %s", res.Abs, res.RootDir)
	}
}

// checkFileOps reads and writes through res and asserts that nothing
// outside res's root was read or written (for External: nothing but Abs
// and the folders created for it).
func checkFileOps(t *testing.T, r *pathguard.Resolver, tr tree, a attack, res pathguard.Resolved) {
	t.Helper()
	if fi, err := os.Stat(res.Abs); err == nil && fi.Mode().IsRegular() {
		f, err := r.OpenFile(res, os.O_RDONLY, 0)
		if err != nil {
			t.Fatalf("OpenFile: %v", err)
		}
		b, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.Root != ext && string(b) == secret {
			t.Errorf("read %q through a %s classification", b, res.Root)
		}
	}
	before := snapshot(t, tr.base)
	data := "written:" + a.name
	if err := r.WriteFileAtomic(res, []byte(data), 0o644); err != nil {
		t.Fatalf("WriteFileAtomic: %v", err)
	}
	after := snapshot(t, tr.base)
	if got, err := os.ReadFile(res.Abs); err != nil || string(got) != data {
		t.Errorf("file at Abs = %q, %v; want %q", got, err, data)
	}
	allowed := []string{res.Abs}
	for d := filepath.Dir(res.Abs); d != filepath.Dir(d); d = filepath.Dir(d) {
		allowed = append(allowed, d) // folders MkdirAll created
	}
	for _, p := range changed(before, after) {
		if !slices.Contains(allowed, p) {
			t.Errorf("write changed %s, want only %s", p, res.Abs)
		}
		if res.Root != ext && !inside(res.RootDir, p) {
			t.Errorf("write through %s changed %s outside %s", res.Root, p, res.RootDir)
		}
	}
	fi, err := r.Stat(res)
	if err != nil || fi.Size() != int64(len(data)) {
		t.Errorf("Stat = %v, %v; want size %d", fi, err, len(data))
	}
}
