package checkpoint

import (
	"maps"
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
	if err := s.apply(t.Context(), sh, files, Overwrite{}, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 1 || !res.Skipped[0].Conflict || res.Skipped[0].Skipped == "" {
		t.Fatalf("skipped = %+v, want x.txt skipped as a conflict", res.Skipped)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "x.txt")); err != nil || string(b) != "the user's\n" {
		t.Errorf("x.txt = %q, %v; want it kept", b, err)
	}
}

func TestWritesRoundTrip(t *testing.T) {
	w := map[string]string{
		"a.txt":              "100644 " + strings.Repeat("a", 40),
		"dir/with space":     "100755 " + strings.Repeat("b", 40),
		"odd\nname \"q\".go": "120000 " + strings.Repeat("c", 40),
	}
	msg := "after-bash\n\nsession s\nturn t\ncall c\n" + beforeLine + strings.Repeat("d", 40) + "\n" + formatWrites(w)
	if got := parseWrites([]byte("tree x\n\n" + msg)); !maps.Equal(got, w) {
		t.Errorf("parseWrites = %q, want %q", got, w)
	}
	if got := parseBefore([]byte(msg)); got != strings.Repeat("d", 40) {
		t.Errorf("parseBefore = %q", got)
	}
	if got := parseBefore([]byte("before-bash short\n")); got != "" {
		t.Errorf("parseBefore of a short id = %q", got)
	}
}

func TestParseStdinRaw(t *testing.T) {
	a, b := strings.Repeat("1", 40), strings.Repeat("2", 40)
	entry := ":100644 100644 " + a + " " + b + " M\x00x.txt\x00"
	out := a + " " + b + "\n" + entry + ":000000 100644 " + strings.Repeat("0", 40) + " " + b + " A\x00new\x00" +
		b + " " + a + "\n" + // a pair with no entries
		b + " " + a + "\n" + entry
	groups, err := parseStdinRaw(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 3 || len(groups[0]) != 2 || len(groups[1]) != 0 || len(groups[2]) != 1 {
		t.Fatalf("groups = %+v", groups)
	}
	if g := groups[0][1]; g.path != "new" || g.fromMode != modeNone || g.toBlob != b {
		t.Errorf("second entry = %+v", g)
	}
	for _, bad := range []string{":100644 100644 x y M\x00p\x00", a + " " + b + "\n:100644\x00", a + " " + b} {
		if _, err := parseStdinRaw(bad); err == nil {
			t.Errorf("parseStdinRaw(%q) accepted it", bad)
		}
	}
}

func FuzzParseStdinRaw(f *testing.F) {
	a := strings.Repeat("1", 40)
	f.Add(a + " " + a + "\n:100644 100644 " + a + " " + a + " M\x00x\x00")
	f.Add("")
	f.Fuzz(func(t *testing.T, out string) {
		groups, err := parseStdinRaw(out)
		if err != nil {
			return
		}
		for _, g := range groups {
			for _, d := range g {
				if d.path == "" {
					t.Fatalf("an entry with no path from %q", out)
				}
			}
		}
	})
}

// TestNotesAreKeptInCallOrder: notes are hashed after NoteWrite returns, a
// large file's for longer. What a checkpoint reads holds every note made
// before it, and of two notes of one file the later, though hashed sooner.
func TestNotesAreKeptInCallOrder(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(ws, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &Service{writes: map[writeKey]map[string]string{}}
	big := []byte(strings.Repeat("a large version\n", 4<<20)) // 64 MB: tens of ms to hash
	small := []byte("the second version\n")
	s.NoteWrite("s1", ws, filepath.Join(ws, "a.txt"), big)
	s.NoteWrite("s1", ws, filepath.Join(ws, "b.txt"), big)
	s.NoteWrite("s1", ws, filepath.Join(ws, "b.txt"), small)
	got := s.pendingWrites("s1", shadowKey(ws))
	want := map[string]string{"a.txt": modeFile + " " + blobOf(big), "b.txt": modeFile + " " + blobOf(small)}
	if !maps.Equal(got, want) {
		t.Errorf("pending writes %v, want %v", got, want)
	}
}
