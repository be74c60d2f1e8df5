package hashline_test

import (
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
)

const greet = "package main\n\nimport \"fmt\"\n\nfunc greet(name string) string {\n\treturn \"Hello, \" + name\n}\n\nfunc main() {\n\tfmt.Println(greet(\"world\"))\n}\n"

func TestTagMatchesContractExample(t *testing.T) {
	// edit-contract.md §9: src/greet.go has 11 LF lines and tag A093; its CRLF twin too.
	lf := hashline.Decode([]byte(greet))
	if len(lf.Lines) != 11 || !lf.FinalNewline {
		t.Fatalf("lines = %d final=%v", len(lf.Lines), lf.FinalNewline)
	}
	if got := lf.Digest().Tag(); got != "A093" {
		t.Errorf("tag = %s, want A093", got)
	}
	crlf := []byte("\xEF\xBB\xBF" + strings.ReplaceAll(greet, "\n", "\r\n"))
	if got := hashline.DigestOf(crlf).Tag(); got != "A093" {
		t.Errorf("CRLF+BOM twin tag = %s, want A093", got)
	}
	if hashline.DigestOf([]byte(greet)) != lf.Digest() {
		t.Error("DigestOf fast path disagrees with Decode")
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		lines     []string
		final     bool
		canonical string
	}{
		{"empty", "", nil, false, ""},
		{"just newline", "\n", []string{""}, true, "\n"},
		{"no final newline", "a\nb", []string{"a", "b"}, false, "a\nb"},
		{"lone CR is content", "a\rb\n", []string{"a\rb"}, true, "a\rb\n"},
		{"mixed", "a\r\nb\nc\r\n", []string{"a", "b", "c"}, true, "a\nb\nc\n"},
		{"trailing space kept", "a \n", []string{"a "}, true, "a \n"},
		{"BOM and CRLF", "\xEF\xBB\xBFa\r\nb", []string{"a", "b"}, false, "a\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := hashline.Decode([]byte(tt.in))
			var got []string
			for _, l := range d.Lines {
				got = append(got, l.Text)
			}
			if strings.Join(got, "|") != strings.Join(tt.lines, "|") || len(got) != len(tt.lines) {
				t.Errorf("lines = %q, want %q", got, tt.lines)
			}
			if d.FinalNewline != tt.final || d.Canonical() != tt.canonical {
				t.Errorf("final=%v canonical=%q", d.FinalNewline, d.Canonical())
			}
			if hashline.DigestOf([]byte(tt.in)) != d.Digest() {
				t.Error("DigestOf disagrees with Decode")
			}
			if hashline.CanonicalOf([]byte(tt.in), d) != d.Canonical() {
				t.Error("CanonicalOf disagrees with Canonical")
			}
		})
	}
}

func TestIsBinary(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want bool
	}{
		{"text", []byte("hello\n"), false},
		{"nul", []byte("a\x00b"), true},
		{"invalid utf8", []byte{0xff, 0xfe, 'a'}, true},
		{"too large", make([]byte, hashline.MaxTextBytes+1), true},
		{"nul after sniff window is still invalid? no: valid UTF-8", append([]byte(strings.Repeat("a", 9000)), 0), false},
	}
	for _, tt := range tests {
		if got := hashline.IsBinary(tt.in); got != tt.want {
			t.Errorf("%s: IsBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}
