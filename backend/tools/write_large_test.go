package tools_test

import (
	"strings"
	"testing"
)

// A Write over the 16 MiB text limit reports the file's real size and the
// limit that applied, not the bounded read's 16777217 bytes and "binary".
func TestWriteOverTextLimit(t *testing.T) {
	w := newWS(t, nil)
	tests := []struct {
		name, content, size string
		binary              bool
	}{
		{"text", strings.Repeat("abcdefghi\n", 1_900_000), "19,000,000", false},
		{"NUL in the head", "\x00" + strings.Repeat("x", 17<<20), "17,825,793", true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := []string{"big.txt", "big.bin"}[i]
			res := w.run("Write", map[string]any{"path": path, "content": tt.content})
			if !res.OK || res.Fields["bytes"] != int64(len(tt.content)) || res.Fields["tooLarge"] != true || (res.Fields["binary"] == true) != tt.binary || res.Fields["tag"] != nil {
				t.Fatalf("Write = %+v", res.Fields)
			}
			want := "created " + path + ": " + tt.size + " bytes, no tag (larger than the 16 MiB text limit)"
			if res.Content != want {
				t.Errorf("content %q, want %q", res.Content, want)
			}
			if !strings.HasPrefix(res.Notice, "wrote "+tt.size+" bytes to "+path+"; larger than the 16 MiB (16,777,216-byte) text limit, so no tag was issued") || strings.Contains(res.Notice, "rolled back") {
				t.Errorf("notice %q", res.Notice)
			}
		})
	}
}
