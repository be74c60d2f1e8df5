package hostcore_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// TestWorktreeSetupOutputRedacted: a setup command's output, shown in the
// window when it fails, hides secrets.
func TestWorktreeSetupOutputRedacted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install git)")
	}
	t.Setenv("HOME", t.TempDir())
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(project, "main.go"), "package main\n")
	gitInit(t, project)
	sink := setupSink{results: make(chan hostcore.SetupResult, 4)}
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: filepath.Join(root, "data"), Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	p, _ := core.AddProject(t.Context(), project)
	if _, err := core.SetProjectSetup(t.Context(), p.ID, "echo NPM_TOKEN=npm_s3cr3tVALUE42; exit 3"); err != nil {
		t.Fatal(err)
	}
	if _, err := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID, Isolated: true}); err != nil {
		t.Fatal(err)
	}
	r := waitSetup(t, sink)
	if r.State != "failed" || strings.Contains(r.Output, "s3cr3tVALUE42") || !strings.Contains(r.Output, "NPM_TOKEN=[REDACTED]") {
		t.Errorf("setup result = %+v", r)
	}
}
