package mcp

import "testing"

func TestDisplayURL(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://example.com/mcp", "https://example.com/mcp"},
		{"https://user:pass@example.com/mcp", "https://example.com/mcp"},
		{"https://example.com/mcp?api_key=s3cret&team=x", "https://example.com/mcp?api_key=…&team=…"},
		{"https://example.com/mcp#token=abc", "https://example.com/mcp"},
		{"http://[::1", "(an unparsable URL)"},
	} {
		if got := displayURL(tt.in); got != tt.want {
			t.Errorf("displayURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
