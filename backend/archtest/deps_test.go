package archtest

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goList lists packages matching patterns with a template.
func goList(t *testing.T, format string, patterns ...string) []string {
	t.Helper()
	args := append([]string{"list", "-f", format}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	return strings.Fields(string(out))
}

// Wails is the desktop shell's business, and the shell is exactly the root
// package's main.go and app.go (entry point, window lifecycle, event sink)
// and package desktop (the bound services, the visualization route). All
// else builds and tests without Wails (and backend/platform without cgo).
func TestWailsOnlyInTheDesktopShell(t *testing.T) {
	const mod = "github.com/pi-desktop/pi-desktop"
	shell := map[string]bool{mod: true, mod + "/desktop": true}
	for _, pkg := range goList(t, "{{.ImportPath}}", "./...") {
		if shell[pkg] {
			continue
		}
		for _, dep := range goList(t, `{{join .Deps "\n"}}`, pkg) {
			if strings.HasPrefix(dep, "github.com/wailsapp/") {
				t.Errorf("%s imports %s; only main.go, app.go and desktop/ may use Wails", pkg, dep)
			}
		}
	}
	// In the root package, whatever the build tags: main.go and app.go only.
	files, err := filepath.Glob("../../*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("root files: %v, %v", files, err)
	}
	for _, path := range files {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		for _, imp := range f.Imports {
			if strings.HasPrefix(strings.Trim(imp.Path.Value, `"`), "github.com/wailsapp/") && name != "main.go" && name != "app.go" {
				t.Errorf("%s imports %s; in the root package only main.go and app.go may use Wails (the rest goes in desktop/)", name, imp.Path.Value)
			}
		}
	}
}

// platform/* never imports backend/*, and errs and api are leaves.
func TestDirectionOfImports(t *testing.T) {
	const mod = "github.com/pi-desktop/pi-desktop/"
	rules := []struct {
		pattern   string
		forbidden []string
	}{
		{"./platform/...", []string{mod + "backend/"}},
		{"./backend/errs", []string{mod}},
		{"./backend/api", []string{mod}},
	}
	for _, r := range rules {
		for _, pkg := range goList(t, "{{.ImportPath}}", r.pattern) {
			for _, dep := range goList(t, `{{join .Imports "\n"}}`, pkg) {
				for _, bad := range r.forbidden {
					if strings.HasPrefix(dep, bad) {
						t.Errorf("%s imports %s", pkg, dep)
					}
				}
			}
		}
	}
}
