package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadSized(t *testing.T) {
	for _, tc := range []struct {
		name  string
		size  int
		limit int64
		want  int // bytes returned: the file, or limit+1 when it is over
	}{
		{"empty", 0, 16, 0},
		{"small", 5, 16, 5},
		{"at the limit", 16, 16, 16},
		{"over the limit", 40, 16, 17},
		{"large", 3 << 20, 4 << 20, 3 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f")
			data := []byte(strings.Repeat("abcdefghij", tc.size/10+1)[:tc.size])
			if err := os.WriteFile(p, data, 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := readSized(f, tc.limit)
			if err != nil || len(got) != tc.want || string(got) != string(data[:tc.want]) {
				t.Fatalf("readSized = %d bytes, %v; want %d", len(got), err, tc.want)
			}
		})
	}
}

// A file that grows after Stat is still read to the bound.
func TestReadSizedGrownAfterStat(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("abc"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Stat(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := readSized(f, 100)
	if err != nil || len(got) != 101 {
		t.Fatalf("readSized = %d bytes, %v; want 101", len(got), err)
	}
}

func TestSameContent(t *testing.T) {
	big := strings.Repeat("0123456789", 60_000) // spans several chunks
	for _, tc := range []struct {
		name, file, want string
		same             bool
	}{
		{"both empty", "", "", true},
		{"equal", "abc\n", "abc\n", true},
		{"file longer", "abc\nd", "abc\n", false},
		{"file shorter", "abc", "abc\n", false},
		{"differs", "abd\n", "abc\n", false},
		{"empty file", "", "a", false},
		{"large equal", big, big, true},
		{"large, last byte differs", big[:len(big)-1] + "x", big, false},
		{"large, one byte more", big + "x", big, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(p, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			same, err := sameContent(f, []byte(tc.want))
			if err != nil || same != tc.same {
				t.Fatalf("sameContent = %v, %v; want %v", same, err, tc.same)
			}
		})
	}
}
