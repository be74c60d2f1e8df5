package hostcore_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
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
	// The index learns of the write through the filesystem's events.
	got = waitWorkspaceFiles(t, e, s.ID, []string{"main.go", "feature.go"})
	if got.Indexing {
		t.Errorf("after a worktree write = %+v; the first walk is long over", got)
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

// waitWorkspaceFiles waits, on the session's file index generation (never
// a sleep), until WorkspaceFiles("") lists want.
func waitWorkspaceFiles(t *testing.T, e *env, sessionID string, want []string) hostcore.WorkspaceFiles {
	t.Helper()
	idx, err := e.core.FileIndexForTest(t.Context(), sessionID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	for {
		gen := idx.Generation()
		got, err := e.core.WorkspaceFiles(ctx, sessionID, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(got.Files, want) {
			return got
		}
		if _, err := idx.Wait(ctx, gen); err != nil {
			t.Fatalf("WorkspaceFiles = %q; want %q (%v)", got.Files, want, err)
		}
	}
}

func TestWorkspaceFilesShareOneIndexPerWorkspace(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(filepath.Join(e.project, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(e.project, "src", "login.ts"), "")
	other, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{e.session.ID, other.ID} {
		if got, err := e.core.WorkspaceFiles(t.Context(), id, "log", 0); err != nil || !slices.Equal(got.Files, []string{"src/login.ts"}) {
			t.Fatalf("session %s: %+v, %v", id, got, err)
		}
	}
	if n := hostcore.FileIndexesOpenForTest(e.core); n != 1 {
		t.Fatalf("%d indexes for two sessions on one project; want 1", n)
	}
	// A file made after the first walk shows up for both.
	write(t, filepath.Join(e.project, "src", "logout.ts"), "")
	waitWorkspaceFiles(t, e, other.ID, []string{"main.go", "src/login.ts", "src/logout.ts"})
	if got, _ := e.core.WorkspaceFiles(t.Context(), e.session.ID, "logout", 0); !slices.Equal(got.Files, []string{"src/logout.ts"}) {
		t.Errorf("the other session sees %q", got.Files)
	}
	if err := e.core.DeleteSession(t.Context(), other.ID); err != nil {
		t.Fatal(err)
	}
	if n := hostcore.FileIndexesOpenForTest(e.core); n != 1 {
		t.Fatalf("%d indexes after one of two sessions went; want 1", n)
	}
	if err := e.core.DeleteSession(t.Context(), e.session.ID); err != nil {
		t.Fatal(err)
	}
	if n := hostcore.FileIndexesOpenForTest(e.core); n != 0 {
		t.Fatalf("%d indexes after the last session went; want 0", n)
	}
	if _, err := e.core.WorkspaceFiles(t.Context(), e.session.ID, "", -1); errs.CodeOf(err) != errs.InvalidArgument {
		t.Errorf("negative limit = %v; want INVALID_ARGUMENT", err)
	}
}
