package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// eachGoFile calls f with the slash path (from the module root) and the
// contents of every Go file of the module outside the frontend.
func eachGoFile(t *testing.T, f func(rel string, src []byte)) {
	t.Helper()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "frontend", "build":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f(filepath.ToSlash(rel), src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Golden files are compared and rewritten by internal/golden alone: a test
// package that registers its own -update flag is a second copy that drifts
// (one normalised line ends, another forgot to create the folder).
func TestOneGoldenHelper(t *testing.T) {
	registers := regexp.MustCompile(`flag\.Bool\(\s*"update"`)
	eachGoFile(t, func(rel string, src []byte) {
		if strings.HasSuffix(rel, "_test.go") && registers.Match(src) {
			t.Errorf("%s registers its own -update flag; use internal/golden", rel)
		}
	})
}

// Cutting a string to a limit without splitting a character is done by
// backend/truncate; a hand-written walk to a rune start is a second copy.
// bgtask/stream.go resynchronises after its ring buffer's cut instead (at
// most three bytes, which an invalid byte may also be).
func TestOneTruncationHelper(t *testing.T) {
	allowed := map[string]bool{"backend/truncate/truncate.go": true, "backend/bgtask/stream.go": true}
	eachGoFile(t, func(rel string, src []byte) {
		if !strings.HasSuffix(rel, "_test.go") && !allowed[rel] && strings.Contains(string(src), "utf8.RuneStart(") {
			t.Errorf("%s walks to a rune start by hand; use backend/truncate", rel)
		}
	})
}

// truncate is a leaf like errs and api: every backend package may cut a
// string with it, so it may import none of them.
func TestTruncateIsALeaf(t *testing.T) {
	const mod = "github.com/pi-desktop/pi-desktop/"
	for _, dep := range goList(t, `{{join .Imports "\n"}}`, "./backend/truncate") {
		if strings.HasPrefix(dep, mod) {
			t.Errorf("backend/truncate imports %s", dep)
		}
	}
}
