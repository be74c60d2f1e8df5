package archtest

import (
	"os/exec"
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

// Wails is the desktop shell's business: backend and platform code must
// build and test without it (and without cgo).
func TestNoWailsOutsideMain(t *testing.T) {
	for _, pkg := range goList(t, "{{.ImportPath}}", "./backend/...", "./platform/...") {
		for _, dep := range goList(t, `{{join .Deps "\n"}}`, pkg) {
			if strings.HasPrefix(dep, "github.com/wailsapp/") {
				t.Errorf("%s imports %s; only main.go and app.go may use Wails", pkg, dep)
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
