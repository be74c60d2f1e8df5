package review

import (
	"bytes"
	"testing"
)

// rebuild must recover exactly what the tool left from the previous bytes
// and the record's hunks, or give up; it never returns other bytes.
func TestRebuildRoundTrip(t *testing.T) {
	long := bytes.Repeat([]byte("ctx\n"), 20)
	tests := []struct {
		name          string
		before, after string
		want          bool
	}{
		{"append", "a\nb\n", "a\nb\nc\n", true},
		{"prepend", "a\nb\n", "z\na\nb\n", true},
		{"replace middle", "a\nb\nc\n", "a\nB\nc\n", true},
		{"delete all", "a\nb\n", "", true},
		{"from empty", "", "a\nb\n", true},
		{"two far hunks", string(long) + "x\n" + string(long), "X\n" + string(long) + "x\n" + string(long) + "Y\n", true},
		{"CRLF", "a\r\nb\r\n", "a\r\nB\r\nc\r\n", true},
		{"drop final newline", "a\nb\n", "a\nb", true},
		{"add final newline", "a\nb", "a\nb\n", true},
		{"bare added end", "a\n", "a\nb", true},
		{"mixed terminators in added lines", "a\n", "a\nb\r\nc\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := describe(side{present: tt.before != "", data: []byte(tt.before)}, side{present: true, data: []byte(tt.after)})
			got, ok := rebuild([]byte(tt.before), ev.hunks, sum([]byte(tt.after)), int64(len(tt.after)))
			if ok != tt.want {
				t.Fatalf("ok = %v, want %v", ok, tt.want)
			}
			if ok && string(got) != tt.after {
				t.Errorf("rebuilt %q, want %q", got, tt.after)
			}
		})
	}
	// Hunks that do not fit the previous bytes are refused.
	ev := describe(side{present: true, data: []byte("a\nb\n")}, side{present: true, data: []byte("a\nB\n")})
	if _, ok := rebuild([]byte("q\nr\n"), ev.hunks, sum([]byte("a\nB\n")), 4); ok {
		t.Error("rebuilt from hunks that do not apply")
	}
}
