package hashline

import "testing"

// An ops header copied from a result names a hostile file escaped (Header);
// it still matches the raw path argument, and nothing else does.
func TestSamePathAcceptsTheEscapedHeader(t *testing.T) {
	tests := []struct {
		header, arg string
		want        bool
	}{
		{"src/a.go", "src/a.go", true},
		{`src\a.go`, "src/a.go", true},
		{"./src/a.go", "src/a.go", true},
		{`a\nb.txt`, "a\nb.txt", true},
		{`x\u202etxt.exe`, "x\u202etxt.exe", true},
		{`a\nb.txt`, "a/nb.txt", true}, // separator folding, as before: a\nb reads as a/nb
		{`a\nb.txt`, "a\rb.txt", false},
		{"a.txt", "b.txt", false},
	}
	for _, tt := range tests {
		if got := samePath(tt.header, tt.arg); got != tt.want {
			t.Errorf("samePath(%q, %q) = %v, want %v", tt.header, tt.arg, got, tt.want)
		}
	}
}
