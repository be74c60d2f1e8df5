package redact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// 96 KB: the largest Bash stdout a result keeps.
const benchSize = 96 << 10

func benchInput(b *testing.B, file string) string {
	in, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		b.Fatal(err)
	}
	return strings.Repeat(string(in), benchSize/len(in)+1)[:benchSize]
}

func BenchmarkString(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"secrets96KB", ""},
		{"lookalikes96KB", ""},
		{"goSource96KB", ""},
		{"noSeparators96KB", strings.Repeat("abcdefghij klmnopqrstuvwxyz 0123456789\n", benchSize/40)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			in := bc.in
			switch bc.name {
			case "secrets96KB":
				in = benchInput(b, "secrets.txt")
			case "lookalikes96KB":
				in = benchInput(b, "lookalikes.txt")
			case "goSource96KB":
				src, err := os.ReadFile("assign.go")
				if err != nil {
					b.Fatal(err)
				}
				in = strings.Repeat(string(src), benchSize/len(src)+1)[:benchSize]
			}
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				_ = String(in)
			}
		})
	}
}
