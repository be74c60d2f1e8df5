package worktree

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
}

// cleanTestEnv is the environment of the unhardened setup helper: no GIT_*
// variable (tests inject some with t.Setenv) and no user/system config.
func cleanTestEnv(t *testing.T) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(strings.ToUpper(kv), "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com")
}

// gitT runs plain (unhardened) git for test setup and returns its stdout.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = cleanTestEnv(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// newRepo makes a repository with one commit holding the given files.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	requireGit(t)
	dir := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "init", "-q", "-b", "main")
	gitT(t, dir, "config", "user.name", "Test")
	gitT(t, dir, "config", "user.email", "test@example.com")
	gitT(t, dir, "config", "commit.gpgsign", "false")
	if len(files) == 0 {
		files = map[string]string{"a.txt": "one\n"}
	}
	for p, c := range files {
		write(t, filepath.Join(dir, filepath.FromSlash(p)), c)
	}
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-q", "-m", "initial")
	return dir
}

func commitAll(t *testing.T, dir, msg string) string {
	t.Helper()
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-q", "-m", msg)
	return gitT(t, dir, "rev-parse", "HEAD")
}

func newManager(t *testing.T) *Manager {
	t.Helper()
	data := t.TempDir()
	g, err := NewGit(filepath.Join(data, "git", "empty-hooks"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewManager(filepath.Join(data, "worktrees"), g)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func wantCode(t *testing.T, err error, code errs.Code) *errs.Error {
	t.Helper()
	if !errs.Is(err, code) {
		t.Fatalf("error = %v, want code %s", err, code)
	}
	return errs.As(err)
}

func unixOnly(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX shell scripts / symlinks")
	}
}

const sessA = "0195f3c2-7a1b-7c3d-9e4f-a1b2c3d4e5f6"
