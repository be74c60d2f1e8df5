package mcp

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestServerLogTail(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		n      int
		want   []string
	}{
		{"empty", nil, 5, []string{}},
		{"fewer lines than asked", []string{"a\nb\n"}, 5, []string{"a", "b"}},
		{"last n, oldest first", []string{"1\n2\n3\n4\n"}, 2, []string{"3", "4"}},
		{"unfinished last line counts", []string{"a\nhalf"}, 2, []string{"a", "half"}},
		{"lines split across writes", []string{"he", "llo\nwor", "ld\n"}, 5, []string{"hello", "world"}},
		{"blank lines and CR skipped", []string{"a\r\n\n\n  \nb\r\n"}, 5, []string{"a", "b"}},
		{"zero lines", []string{"a\n"}, 0, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newServerLog(1024)
			for _, w := range tt.writes {
				if n, err := l.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			// Never nil: the window's list shows [] rather than null.
			if got := l.Tail(tt.n); got == nil || !slices.Equal(got, tt.want) {
				t.Errorf("Tail(%d) = %#v, want %q", tt.n, got, tt.want)
			}
		})
	}
}

// The log keeps the newest output within its bound and starts at a line.
func TestServerLogBounded(t *testing.T) {
	l := newServerLog(100)
	for i := range 1000 {
		fmt.Fprintf(l, "line %04d\n", i)
	}
	got := l.String()
	if len(got) > 100 {
		t.Errorf("kept %d bytes, bound 100", len(got))
	}
	if !strings.HasPrefix(got, "line ") || !strings.HasSuffix(got, "line 0999\n") {
		t.Errorf("log = %q, want whole lines ending with the last", got)
	}
	if tail := l.Tail(2); !slices.Equal(tail, []string{"line 0998", "line 0999"}) {
		t.Errorf("Tail = %q", tail)
	}

	// One write larger than the bound keeps its end, from a line start.
	l.Write([]byte(strings.Repeat("x", 300) + "\nend\n"))
	if got := l.String(); got != "end\n" {
		t.Errorf("after a huge write: %q", got)
	}
}

func TestServerLogLongAndInvalidLines(t *testing.T) {
	l := newServerLog(4096)
	l.Write([]byte(strings.Repeat("é", 600) + "\n\xff\xfe bad\n"))
	tail := l.Tail(2)
	if len(tail) != 2 {
		t.Fatalf("Tail = %q", tail)
	}
	if len(tail[0]) > maxTailLine+len("…") || !strings.HasSuffix(tail[0], "…") || !utf8.ValidString(tail[0]) {
		t.Errorf("long line not cut on a rune boundary: %d bytes, %q…", len(tail[0]), tail[0][:20])
	}
	if !utf8.ValidString(tail[1]) || !utf8.ValidString(l.String()) {
		t.Errorf("invalid UTF-8 leaked: %q", tail[1])
	}
}

// Whatever a server writes, in whatever chunks, the log stays within its
// bound, keeps the newest byte, and reads as valid UTF-8.
func FuzzServerLog(f *testing.F) {
	f.Add([]byte("hello\nworld\n"), uint8(3))
	f.Add([]byte("\xff\xfe\r\n\n"), uint8(1))
	f.Add([]byte(strings.Repeat("long line ", 40)), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		l := newServerLog(64)
		step := int(chunk)%16 + 1
		for i := 0; i < len(data); i += step {
			l.Write(data[i:min(i+step, len(data))])
		}
		got := l.String()
		if len(got) > 64*3 { // invalid bytes grow to 3-byte U+FFFD
			t.Fatalf("log of %d bytes, bound 64", len(got))
		}
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		if len(data) > 0 && data[len(data)-1] < 0x80 && !strings.HasSuffix(got, string(data[len(data)-1:])) {
			t.Fatalf("newest byte %q lost: %q", data[len(data)-1:], got)
		}
		for _, line := range l.Tail(5) {
			if line == "" || strings.ContainsAny(line, "\r\n") || !utf8.ValidString(line) {
				t.Fatalf("bad tail line %q", line)
			}
		}
	})
}
