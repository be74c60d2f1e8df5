package search

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// benchPatterns are the shapes the performance budget distinguishes
// (shared/design/decisions.md): literal-bearing, case-insensitive, no
// literal.
var benchPatterns = []struct {
	name    string
	pattern string
	fold    bool
}{
	{"literal", "func NewReader", false},
	{"regex", `func \w+Reader\(`, false},
	{"ignorecase", "newreader", true},
	{"noliteral", `\d{4}-\d{2}-\d{2}`, false},              // only "-": a weak literal
	{"dates", `[0-9]{4}[-/.][0-9]{2}[-/.][0-9]{2}`, false}, // no literal at all (bench/grep.go's case)
	{"count-err", "err", false},                            // 77k lines: the count-mode row
}

// benchCorpus is GOROOT/src: large, real, and present wherever Go is.
func benchCorpus(b *testing.B) string {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(root); err != nil {
		b.Skip("GOROOT/src not available")
	}
	return root
}

func benchGrep(b *testing.B, rg string) {
	root := benchCorpus(b)
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			opts := GrepOptions{Root: root, Pattern: p.pattern, IgnoreCase: p.fold, Mode: ModeCount, HeadLimit: 1 << 30, RgPath: rg, rgPlan: rgAuto}
			for b.Loop() {
				r, err := Grep(b.Context(), opts)
				if err != nil {
					b.Fatal(err)
				}
				if r.Engine != map[bool]string{true: EngineBuiltin, false: EngineRg}[rg == "-"] {
					b.Fatalf("ran %s", r.Engine)
				}
			}
		})
	}
}

func BenchmarkGrepBuiltin(b *testing.B) { benchGrep(b, "-") }

func BenchmarkGrepRg(b *testing.B) { benchGrep(b, rgPath(b)) }

func BenchmarkGlob(b *testing.B) {
	root := benchCorpus(b)
	for _, p := range []string{"**/*.go", "**/*.s"} { // capped at 1,000 early; the whole tree
		b.Run(p, func(b *testing.B) {
			for b.Loop() {
				if _, err := Glob(b.Context(), GlobOptions{Root: root, Pattern: p, Limit: MaxGlobLimit}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
