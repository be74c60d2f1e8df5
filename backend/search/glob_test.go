package search

import (
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestGlob(t *testing.T) {
	root := fixture(t)
	cases := []struct {
		pattern string
		limit   int
		want    []string
		trunc   bool
	}{
		// hidden (.dot.go, .hidden/h.go), ignored (build/out.go), .git and the symlink are excluded
		{"**/*.go", 0, []string{"a/x.go", "a-b/x.go", "a.go", "dir/file.go", "dir/sibling.go", "sub/deep/b.go"}, false},
		{"*.go", 0, []string{"a.go"}, false},
		{"sub/**", 0, []string{"sub/deep/b.go", "sub/rooted.txt", "sub/sub.log", "sub/wanted.tmp"}, false},
		{"sub/**/*.go", 0, []string{"sub/deep/b.go"}, false},
		{"**/*.{log,tmp}", 0, []string{"keep.log", "sub/sub.log", "sub/wanted.tmp"}, false},
		{"many/*.txt", 3, []string{"many/fa0.txt", "many/fa1.txt", "many/fa2.txt"}, true},
		{"many/fa?.txt", 10, []string{"many/fa0.txt", "many/fa1.txt", "many/fa2.txt", "many/fa3.txt", "many/fa4.txt", "many/fa5.txt", "many/fa6.txt", "many/fa7.txt", "many/fa8.txt", "many/fa9.txt"}, false},
		{"we:ird name.txt", 0, []string{"we:ird name.txt"}, false},
		{".hidden/*.go", 0, nil, false},
		{"nothing/**", 0, nil, false},
	}
	for _, tc := range cases {
		r, err := Glob(t.Context(), GlobOptions{Root: root, Pattern: tc.pattern, Limit: tc.limit})
		if err != nil {
			t.Fatalf("Glob(%q): %v", tc.pattern, err)
		}
		if !slices.Equal(r.Files, tc.want) || r.Truncated != tc.trunc {
			t.Errorf("Glob(%q) = %q truncated=%v, want %q truncated=%v", tc.pattern, r.Files, r.Truncated, tc.want, tc.trunc)
		}
	}
}

func TestGlobLimits(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 1200 {
		files["d"+itoa(i/100)+"/f"+itoa(i)+".txt"] = ""
	}
	writeTree(t, root, files)
	r, err := Glob(t.Context(), GlobOptions{Root: root, Pattern: "**"})
	if err != nil || len(r.Files) != DefaultGlobLimit || !r.Truncated || r.Limit != DefaultGlobLimit {
		t.Errorf("default limit: %d files, truncated %v, err %v", len(r.Files), r.Truncated, err)
	}
	r, err = Glob(t.Context(), GlobOptions{Root: root, Pattern: "**", Limit: 5000})
	if err != nil || r.Limit != MaxGlobLimit || len(r.Files) != MaxGlobLimit || !r.Truncated {
		t.Errorf("capped limit: limit %d, truncated %v, err %v", r.Limit, r.Truncated, err)
	}
}

func TestGlobErrors(t *testing.T) {
	root := fixture(t)
	cases := []struct {
		opts  GlobOptions
		code  errs.Code
		field string
	}{
		{GlobOptions{Root: root, Pattern: "a/[z"}, errs.InvalidArgument, "pattern"},
		{GlobOptions{Root: root, Pattern: "{a,b"}, errs.InvalidArgument, "pattern"},
		{GlobOptions{Root: root, Pattern: ""}, errs.InvalidArgument, "pattern"},
		{GlobOptions{Root: root, Pattern: "/etc/*"}, errs.InvalidArgument, "pattern"},
		{GlobOptions{Root: root, Pattern: "*", Limit: -1}, errs.InvalidArgument, "limit"},
		{GlobOptions{Root: root + "/a.go", Pattern: "*"}, errs.InvalidArgument, "path"},
		{GlobOptions{Root: root + "/missing", Pattern: "*"}, errs.NotFound, "path"},
	}
	for _, tc := range cases {
		_, err := Glob(t.Context(), tc.opts)
		e := errs.As(err)
		if e == nil || e.Code != tc.code || e.Details["field"] != tc.field {
			t.Errorf("Glob(%+v) = %v, want %s on %s", tc.opts, err, tc.code, tc.field)
		}
	}
}
