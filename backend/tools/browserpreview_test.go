package tools_test

import (
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/tools"
)

func TestCheckPreviewURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://localhost:5173", "http://localhost:5173"},
		{"http://127.0.0.1:8080/app/?q=1#frag", "http://127.0.0.1:8080/app/?q=1"},
		{"https://localhost:5173/", ""},
		{"http://0.0.0.0:5173/", ""},
		{"http://[::1]:5173/", ""},
		{"http://localhost/", ""},
		{"http://localhost:0/", ""},
		{"http://localhost:99999/", ""},
		{"http://localhost:080/", ""},
		{"http://user:pw@localhost:5173/", ""},
		{"http://example.com:80/", ""},
		{"http://127.0.0.2:5173/", ""},
		{"http://localhost.example.com:5173/", ""},
		{"ftp://localhost:21/", ""},
		{"localhost:5173", ""},
		{"javascript:alert(1)", ""},
		{"http://localhost:5173/?q=" + strings.Repeat("a", 2048), ""},
	}
	for _, tt := range tests {
		got, err := tools.CheckPreviewURL(tt.in)
		if tt.want == "" {
			if err == nil {
				t.Errorf("CheckPreviewURL(%q) = %q, want a refusal", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("CheckPreviewURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestHTMLTitle(t *testing.T) {
	for in, want := range map[string]string{
		"<html><head><TITLE lang=en>\n  A &amp; B\n</TITLE>": "A & B",
		"<title></title>":                       "",
		"no title":                              "",
		"<title>a\x1b[31mb\u202ec&#x7;</title>": "a [31mb c",
		"<title>x\u061cy\u200bz\u2028w</title>": "x y z w",
	} {
		if got := tools.HTMLTitle([]byte(in)); got != want {
			t.Errorf("HTMLTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
