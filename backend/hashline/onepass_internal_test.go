package hashline

import (
	"crypto/sha256"
	"strings"
	"testing"
)

// slowCanonical is the contract's definition, built line by line.
func slowCanonical(t Text) string {
	parts := make([]string, len(t.Lines))
	for i, l := range t.Lines {
		parts[i] = l.Text
	}
	c := strings.Join(parts, "\n")
	if t.FinalNewline && len(t.Lines) > 0 {
		c += "\n"
	}
	return c
}

var onePassInputs = []struct{ name, in string }{
	{"empty", ""},
	{"just newline", "\n"},
	{"two newlines", "\n\n"},
	{"lf", "a\nb\n"},
	{"no final newline", "a\nb"},
	{"crlf", "a\r\nb\r\n"},
	{"mixed", "a\r\nb\nc"},
	{"bom", "\xEF\xBB\xBFa\nb\n"},
	{"bom only", "\xEF\xBB\xBF"},
	{"lone cr", "a\rb\nc\n"},
	{"final cr", "a\nb\r"},
	{"feff content after bom", "\xEF\xBB\xBF\xEF\xBB\xBFx\n"},
	{"unicode", "héllo\n世界\n"},
}

// The fast paths (the decoded file as its own canonical text, in-place
// hashing, one-pass encoding) must give what the contract's definition
// gives, byte for byte.
func TestCanonicalFastPathsAgree(t *testing.T) {
	for _, tc := range onePassInputs {
		t.Run(tc.name, func(t *testing.T) {
			d := Decode([]byte(tc.in))
			want := slowCanonical(d)
			if got := d.Canonical(); got != want {
				t.Errorf("Canonical = %q, want %q", got, want)
			}
			if got := canonLen(d); got != len(want) {
				t.Errorf("canonLen = %d, want %d", got, len(want))
			}
			sum := Digest(sha256.Sum256([]byte(want)))
			if d.Digest() != sum || DigestOf([]byte(tc.in)) != sum {
				t.Error("digest differs from SHA-256 of the canonical text")
			}
			if got := CanonicalOf([]byte(tc.in), d); got != want {
				t.Errorf("CanonicalOf = %q, want %q", got, want)
			}
			b, plain := d.encode()
			if string(b) != string(d.Encode()) {
				t.Errorf("encode = %q, Encode = %q", b, d.Encode())
			}
			if plain != (string(b) == want) {
				t.Errorf("encode plain = %v for bytes %q and canonical %q", plain, b, want)
			}
		})
	}
}

// An edited Text (no decoded backing) still builds its canonical text.
func TestCanonicalOfBuiltText(t *testing.T) {
	tx := Text{Lines: []Line{{Text: "a"}, {Text: "b", CRLF: true}}, FinalNewline: true}
	if got := tx.Canonical(); got != "a\nb\n" {
		t.Errorf("Canonical = %q", got)
	}
	b, plain := tx.encode()
	if string(b) != "a\nb\r\n" || plain {
		t.Errorf("encode = %q plain=%v", b, plain)
	}
}

// LiveIsBytes and NewIsBytes promise that the digests are the SHA-256 of
// the raw bytes; callers skip hashing on that promise.
func TestPlanBytesDigests(t *testing.T) {
	for _, tc := range []struct {
		name, live, ops string
		liveRaw, newRaw bool
	}{
		{"lf", "a\nb\nc\n", "PUT 2.=2:\n+B", true, true},
		{"crlf", "a\r\nb\r\nc\r\n", "PUT 2.=2:\n+B", false, false},
		{"bom", "\xEF\xBB\xBFa\nb\n", "PUT 2.=2:\n+B", false, false},
		{"lone cr kept", "a\rx\nb\nc\n", "PUT 2.=2:\n+B", true, true},
		{"mv only", "a\nb\n", "MV other.txt", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestStore()
			tag := read(s, "f.txt", []byte(tc.live), nil)
			p := mustPlan(t, s, "f.txt", tag, tc.ops, []byte(tc.live))
			if p.LiveIsBytes != tc.liveRaw || p.NewIsBytes != tc.newRaw {
				t.Fatalf("LiveIsBytes=%v NewIsBytes=%v, want %v %v", p.LiveIsBytes, p.NewIsBytes, tc.liveRaw, tc.newRaw)
			}
			if p.LiveIsBytes && p.LiveDigest != Digest(sha256.Sum256([]byte(tc.live))) {
				t.Error("LiveDigest is not the SHA-256 of the live bytes")
			}
			if p.NewIsBytes && p.NewDigest() != Digest(sha256.Sum256(p.NewBytes)) {
				t.Error("NewDigest is not the SHA-256 of NewBytes")
			}
			if p.NewDigest() != DigestOf(p.NewBytes) {
				t.Error("NewDigest is not the digest of NewBytes")
			}
		})
	}
}

// A version over MaxRetainedText keeps its digest and Seen but no text,
// whether recorded by Read or by an Edit that never built the string.
func TestLargeEditNotRetained(t *testing.T) {
	var b strings.Builder
	for b.Len() <= MaxRetainedText+4096 {
		b.WriteString("some line of text that fills the file\n")
	}
	live := []byte(b.String())
	s := newTestStore()
	tag := read(s, "big.txt", live, ls(1, 3))
	p := mustPlan(t, s, "big.txt", tag, "PUT 2.=2:\n+changed", live)
	if p.canon != "" || p.canonLen != len(p.NewBytes) {
		t.Fatalf("plan canon len %d, canonLen %d, bytes %d", len(p.canon), p.canonLen, len(p.NewBytes))
	}
	s.Commit("big.txt", p, "")
	v := s.Versions("big.txt")
	if len(v) != 2 || v[0].Digest != p.NewDigest() || v[0].Retained || v[0].Text != "" || !v[0].Seen.Contains(2) {
		t.Fatalf("head version = %+v", v[0])
	}
	// The next edit on the new tag applies directly (branch A).
	next := mustPlan(t, s, "big.txt", p.NewTag(), "PUT 2.=2:\n+again", p.NewBytes)
	if next.Branch != "A" {
		t.Errorf("branch = %s", next.Branch)
	}
}
