package checkpoint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestChunks(t *testing.T) {
	for _, tc := range []struct {
		list string
		n    int
		want []string
	}{
		{"", 2, nil},
		{"a\x00", 2, []string{"a\x00"}},
		{"a\x00b\x00c\x00", 2, []string{"a\x00b\x00", "c\x00"}},
		{"a\x00b\x00c\x00d\x00", 2, []string{"a\x00b\x00", "c\x00d\x00"}},
	} {
		var got []string
		for c := range chunks([]byte(tc.list), tc.n) {
			got = append(got, string(c))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("chunks(%q, %d) = %q, want %q", tc.list, tc.n, got, tc.want)
		}
	}
}

func TestParseRaw(t *testing.T) {
	out := ":100644 100755 " + strings.Repeat("a", 40) + " " + strings.Repeat("b", 40) + " M\x00dir/x y\x00" +
		":000000 120000 " + strings.Repeat("0", 40) + " " + strings.Repeat("c", 40) + " A\x00link\x00"
	got, err := parseRaw(out)
	if err != nil || len(got) != 2 || got[0].path != "dir/x y" || got[0].toMode != modeExec || got[1].fromMode != modeNone || got[1].toMode != modeLink {
		t.Errorf("parseRaw = %+v, %v", got, err)
	}
	if _, err := parseRaw(":100644 bad\x00p\x00"); err == nil {
		t.Error("a malformed line was accepted")
	}
}

func TestParseBatch(t *testing.T) {
	blobs := map[string][]byte{}
	raw := "aaa blob 3\nabc\nbbb blob 0\n\n"
	if err := parseBatch([]byte(raw), blobs); err != nil || string(blobs["aaa"]) != "abc" || len(blobs["bbb"]) != 0 {
		t.Errorf("parseBatch = %q, %v", blobs, err)
	}
	if err := parseBatch([]byte("aaa blob 10\nabc\n"), map[string][]byte{}); err == nil {
		t.Error("a truncated body was accepted")
	}
}

func TestInsideExclude(t *testing.T) {
	for _, tc := range []struct{ ws, dir, want string }{
		{"/w", "/w/.pi-data", "/.pi-data/"},
		{"/w", "/w/a/b", "/a/b/"},
		{"/w", "/w", ""},
		{"/w", "/data", ""},
		{"/w", "/w2/x", ""},
		{"/w", "", ""},
	} {
		if got := insideExclude(tc.ws, tc.dir); got != tc.want {
			t.Errorf("insideExclude(%q, %q) = %q, want %q", tc.ws, tc.dir, got, tc.want)
		}
	}
}

// A file that changed between the plan and its write is reported as a
// conflict in the result, not only skipped (applyOne once set the flag on
// a copy).
func TestChangeDuringRestoreIsReportedAsConflict(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "x.txt"), []byte("the user's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	planned := "0123456789012345678901234567890123456789" // not what is there now
	s := &Service{opts: Options{MaxFileSize: DefaultMaxFileSize}}
	sh := &shadow{workspace: ws}
	files := []FileChange{{Path: "x.txt", Action: ActionDelete, ModeNow: modeFile, nowBlob: planned}}
	var res Result
	if err := s.apply(t.Context(), sh, files, false, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 1 || !res.Skipped[0].Conflict || res.Skipped[0].Skipped == "" {
		t.Fatalf("skipped = %+v, want x.txt skipped as a conflict", res.Skipped)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "x.txt")); err != nil || string(b) != "the user's\n" {
		t.Errorf("x.txt = %q, %v; want it kept", b, err)
	}
}
