package desktop

import "testing"

func TestFileURL(t *testing.T) {
	for in, want := range map[string]string{
		"/home/u/proj/main.go":     "file:///home/u/proj/main.go",
		"/home/u/my proj/a#b?.txt": "file:///home/u/my%20proj/a%23b%3F.txt",
		"/home/u/proj/naïve.md":    "file:///home/u/proj/na%C3%AFve.md",
		"/":                        "file:///",
	} {
		if got := fileURL(in); got != want {
			t.Errorf("fileURL(%q) = %q; want %q", in, got, want)
		}
	}
}
