package search

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// writeBigFile writes size bytes: head, then 'x' up to size, no newline.
func writeBigFile(t testing.TB, path, head string, size int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(head); err != nil {
		t.Fatal(err)
	}
	block := []byte(strings.Repeat("x", 1<<20))
	for left := size - len(head); left > 0; left -= len(block) {
		if _, err := f.Write(block[:min(left, len(block))]); err != nil {
			t.Fatal(err)
		}
	}
}

// allocatedBy returns the heap bytes f allocated: a cumulative figure, so a
// bound on it does not depend on when the collector ran.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A file over the search limit is not searched by either engine, costs no
// memory in proportion to its size, and is named in the result with the
// limit and the next step, never a silent "No matches" (issue 13: rg
// buffered a 200 MB line and the host then dropped the file).
func TestGrepNamesFilesOverTheSizeLimit(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	writeTree(t, root, map[string]string{"a.txt": "needle a\n", "c.txt": "needle c\n", "sub/d.txt": "needle d\n"})
	writeBigFile(t, filepath.Join(root, "big.txt"), "needle onlyinbig ", 200<<20)
	writeBigFile(t, filepath.Join(root, "sub", "mid.log"), "needle ", MaxFileBytes+1)
	writeBigFile(t, filepath.Join(root, "zz-big.txt"), "needle ", MaxFileBytes+1)
	big := SkippedFile{Path: "big.txt", Size: 200 << 20}
	mid := SkippedFile{Path: "sub/mid.log", Size: MaxFileBytes + 1}
	zz := SkippedFile{Path: "zz-big.txt", Size: MaxFileBytes + 1}
	ident := func(rel string) string { return rel }

	tests := []struct {
		name    string
		opts    GrepOptions
		files   []string
		skipped []SkippedFile
		text    []string // substrings of the formatted result
	}{
		{"content", GrepOptions{Root: root, Pattern: "needle", Mode: ModeContent},
			[]string{"a.txt", "c.txt", "sub/d.txt"}, []SkippedFile{big, mid, zz},
			[]string{"[a.txt#", "Skipped 3 files larger than the 16 MiB search limit, so they were not searched: big.txt (200.0 MiB), sub/mid.log (16.0 MiB), zz-big.txt (16.0 MiB); Read them with offset/limit, or search them with Bash (rg, grep)."}},
		{"only in the big file", GrepOptions{Root: root, Pattern: "onlyinbig", Mode: ModeContent, Include: "big.txt"},
			[]string{}, []SkippedFile{big},
			[]string{"No matches for \"onlyinbig\" in . (include \"big.txt\")\n\n[Skipped big.txt (200.0 MiB): larger than the 16 MiB search limit, so it was not searched; Read it with offset/limit, or search it with Bash (rg, grep).]"}},
		{"the big file named as the root", GrepOptions{Root: filepath.Join(root, "big.txt"), Pattern: "onlyinbig", Mode: ModeContent},
			[]string{}, []SkippedFile{big},
			[]string{"No matches", "Skipped big.txt (200.0 MiB)"}},
		{"stopped by headLimit", GrepOptions{Root: root, Pattern: "needle", Mode: ModeFilesWithMatches, HeadLimit: 1},
			[]string{"a.txt"}, []SkippedFile{big}, // the walk stopped at c.txt: sub/ and zz-big.txt were not reached
			[]string{"a.txt", "Skipped big.txt (200.0 MiB)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := grepBoth(t, tt.opts)
			if got := paths(r); !reflect.DeepEqual(got, tt.files) {
				t.Errorf("files %q, want %q", got, tt.files)
			}
			if !reflect.DeepEqual(r.Skipped, tt.skipped) {
				t.Errorf("skipped %+v, want %+v", r.Skipped, tt.skipped)
			}
			text, _, _, _ := FormatGrep(r, ident)
			for _, want := range tt.text {
				if !strings.Contains(text, want) {
					t.Errorf("result lacks %q:\n%s", want, text)
				}
			}
		})
	}

	engines := map[string]string{"builtin": "-"}
	if rg, err := exec.LookPath("rg"); err == nil {
		engines["rg"] = rg
	}
	for name, rg := range engines {
		for _, root := range []string{root, filepath.Join(root, "big.txt")} {
			var err error
			alloc := allocatedBy(func() {
				_, err = Grep(t.Context(), GrepOptions{Root: root, Pattern: "needle", Mode: ModeContent, RgPath: rg, rgPlan: rgAuto})
			})
			if err != nil {
				t.Fatal(err)
			}
			if alloc > 32<<20 {
				t.Errorf("%s: Grep of %s allocated %d MB; want < 32 MB", name, root, alloc>>20)
			}
		}
	}
}

// A huge line in a file within the limit is still reported, clipped, by
// both engines; rg prints only its number (--max-columns 1), the row is
// built from the file.
func TestGrepHugeLineWithinTheLimit(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	const size = 8 << 20
	writeBigFile(t, filepath.Join(root, "min.js"), "var needle = 1; ", size)
	f, err := os.OpenFile(filepath.Join(root, "min.js"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\nshort needle\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r := grepBoth(t, GrepOptions{Root: root, Pattern: "needle", Mode: ModeContent})
	if len(r.Files) != 1 || len(r.Files[0].Lines) != 2 {
		t.Fatalf("result %s", dump(r))
	}
	l := r.Files[0].Lines
	if l[0].N != 1 || !l[0].Clipped || l[0].Omitted != size-MaxGrepLineRunes || !strings.HasPrefix(l[0].Text, "var needle = 1; xxx") {
		t.Errorf("huge line row = N %d clipped %v omitted %d", l[0].N, l[0].Clipped, l[0].Omitted)
	}
	if l[1] != (GrepLine{N: 2, Text: "short needle"}) {
		t.Errorf("second row %+v", l[1])
	}
	// The line is held as the file's bytes (the builtin engine also keeps a
	// copy out of its read buffer), not again as rg output or a string.
	engines := map[string]string{"builtin": "-"}
	if rg, err := exec.LookPath("rg"); err == nil {
		engines["rg"] = rg
	}
	for name, rg := range engines {
		alloc := allocatedBy(func() {
			_, err = Grep(t.Context(), GrepOptions{Root: root, Pattern: "needle", Mode: ModeContent, RgPath: rg, rgPlan: rgAuto})
		})
		if err != nil || alloc > 3*size+4<<20 {
			t.Errorf("%s: Grep of an %d MB line allocated %d MB (%v); want < %d MB", name, size>>20, alloc>>20, err, (3*size+4<<20)>>20)
		}
	}
	// A row copies only what it shows of the line.
	data, err := os.ReadFile(filepath.Join(root, "min.js"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []GrepLine
	if alloc := allocatedBy(func() { rows = contextLines(data, []int{1, 2}, 0, 0) }); alloc > 64<<10 || len(rows) != 2 || !rows[0].Clipped {
		t.Errorf("the rows of an %d MB line allocated %d bytes: %+v", size>>20, alloc, len(rows))
	}
}
