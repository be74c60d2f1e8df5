package hostcore_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/search"
)

func TestWorkspaceFilesStaysInTheWorkspace(t *testing.T) {
	e := newEnv(t)
	write(t, filepath.Join(e.project, ".gitignore"), "dist/\n")
	if err := os.MkdirAll(filepath.Join(e.project, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(e.project, "src", "login.ts"), "")
	if err := os.MkdirAll(filepath.Join(e.project, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(e.project, "dist", "login.js"), "")
	// A prefix twin of the project and links out of it must never show up.
	twin := e.project + "_evil"
	if err := os.MkdirAll(twin, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(twin, "login-secret.txt"), "")
	if err := os.Symlink(twin, filepath.Join(e.project, "login-link")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	if err := os.Symlink(filepath.Join(e.outside, "secret.txt"), filepath.Join(e.project, "login-secret.txt")); err != nil {
		t.Fatal(err)
	}

	got, err := e.core.WorkspaceFiles(t.Context(), e.session.ID, "login", 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"src/login.ts"}; !slices.Equal(got.Files, want) || got.Truncated {
		t.Errorf("WorkspaceFiles(login) = %+v, want %q", got, want)
	}
	all, err := e.core.WorkspaceFiles(t.Context(), e.session.ID, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"main.go", "src/login.ts"}; !slices.Equal(all.Files, want) {
		t.Errorf("WorkspaceFiles('') = %q, want %q", all.Files, want)
	}
}

func TestWorkspaceFilesIsCapped(t *testing.T) {
	e := newEnv(t)
	for i := range search.MaxFilesLimit + 20 {
		write(t, filepath.Join(e.project, fmt.Sprintf("f%03d.txt", i)), "")
	}
	got, err := e.core.WorkspaceFiles(t.Context(), e.session.ID, "f", 10)
	if err != nil || len(got.Files) != 10 || !got.Truncated || got.Files[0] != "f000.txt" {
		t.Errorf("limit 10: %d files (first %q), truncated %v, err %v", len(got.Files), got.Files[:min(1, len(got.Files))], got.Truncated, err)
	}
	got, err = e.core.WorkspaceFiles(t.Context(), e.session.ID, "f", 100_000)
	if err != nil || len(got.Files) != search.MaxFilesLimit || !got.Truncated {
		t.Errorf("huge limit: %d files, truncated %v, err %v", len(got.Files), got.Truncated, err)
	}
}

func TestWorkspaceFilesOfAnIsolatedSessionComeFromItsWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install git)")
	}
	e := newEnv(t)
	gitInit(t, e.project)
	write(t, filepath.Join(e.project, "dirty.txt"), "uncommitted\n") // only in the main checkout
	s, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.core.WorkspaceFiles(t.Context(), s.ID, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Files, []string{"main.go"}) {
		t.Fatalf("isolated session files = %q; want the worktree's main.go only", got.Files)
	}
	// A file created in the worktree shows up; the main checkout's never does.
	if _, err := e.core.ConfigureSession(t.Context(), s.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		t.Fatal(err)
	}
	if res := e.call(s.ID, "Write", map[string]any{"path": "feature.go", "content": "package main\n"}); !res.OK {
		t.Fatalf("Write = %+v", res)
	}
	got, err = e.core.WorkspaceFiles(t.Context(), s.ID, "", 0)
	if err != nil || !slices.Equal(got.Files, []string{"main.go", "feature.go"}) {
		t.Errorf("after a worktree write = %q, %v", got.Files, err)
	}

	// A worktree replaced by a link to the project fails closed, never falls back.
	wt := filepath.Join(e.core.Info().DataDir, "worktrees")
	var dir string
	_ = filepath.WalkDir(wt, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "feature.go" {
			dir = filepath.Dir(p)
			return filepath.SkipAll
		}
		return nil
	})
	if dir == "" {
		t.Fatal("worktree not found")
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.project, dir); err != nil {
		t.Fatal(err)
	}
	if got, err := e.core.WorkspaceFiles(t.Context(), s.ID, "", 0); errs.CodeOf(err) != errs.WorktreeMissing {
		t.Errorf("redirected worktree = %q, %v; want WORKTREE_MISSING", got.Files, err)
	}
}

func TestWorkspaceFilesOfTemporaryAndUnknownSessions(t *testing.T) {
	e := newEnv(t)
	tmp, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.core.WorkspaceFiles(t.Context(), tmp.ID, "", 0)
	if err != nil || got.Files == nil || len(got.Files) != 0 {
		t.Errorf("fresh temporary session = %+v, %v; want an empty list", got, err)
	}
	scratch, err := e.core.ScratchDirForTest(t.Context(), tmp.ID)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(scratch, "notes.md"), "")
	if got, err := e.core.WorkspaceFiles(t.Context(), tmp.ID, "note", 0); err != nil || !slices.Equal(got.Files, []string{"notes.md"}) {
		t.Errorf("temporary session = %+v, %v", got, err)
	}
	if _, err := e.core.WorkspaceFiles(t.Context(), "no-such-session", "", 0); errs.CodeOf(err) != errs.SessionNotFound {
		t.Errorf("unknown session = %v", err)
	}
}
