package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Golden files are compared and rewritten by internal/golden alone: a test
// package that registers its own -update flag is a second copy that drifts
// (one normalised line ends, another forgot to create the folder).
func TestOneGoldenHelper(t *testing.T) {
	registers := regexp.MustCompile(`flag\.Bool\(\s*"update"`)
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
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if registers.Match(b) {
			t.Errorf("%s registers its own -update flag; use internal/golden", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
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
