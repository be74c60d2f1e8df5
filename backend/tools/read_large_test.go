package tools_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// writeBig writes a file of size bytes: head, then 'x' up to size, and no
// newline, in 1 MiB blocks.
func writeBig(t testing.TB, path, head string, size int) {
	t.Helper()
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

// allocated runs f and returns the bytes it allocated on the heap: a
// deterministic figure, unlike a peak, so a bound on it is robust.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Read of a 200 MB file with no newline streams the line: it shows the
// first 2,000 characters as a clipped row, counts the rest, and allocates
// far less than the file (issue 13: 400 MB before).
func TestReadHugeSingleLineIsBounded(t *testing.T) {
	const size = 200 << 20
	w := newWS(t, nil)
	writeBig(t, filepath.Join(w.dir, "big.txt"), "needle é ", size)
	for _, tt := range []struct {
		name string
		args map[string]any
	}{
		{"limit 1", map[string]any{"path": "big.txt", "limit": 1}},
		{"default window", map[string]any{"path": "big.txt"}},
		{"wide", map[string]any{"path": "big.txt", "limit": 1, "wide": true}},
	} {
		args := tt.args
		t.Run(tt.name, func(t *testing.T) {
			var res = w.run("Read", args)
			alloc := allocated(func() { res = w.run("Read", args) })
			if !res.OK {
				t.Fatalf("Read = %+v", res)
			}
			if alloc > 16<<20 {
				t.Errorf("Read of a %d MB line allocated %d MB; want < 16 MB", size>>20, alloc>>20)
			}
			lineCap := 2000
			if args["wide"] == true {
				lineCap = 16384
			}
			// "needle é " is 9 characters (10 bytes): the rest is size-10 x's.
			wantRow := "1~:needle é " + strings.Repeat("x", lineCap-9) + " …[+" + strconv.Itoa(size-10-(lineCap-9)) + " chars]"
			if !strings.HasPrefix(res.Content, "[big.txt]\n") || !strings.Contains(res.Content, wantRow+"\n") {
				t.Errorf("content does not hold the clipped row %.40q…%q: %.80q…", wantRow, wantRow[len(wantRow)-24:], res.Content)
			}
			if res.Fields["totalLines"] != 1 || res.Fields["clipped"] != 1 || res.Fields["tag"] != "" {
				t.Errorf("fields = %v", res.Fields)
			}
			if !strings.Contains(res.Notice, "larger than 16 MiB") {
				t.Errorf("notice = %q", res.Notice)
			}
		})
	}
}
