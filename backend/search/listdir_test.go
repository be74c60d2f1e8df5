package search_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/search"
)

func names(l search.DirListing) []string {
	out := []string{}
	for _, e := range l.Entries {
		n := e.Name
		if e.Dir {
			n += "/"
		}
		out = append(out, n)
	}
	return out
}

func TestListDirFollowsGlobVisibility(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	for p, body := range map[string]string{
		".gitignore":        "build/\n*.log\n",
		"README.md":         "x",
		"b.go":              "x",
		"debug.log":         "x",
		".env":              "x",
		"build/out.bin":     "x",
		"src/main.go":       "x",
		"src/.gitignore":    "gen.go\n",
		"src/gen.go":        "x",
		"src/pkg/a.go":      "x",
		"src/pkg/hidden.go": "x",
		"src/rules.txt":     "hidden.go\n",
		".git/config":       "x",
		"data/pi.sqlite":    "x",
		"zz/.hidden/secret": "x",
	} {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	// An ignore file that is a link out of its folder, into the tree: it
	// applies, as rg and the walk follow it.
	for link, target := range map[string]string{"out": outside, "sec.txt": filepath.Join(outside, "secret.txt"), "src/pkg/.gitignore": "../rules.txt"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	dataDir := filepath.Join(root, "data")
	skip := search.Within{Skip: func(abs string) bool { return abs == dataDir }}

	cases := []struct {
		name string
		dir  string
		want []string
		code errs.Code
	}{
		{name: "root: folders first, no hidden, ignored, linked or skipped entries", dir: "", want: []string{"src/", "zz/", "README.md", "b.go"}},
		{name: "a folder's own ignore file applies", dir: "src", want: []string{"pkg/", "main.go", "rules.txt"}},
		{name: "nested, its ignore file a link", dir: "src/pkg", want: []string{"a.go"}},
		{name: "hidden folder", dir: "zz/.hidden", code: errs.NotFound},
		{name: "ignored folder", dir: "build", code: errs.NotFound},
		{name: "git folder", dir: ".git", code: errs.NotFound},
		{name: "link out", dir: "out", code: errs.NotFound},
		{name: "data folder", dir: "data", code: errs.NotFound},
		{name: "dot dot", dir: "src/../..", code: errs.InvalidArgument},
		{name: "a file", dir: "b.go", code: errs.NotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := search.ListDir(t.Context(), search.ListDirOptions{Root: root, Within: skip, Dir: c.dir})
			if c.code != "" {
				if !errs.Is(err, c.code) {
					t.Fatalf("ListDir(%q) = %v, %v; want %s", c.dir, names(got), err, c.code)
				}
				return
			}
			if err != nil || !slices.Equal(names(got), c.want) || got.Truncated {
				t.Fatalf("ListDir(%q) = %v (truncated %v), %v; want %v", c.dir, names(got), got.Truncated, err, c.want)
			}
		})
	}
	// zz holds only a hidden folder: listed, but empty.
	got, err := search.ListDir(t.Context(), search.ListDirOptions{Root: root, Within: skip, Dir: "zz"})
	if err != nil || len(got.Entries) != 0 {
		t.Fatalf("ListDir(zz) = %v, %v; want no entries", names(got), err)
	}
}

func TestFilesSkipsWhatWithinSkips(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"keep/a.txt", "data/a.txt"} {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dataDir := filepath.Join(root, "data")
	res, err := search.Files(t.Context(), search.FilesOptions{Root: root, Query: "a.txt", Within: search.Within{Skip: func(abs string) bool { return abs == dataDir }}})
	if err != nil || !slices.Equal(res.Files, []string{"keep/a.txt"}) {
		t.Fatalf("Files = %v, %v; want only keep/a.txt", res.Files, err)
	}
}
