package search

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestFiles(t *testing.T) {
	root := fixture(t)
	cases := []struct {
		query string
		limit int
		want  []string
		trunc bool
	}{
		// base-name prefix (x.go twice, shorter first), then none of the rest
		{"x.go", 0, []string{"a/x.go", "a-b/x.go"}, false},
		// path prefix beats substring; hidden, ignored and .git files never appear
		{"sub/", 0, []string{"sub/sub.log", "sub/deep/b.go", "sub/rooted.txt", "sub/wanted.tmp"}, false},
		// base-name prefix (file.go) before path substring (dir/sibling.go)
		{"DIR/F", 0, []string{"dir/file.go"}, false},
		{"fil", 0, []string{"dir/file.go"}, false},
		// base prefix, base substring, path substring, then in-order characters
		{"sib", 0, []string{"dir/sibling.go"}, false},
		{"sdb", 0, []string{"sub/deep/b.go"}, false},
		{"weird", 0, []string{"we:ird name.txt"}, false},
		{"we:ird", 0, []string{"we:ird name.txt"}, false},
		{"secret", 0, nil, false}, // .ignore
		{"out.go", 0, nil, false}, // build/ in .gitignore
		{"h.go", 0, nil, false},   // .hidden/
		{"link", 0, nil, false},   // symlinks are never listed
		{"many/", 3, []string{"many/fa0.txt", "many/fa1.txt", "many/fa2.txt"}, true},
	}
	for _, tc := range cases {
		r, err := Files(t.Context(), FilesOptions{Root: root, Query: tc.query, Limit: tc.limit})
		if err != nil {
			t.Fatalf("Files(%q): %v", tc.query, err)
		}
		if !slices.Equal(r.Files, tc.want) || r.Truncated != tc.trunc {
			t.Errorf("Files(%q) = %q truncated=%v, want %q truncated=%v", tc.query, r.Files, r.Truncated, tc.want, tc.trunc)
		}
	}
}

func TestFilesRanksShallowFirstForAnEmptyQuery(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"z.txt": "", "deep/er/a.txt": "", "b/c.txt": ""})
	r, err := Files(t.Context(), FilesOptions{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"z.txt", "b/c.txt", "deep/er/a.txt"}; !slices.Equal(r.Files, want) || r.Truncated {
		t.Errorf("Files = %q truncated=%v, want %q", r.Files, r.Truncated, want)
	}
}

func TestFilesLimits(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 300 {
		files["d/f"+itoa(i)+".txt"] = ""
	}
	writeTree(t, root, files)
	r, err := Files(t.Context(), FilesOptions{Root: root, Query: "f"})
	if err != nil || len(r.Files) != DefaultFilesLimit || !r.Truncated {
		t.Errorf("default limit: %d files, truncated %v, err %v", len(r.Files), r.Truncated, err)
	}
	r, err = Files(t.Context(), FilesOptions{Root: root, Query: "f", Limit: 5000})
	if err != nil || len(r.Files) != MaxFilesLimit || !r.Truncated {
		t.Errorf("capped limit: %d files, truncated %v, err %v", len(r.Files), r.Truncated, err)
	}
	// The walk itself is bounded: a match past the scan bound is not found.
	r, err = Files(t.Context(), FilesOptions{Root: root, Query: "f99.txt", Scan: 10})
	if err != nil || len(r.Files) != 0 || !r.Truncated {
		t.Errorf("scan bound: %q, truncated %v, err %v", r.Files, r.Truncated, err)
	}
	r, err = Files(t.Context(), FilesOptions{Root: root, Query: "f99.txt"})
	if err != nil || len(r.Files) == 0 || r.Files[0] != "d/f99.txt" || r.Truncated {
		t.Errorf("full scan: %q, truncated %v, err %v", r.Files, r.Truncated, err)
	}
}

func TestFilesErrors(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "f.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		opts FilesOptions
		code errs.Code
	}{
		{FilesOptions{Root: "rel"}, errs.InvalidArgument},
		{FilesOptions{Root: filepath.Join(root, "missing")}, errs.NotFound},
		{FilesOptions{Root: file}, errs.InvalidArgument},
		{FilesOptions{Root: root, Limit: -1}, errs.InvalidArgument},
	}
	for _, tc := range cases {
		if _, err := Files(t.Context(), tc.opts); errs.CodeOf(err) != tc.code {
			t.Errorf("Files(%+v) = %v, want %s", tc.opts, err, tc.code)
		}
	}
}

func TestFilesNeverLeavesTheRoot(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	twin := filepath.Join(base, "proj_evil")
	writeTree(t, root, map[string]string{"in.txt": ""})
	writeTree(t, twin, map[string]string{"secret.txt": ""})
	if err := os.Symlink(twin, filepath.Join(root, "evil")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	if err := os.Symlink(filepath.Join(twin, "secret.txt"), filepath.Join(root, "secret.txt")); err != nil {
		t.Fatal(err)
	}
	r, err := Files(t.Context(), FilesOptions{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Files, []string{"in.txt"}) {
		t.Errorf("Files = %q; want only in.txt", r.Files)
	}
}
