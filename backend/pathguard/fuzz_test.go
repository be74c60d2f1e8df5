package pathguard_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// FuzzResolve resolves fuzzed spellings against the attack tree. A leading
// "@" stands for the tree's base folder, so the corpus can spell absolute
// paths into it; anything else is used as given (relative to the workspace,
// or absolute anywhere on the machine). Resolve only reads the disk.
//
// Invariants:
//   - a workspace/scratch/visualization result is inside that root after
//     full canonicalisation of Abs (EvalSymlinks of its existing prefix,
//     which must give Abs back), and RootDir joined with Rel is Abs;
//   - an External result is inside none of the roots;
//   - a relative spelling is lexically Workspace or External;
//   - the only errors are INVALID_ARGUMENT for the path.
func FuzzResolve(f *testing.F) {
	for _, a := range attacks() {
		if !a.proc && a.roots == nil && a.setup == nil && a.after == nil {
			f.Add(a.path)
		}
	}
	tr := buildTree(f, f.TempDir())
	roots := tr.roots()
	r, err := pathguard.New(roots, caseSensitive)
	if err != nil {
		f.Fatal(err)
	}
	// The same tree as if it sat on a case-insensitive volume: the disk
	// still is case-sensitive, which is the harder case for folding.
	folding, err := pathguard.New(roots, pathguard.Options{CaseInsensitive: func(string) bool { return true }})
	if err != nil {
		f.Fatal(err)
	}
	// As the host builds it: through a RootCache, so paths inside a root
	// are walked from the root down.
	cached, err := pathguard.New(roots, pathguard.Options{CaseInsensitive: caseSensitive.CaseInsensitive, Roots: &pathguard.RootCache{}})
	if err != nil {
		f.Fatal(err)
	}
	rootDirs := map[pathguard.Root]string{}
	for k, dir := range map[pathguard.Root]string{ws: roots.Workspace, scr: roots.Scratch, viz: roots.Visualization} {
		c, err := filepath.EvalSymlinks(dir)
		if err != nil {
			f.Fatal(err)
		}
		rootDirs[k] = c
	}
	f.Fuzz(func(t *testing.T, spelling string) {
		p := tr.expand(spelling)
		if !strings.HasPrefix(spelling, "@") {
			p = spelling
		}
		checkFuzzed(t, r, p, rootDirs)
		checkFuzzed(t, folding, p, rootDirs)
		checkFuzzed(t, cached, p, rootDirs)
	})
}

// checkFuzzed resolves p and checks the invariants of FuzzResolve.
func checkFuzzed(t *testing.T, r *pathguard.Resolver, p string, rootDirs map[pathguard.Root]string) {
	t.Helper()
	res, err := r.Resolve(p)
	if err != nil {
		if e := errs.As(err); e == nil || e.Code != errs.InvalidArgument || e.Details["field"] != "path" {
			t.Fatalf("Resolve(%q): unexpected error %v", p, err)
		}
		return
	}
	if !filepath.IsAbs(p) && res.Lexical != ws && res.Lexical != ext {
		t.Errorf("Resolve(%q): relative spelling is lexically %s", p, res.Lexical)
	}
	full := fullyCanonical(res.Abs)
	if res.Root == ext {
		for k, dir := range rootDirs {
			if inside(dir, full) {
				t.Fatalf("Resolve(%q) = External %s, but it is inside the %s root %s", p, res.Abs, k, dir)
			}
		}
		return
	}
	if res.RootDir != rootDirs[res.Root] {
		t.Fatalf("Resolve(%q): RootDir %s, want %s", p, res.RootDir, rootDirs[res.Root])
	}
	if full != res.Abs {
		t.Fatalf("Resolve(%q): Abs %s is not canonical (%s)", p, res.Abs, full)
	}
	if !inside(res.RootDir, full) {
		t.Fatalf("Resolve(%q) = %s %s, outside its root %s", p, res.Root, full, res.RootDir)
	}
	if got := filepath.Join(res.RootDir, filepath.FromSlash(res.Rel)); got != res.Abs {
		t.Fatalf("Resolve(%q): RootDir+Rel %s != Abs %s", p, got, res.Abs)
	}
}

// fullyCanonical resolves the longest prefix of p that EvalSymlinks accepts
// and re-attaches the rest: the oracle the resolver's Abs must agree with.
func fullyCanonical(p string) string {
	for q := p; ; q = filepath.Dir(q) {
		if c, err := filepath.EvalSymlinks(q); err == nil {
			rest, err := filepath.Rel(q, p)
			if err != nil {
				return p
			}
			return filepath.Join(c, rest)
		}
		if filepath.Dir(q) == q {
			return p
		}
	}
}
