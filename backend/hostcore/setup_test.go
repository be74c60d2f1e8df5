package hostcore_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

type setupSink struct{ results chan hostcore.SetupResult }

func (s setupSink) Emit(event string, payload any) {
	if r, ok := payload.(hostcore.SetupResult); ok && event == hostcore.EventWorktreeSetup && r.State != "running" {
		s.results <- r
	}
}

func TestWorktreeSetupCommand(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install git)")
	}
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
	if _, err := core.SetProjectSetup(t.Context(), p.ID, "bad\x00cmd"); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("a NUL in the setup command = %v", err)
	}
	if _, err := core.SetProjectSetup(t.Context(), p.ID, `echo "port=$PI_PORT" > setup-ran.txt`); err != nil {
		t.Fatal(err)
	}
	s, err := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	r := waitSetup(t, sink)
	if r.State != "done" || r.SessionID != s.ID {
		t.Fatalf("setup = %+v", r)
	}
	if _, err := os.Stat(filepath.Join(project, "setup-ran.txt")); !os.IsNotExist(err) {
		t.Error("the setup command ran in the main checkout")
	}
	ran, _ := filepath.Glob(filepath.Join(root, "data", "worktrees", "*", s.ID, "setup-ran.txt"))
	if len(ran) != 1 {
		t.Fatal("the setup command did not run in the worktree")
	}
	if b, _ := os.ReadFile(ran[0]); len(b) < len("port=41000") {
		t.Errorf("setup saw no PI_PORT: %q", b)
	}

	// A failing command is reported; the session stays usable.
	if _, err := core.SetProjectSetup(t.Context(), p.ID, "echo broken >&2; exit 7"); err != nil {
		t.Fatal(err)
	}
	s2, err := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := waitSetup(t, sink); r.State != "failed" || r.ExitCode != 7 || r.SessionID != s2.ID {
		t.Errorf("failing setup = %+v", r)
	}
	if _, err := core.ConfigureSession(t.Context(), s2.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		t.Fatal(err)
	}
}

func waitSetup(t *testing.T, sink setupSink) hostcore.SetupResult {
	t.Helper()
	select {
	case r := <-sink.results:
		return r
	case <-time.After(30 * time.Second):
		t.Fatal("no setup result")
	}
	return hostcore.SetupResult{}
}
