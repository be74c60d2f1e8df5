package hostcore_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func gitInit(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"}, {"config", "user.email", "t@example.invalid"}, {"config", "user.name", "T"},
		{"add", "-A"}, {"commit", "-q", "-m", "init"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

func TestIsolatedSessionWorksInItsWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install git)")
	}
	e := newEnv(t)
	gitInit(t, e.project)
	write(t, filepath.Join(e.project, "dirty.txt"), "uncommitted\n") // must not reach the worktree
	s, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.core.ConfigureSession(t.Context(), s.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		t.Fatal(err)
	}
	res := e.call(s.ID, "Write", map[string]any{"path": "feature.go", "content": "package main\n"})
	if !res.OK {
		t.Fatalf("Write = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(e.project, "feature.go")); !os.IsNotExist(err) {
		t.Fatal("an isolated session wrote into the main checkout")
	}
	res = e.call(s.ID, "Bash", map[string]any{"command": "pwd; ls; echo port=$PI_PORT root=$PI_PROJECT_ROOT"})
	if !res.OK || !strings.Contains(res.Content, "feature.go") || strings.Contains(res.Content, "dirty.txt") || !strings.Contains(res.Content, "port=4") {
		t.Fatalf("Bash in the worktree = %s", res.Content)
	}
	wtDir := strings.TrimSpace(strings.SplitN(res.Fields["stdout"].(string), "\n", 2)[0])
	if !strings.HasPrefix(wtDir, filepath.Join(e.core.Info().DataDir, "worktrees")) {
		t.Errorf("Bash cwd = %s; want the worktree", wtDir)
	}

	// Commit in the worktree, preview, merge: the project fast-forwards.
	if res := e.call(s.ID, "Bash", map[string]any{"command": "git add feature.go && git -c user.email=a@b.invalid -c user.name=A commit -qm feature"}); !res.OK {
		t.Fatalf("commit = %+v", res)
	}
	prev, err := e.core.MergePreview(t.Context(), s.ID)
	if err != nil || len(prev.Commits) != 1 || prev.Token == "" {
		t.Fatalf("preview = %+v, %v", prev, err)
	}
	if _, err := e.core.Merge(t.Context(), s.ID, "stale-token"); err == nil {
		t.Error("a stale token merged")
	}
	if _, err := e.core.Merge(t.Context(), s.ID, prev.Token); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(e.project, "feature.go")); err != nil || string(b) != "package main\n" {
		t.Errorf("project after merge: %q, %v", b, err)
	}

	// A worktree replaced by a link is missing, never a fallback.
	if err := os.RemoveAll(wtDir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.project, wtDir); err != nil {
		t.Fatal(err)
	}
	res = e.call(s.ID, "Read", map[string]any{"path": "main.go"})
	if res.OK || res.Code != errs.WorktreeMissing {
		t.Errorf("Read with the worktree replaced by a link = %+v", res)
	}
	if err := e.core.DeleteSession(t.Context(), s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.project, "main.go")); err != nil {
		t.Errorf("deleting the session followed the link into the project: %v", err)
	}
}

func TestIsolatedNeedsGit(t *testing.T) {
	e := newEnv(t)
	if _, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID, Isolated: true}); !errs.Is(err, errs.WorktreeNotGit) {
		t.Errorf("isolated in a non-git project = %v", err)
	}
}

// Removing a project retires its sessions the way deleting each would: an
// isolated session's worktree and branch go too, not only its rows.
func TestRemoveProjectRemovesItsWorktrees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install git)")
	}
	e := newEnv(t)
	gitInit(t, e.project)
	s, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.core.SetSessionArchived(t.Context(), s.ID, true); err != nil {
		t.Fatal(err)
	}
	list := func() string {
		out, err := exec.Command("git", "-C", e.project, "worktree", "list", "--porcelain").CombinedOutput()
		if err != nil {
			t.Fatalf("git worktree list: %v\n%s", err, out)
		}
		return string(out)
	}
	if n := strings.Count(list(), "worktree "); n != 2 {
		t.Fatalf("worktrees before = %d\n%s", n, list())
	}
	if err := e.core.RemoveProject(t.Context(), e.session.ProjectID); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(list(), "worktree "); n != 1 {
		t.Errorf("worktrees after removing the project = %d, want the main checkout only\n%s", n, list())
	}
	if _, err := e.core.Session(t.Context(), s.ID); !errs.Is(err, errs.SessionNotFound) {
		t.Errorf("session after removing its project: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.project, ".git")); err != nil {
		t.Errorf("the project's own files were touched: %v", err)
	}
}
