package search

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// rg's debug log names the files it skipped for their size; anything that
// cannot be read or checked on disk makes the caller fall back to the
// builtin engine rather than lose a name.
func TestRgStderrSkippedFiles(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int64{"big.txt": MaxFileBytes + 5, "small.txt": 3, "sub/b ig.bin": 1 << 30} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil { // sparse: only the size matters here
			t.Fatal(err)
		}
		f.Close()
	}
	const rg13 = "DEBUG|ignore::walk|/usr/share/cargo/registry/ignore-0.4.18/src/walk.rs:1728: ignoring "
	const rg14 = "rg: DEBUG|ignore::walk|crates/ignore/src/walk.rs:1730: ignoring "
	tests := []struct {
		name    string
		log     string
		skipped []SkippedFile
		unsure  bool
		tail    string
	}{
		{"rg 13 and 14 formats", rg13 + "./big.txt: 16777221 bytes\n" + rg14 + "./sub/b ig.bin: 1073741824 bytes\n", []SkippedFile{{"big.txt", MaxFileBytes + 5}, {"sub/b ig.bin", 1 << 30}}, false, ""},
		{"other debug lines", "DEBUG|rg::args|crates/core/args.rs:527: not reading config files\n" + rg13 + "./.git: Ignore(IgnoreMatch(Hidden))\n", nil, false, ""},
		{"an error line is kept for the message", "./x: Permission denied (os error 13)\n", nil, false, "./x: Permission denied (os error 13)\n"},
		{"a name split by a newline", rg13 + "./big\n.txt: 16777221 bytes\n", nil, true, ".txt: 16777221 bytes\n"},
		{"a name not on disk", rg13 + "./gone.txt: 16777221 bytes\n", nil, true, ""},
		{"a file within the limit", rg13 + "./small.txt: 3 bytes\n", nil, true, ""},
		{"no final newline", rg13 + "./big.txt: 16777221 bytes", []SkippedFile{{"big.txt", MaxFileBytes + 5}}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newRgStderr(dir)
			for i := 0; i < len(tt.log); i += 7 { // written in pieces, as a pipe delivers it
				s.Write([]byte(tt.log[i:min(i+7, len(tt.log))]))
			}
			s.finish()
			if !reflect.DeepEqual(s.skipped, tt.skipped) || s.unsure != tt.unsure || s.tail.String() != tt.tail {
				t.Errorf("skipped %+v unsure %v tail %q; want %+v %v %q", s.skipped, s.unsure, s.tail.String(), tt.skipped, tt.unsure, tt.tail)
			}
		})
	}
}
