package truncate_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

func TestBytes(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},      // n == length
		{"abc", 5, "abc"},      // n > length
		{"abc", 2, "ab"},       // ASCII cut
		{"abc", 0, ""},         // nothing kept
		{"abc", -1, ""},        // negative is nothing
		{"", 0, ""},            // empty
		{"aé", 2, "a"},         // é is 2 bytes: not split
		{"aé", 3, "aé"},        // whole
		{"a日本", 3, "a"},        // 3-byte rune cut after its first 2 bytes
		{"a日本", 4, "a日"},       // on the boundary
		{"😀x", 3, ""},          // 4-byte rune: nothing fits
		{"a\xffb", 2, "a\xff"}, // an invalid byte is a rune start of its own
		{"a\x80\x80b", 2, ""},  // stray continuation bytes are walked back over, like a sequence's
	}
	for _, tt := range tests {
		if got := truncate.Bytes(tt.s, tt.n); got != tt.want {
			t.Errorf("Bytes(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestRunes(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abc", 4, "abc"},
		{"abc", 1, "a"},
		{"abc", 0, ""},
		{"abc", -1, ""},
		{"", 2, ""},
		{"日本語", 2, "日本"},
		{"😀😀", 1, "😀"},
		{"a\xffb", 2, "a\xff"}, // an invalid byte counts as one rune
	}
	for _, tt := range tests {
		if got := truncate.Runes(tt.s, tt.n); got != tt.want {
			t.Errorf("Runes(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestTail(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abc", 2, "bc"},
		{"abc", 0, ""},
		{"éa", 2, "a"}, // starts inside é: skip its tail byte
		{"日本", 4, "本"}, // 3-byte runes
		{"日本", 2, ""},  // nothing whole fits
		{"\xffab", 3, "\xffab"},
	}
	for _, tt := range tests {
		if got := truncate.Tail(tt.s, tt.n); got != tt.want {
			t.Errorf("Tail(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestEllipsis(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"bytes, fits", truncate.BytesEllipsis("abc", 3), "abc"},
		{"bytes, cut", truncate.BytesEllipsis("abcd", 3), "abc…"},
		{"bytes, cut on a boundary", truncate.BytesEllipsis("aé", 2), "a…"},
		{"runes, fits", truncate.RunesEllipsis("日本", 2), "日本"},
		{"runes, cut", truncate.RunesEllipsis("日本語", 2), "日本…"},
		{"runes, zero", truncate.RunesEllipsis("x", 0), "…"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

// FuzzTruncate checks the promises on any input: a prefix (or suffix) of s,
// within the limit, never ending (or starting) inside a sequence that was
// valid in s, and as long as such a cut can be.
func FuzzTruncate(f *testing.F) {
	for _, seed := range []string{"", "abc", "aé", "a日本", "😀x", "a\xffb", "\x80\x80", "日本語😀"} {
		f.Add(seed, 2)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n %= len(s) + 2
		b := truncate.Bytes(s, n)
		if !strings.HasPrefix(s, b) || len(b) > max(n, 0) && len(b) != len(s) {
			t.Fatalf("Bytes(%q, %d) = %q: not a prefix within the limit", s, n, b)
		}
		if len(b) > 0 && len(b) < len(s) && !utf8.RuneStart(s[len(b)]) {
			t.Fatalf("Bytes(%q, %d) = %q: cut inside a sequence", s, n, b)
		}
		valid := utf8.ValidString(s)
		if valid && !utf8.ValidString(b) {
			t.Fatalf("Bytes(%q, %d) = %q: invalid UTF-8 from valid input", s, n, b)
		}
		if valid && len(b) < len(s) && len(b)+utf8.UTFMax <= n {
			t.Fatalf("Bytes(%q, %d) = %q: cut further back than a sequence", s, n, b)
		}

		tl := truncate.Tail(s, n)
		if !strings.HasSuffix(s, tl) || len(tl) > max(n, 0) && len(tl) != len(s) {
			t.Fatalf("Tail(%q, %d) = %q: not a suffix within the limit", s, n, tl)
		}
		if tl != "" && len(tl) < len(s) && !utf8.RuneStart(tl[0]) {
			t.Fatalf("Tail(%q, %d) = %q: starts inside a sequence", s, n, tl)
		}
		if valid && !utf8.ValidString(tl) {
			t.Fatalf("Tail(%q, %d) = %q: invalid UTF-8 from valid input", s, n, tl)
		}

		r := truncate.Runes(s, n)
		want := min(max(n, 0), utf8.RuneCountInString(s))
		if !strings.HasPrefix(s, r) || utf8.RuneCountInString(r) != want {
			t.Fatalf("Runes(%q, %d) = %q: want a prefix of %d runes", s, n, r, want)
		}
	})
}
