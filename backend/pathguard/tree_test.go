package pathguard_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// secret is the content of every file outside the roots; a read through an
// inside classification must never return it.
const secret = "SECRET"

// tree is an attack tree in t.TempDir():
//
//	base/p/proj/                 workspace (files, links in and out)
//	base/p/proj_evil/            prefix twin of the workspace
//	base/outside/                somewhere else entirely
//	base/data/scratch/S/         scratch (with links to the project and outside)
//	base/data/visualizations/S/  visualization
//	base/alias -> p              an alias of the project's parent
type tree struct {
	base string // canonical
}

func (tr tree) path(rel string) string { return filepath.Join(tr.base, filepath.FromSlash(rel)) }

// expand replaces a leading "@" with the tree's base directory.
func (tr tree) expand(s string) string {
	if rest, ok := strings.CutPrefix(s, "@"); ok {
		return tr.base + filepath.FromSlash(rest)
	}
	return filepath.FromSlash(s)
}

func (tr tree) roots() pathguard.Roots {
	return pathguard.Roots{
		Workspace:     tr.path("p/proj"),
		Scratch:       tr.path("data/scratch/S"),
		Visualization: tr.path("data/visualizations/S"),
	}
}

func buildTree(tb testing.TB, dir string) tree {
	tb.Helper()
	base, err := filepath.EvalSymlinks(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tr := tree{base: base}
	files := map[string]string{
		"p/proj/file.txt":                   "ws-file",
		"p/proj/sub/inner.txt":              "ws-inner",
		"p/proj_evil/secret.txt":            secret,
		"outside/secret.txt":                secret,
		"outside/inner.txt":                 secret,
		"outside/file.txt":                  secret,
		"data/scratch/S/notes.md":           "scratch-notes",
		"data/visualizations/S/chart.html":  "<p>viz</p>",
		"data/visualizations/other/x.html":  secret,
		"data/scratch/other-session/new.md": secret,
	}
	for rel, content := range files {
		writeFile(tb, tr.path(rel), content)
	}
	links := map[string]string{
		"p/proj/link-out-file":    tr.path("outside/secret.txt"),
		"p/proj/link-out-dir":     "../../outside",
		"p/proj/chain1":           "chain2",
		"p/proj/chain2":           "link-out-dir",
		"p/proj/chain-in1":        "chain-in2",
		"p/proj/chain-in2":        "sub",
		"p/proj/abs-in":           tr.path("p/proj/sub"),
		"p/proj/dangling-out":     "../../outside/new.txt",
		"p/proj/dangling-out-abs": tr.path("outside/new-abs.txt"),
		"p/proj/dangling-chain":   "dangling-out",
		"p/proj/dangling-deep":    "missing/../../../outside/deep.txt",
		"p/proj/dangling-in":      "sub/created.txt",
		"p/proj/dangling-in-deep": "sub/newdir/new.txt",
		"p/proj/dangling-evil":    "../proj_evil/new.txt",
		"p/proj/to-scratch":       tr.path("data/scratch/S"),
		"p/proj/to-viz-sibling":   "../../data/visualizations/other",
		"p/proj/sub/up":           "..",
		"p/proj/sub/up2":          "../..",
		"p/proj/loop1":            "loop2",
		"p/proj/loop2":            "loop1",
		"data/scratch/S/to-proj":  tr.path("p/proj"),
		"data/scratch/S/to-else":  tr.path("outside"),
		"data/scratch/S/dl-proj":  tr.path("p/proj/from-scratch.txt"),
		"data/scratch/S/dl-else":  "../../../outside/from-scratch.txt",
		"data/scratch/S/to-other": "../other-session",
		"alias":                   "p",
	}
	for rel, target := range links {
		symlink(tb, target, tr.path(rel))
	}
	return tr
}

func writeFile(tb testing.TB, p, content string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

func symlink(tb testing.TB, target, link string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		tb.Skipf("cannot create symlinks here: %v", err)
	}
}

// replaceWithLink moves p aside and puts a symlink to target in its place,
// the attacker's move between approval and execution.
func replaceWithLink(tb testing.TB, p, target string) {
	tb.Helper()
	if err := os.Rename(p, p+".moved"); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		tb.Fatal(err)
	}
}

// snapshot records every entry under dir without following links.
func snapshot(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[p] = "link:" + target
			return err
		case d.IsDir():
			out[p] = "dir"
		default:
			b, err := os.ReadFile(p)
			out[p] = "file:" + string(b)
			return err
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// changed lists the entries that differ between two snapshots.
func changed(before, after map[string]string) []string {
	var out []string
	for p, v := range after {
		if before[p] != v {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, p)
		}
	}
	return out
}

// inside reports whether p is dir or below it, by an oracle independent of
// the package's own component comparison.
func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
