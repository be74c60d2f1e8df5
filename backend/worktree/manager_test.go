package worktree

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestCreateFromHeadWithoutUncommittedChanges(t *testing.T) {
	proj := newRepo(t, map[string]string{"a.txt": "committed\n", "dir/b.txt": "b\n"})
	head := gitT(t, proj, "rev-parse", "HEAD")
	write(t, filepath.Join(proj, "a.txt"), "dirty edit\n")
	write(t, filepath.Join(proj, "untracked.txt"), "new\n")
	gitT(t, proj, "rm", "-q", "--cached", "dir/b.txt") // staged deletion

	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	wantDir := filepath.Join(m.Base(), ProjectKey(proj), sessA)
	if c.Dir != wantDir || c.Root != wantDir || c.Subdir != "" {
		t.Errorf("Dir=%s Root=%s Subdir=%q, want %s", c.Dir, c.Root, c.Subdir, wantDir)
	}
	if c.Branch != "pi-desktop/"+sessA || c.Base != head || c.ProjectDir != proj {
		t.Errorf("worktree = %+v", c.Worktree)
	}
	if got := read(t, filepath.Join(c.Dir, "a.txt")); got != "committed\n" {
		t.Errorf("a.txt = %q, want the committed content", got)
	}
	if got := read(t, filepath.Join(c.Dir, "dir", "b.txt")); got != "b\n" {
		t.Errorf("dir/b.txt = %q", got)
	}
	if exists(filepath.Join(c.Dir, "untracked.txt")) {
		t.Error("untracked project file was copied")
	}
	if got := gitT(t, proj, "rev-parse", "refs/heads/pi-desktop/"+sessA); got != head {
		t.Errorf("branch at %s, want %s", got, head)
	}
	if got := gitT(t, c.Dir, "symbolic-ref", "HEAD"); got != "refs/heads/pi-desktop/"+sessA {
		t.Errorf("worktree HEAD = %s", got)
	}
	// the project checkout is untouched
	if got := read(t, filepath.Join(proj, "a.txt")); got != "dirty edit\n" {
		t.Errorf("project a.txt = %q", got)
	}
	v, err := m.Verify(proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if v.Dir != c.Dir || v.Root != c.Root || v.Base != head {
		t.Errorf("Verify = %+v", v)
	}

	_, err = m.Create(t.Context(), proj, sessA)
	wantCode(t, err, errs.WorktreeExists)
}

func TestCreateInProjectSubfolder(t *testing.T) {
	repo := newRepo(t, map[string]string{"app/main.go": "package main\n", "README": "r\n"})
	proj := filepath.Join(repo, "app")
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if c.Subdir != "app" || c.Root != filepath.Join(c.Dir, "app") {
		t.Fatalf("Subdir=%q Root=%s", c.Subdir, c.Root)
	}
	if !exists(filepath.Join(c.Root, "main.go")) {
		t.Error("tool root has no main.go")
	}
	env := Env(c.Worktree, 41230)
	want := []string{"PI_PORT=41230", "PI_PROJECT_ROOT=" + proj, "PI_WORKTREE_ROOT=" + c.Root}
	if strings.Join(env, "\n") != strings.Join(want, "\n") {
		t.Errorf("Env = %q, want %q", env, want)
	}

	// the project subfolder inside the worktree replaced by a link: missing
	target := t.TempDir()
	if err := os.RemoveAll(c.Root); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, c.Root); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	_, err = m.Verify(proj, sessA)
	wantCode(t, err, errs.WorktreeMissing)
}

func TestCreateRefusesNonGit(t *testing.T) {
	requireGit(t)
	m := newManager(t)
	plain := t.TempDir()
	_, err := m.Create(t.Context(), plain, sessA)
	e := wantCode(t, err, errs.WorktreeNotGit)
	if !strings.Contains(e.Message, "not in a git repository") {
		t.Errorf("message = %q", e.Message)
	}
	if ok, err := m.IsRepo(t.Context(), plain); ok || err != nil {
		t.Errorf("IsRepo(plain) = %v, %v", ok, err)
	}

	empty := t.TempDir()
	gitT(t, empty, "init", "-q")
	_, err = m.Create(t.Context(), empty, sessA)
	e = wantCode(t, err, errs.WorktreeNotGit)
	if !strings.Contains(e.Message, "no commit") {
		t.Errorf("message = %q", e.Message)
	}
	if ok, err := m.IsRepo(t.Context(), empty); ok || err != nil {
		t.Errorf("IsRepo(empty) = %v, %v", ok, err)
	}

	proj := newRepo(t, nil)
	if ok, err := m.IsRepo(t.Context(), proj); !ok || err != nil {
		t.Errorf("IsRepo(repo) = %v, %v", ok, err)
	}
	_, err = m.Create(t.Context(), proj, "../evil")
	wantCode(t, err, errs.InvalidArgument)
	_, err = m.Create(t.Context(), "relative/path", sessA)
	wantCode(t, err, errs.InvalidArgument)
	if entries, _ := os.ReadDir(m.Base()); len(entries) != 0 {
		t.Errorf("refused creations left %d entries in the base", len(entries))
	}
}

func TestVerifyMissingWhenDeleted(t *testing.T) {
	proj := newRepo(t, nil)
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(c.Dir); err != nil {
		t.Fatal(err)
	}
	_, err = m.Verify(proj, sessA)
	wantCode(t, err, errs.WorktreeMissing)
	_, err = m.Preview(t.Context(), proj, sessA)
	wantCode(t, err, errs.WorktreeMissing)
	_, err = m.Merge(t.Context(), proj, sessA, "x")
	wantCode(t, err, errs.WorktreeMissing)

	if err := m.Remove(t.Context(), proj, sessA); err != nil {
		t.Fatal(err)
	}
	if out := gitT(t, proj, "branch", "--list", "pi-desktop/*"); out != "" {
		t.Errorf("branch kept: %s", out)
	}
	if out := gitT(t, proj, "worktree", "list", "--porcelain"); strings.Contains(out, sessA) {
		t.Errorf("registration kept:\n%s", out)
	}
}

func TestVerifyMissingWhenReplacedByLinkAndRemoveKeepsTarget(t *testing.T) {
	unixOnly(t)
	proj := newRepo(t, nil)
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	// A look-alike target: a full copy with a .git file, so only the link
	// check can tell.
	target := filepath.Join(t.TempDir(), "target")
	write(t, filepath.Join(target, "keep.txt"), "precious\n")
	write(t, filepath.Join(target, ".git"), read(t, filepath.Join(c.Dir, ".git")))
	if err := os.RemoveAll(c.Dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, c.Dir); err != nil {
		t.Fatal(err)
	}
	_, err = m.Verify(proj, sessA)
	wantCode(t, err, errs.WorktreeMissing)
	_, err = m.Preview(t.Context(), proj, sessA)
	wantCode(t, err, errs.WorktreeMissing)

	if err := m.Remove(t.Context(), proj, sessA); err != nil {
		t.Fatal(err)
	}
	if exists(c.Dir) {
		t.Error("link still there")
	}
	if got := read(t, filepath.Join(target, "keep.txt")); got != "precious\n" {
		t.Errorf("target damaged: %q", got)
	}
	if out := gitT(t, proj, "branch", "--list", "pi-desktop/*"); out != "" {
		t.Errorf("branch kept: %s", out)
	}
}

func TestProjectKeyFolderReplacedByLink(t *testing.T) {
	unixOnly(t)
	proj := newRepo(t, nil)
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	keyDir := filepath.Dir(c.Dir)
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(keyDir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, keyDir); err != nil {
		t.Fatal(err)
	}
	_, err = m.Verify(proj, sessA)
	wantCode(t, err, errs.WorktreeMissing)
	if err := m.Remove(t.Context(), proj, sessA); err != nil {
		t.Fatal(err)
	}
	if exists(keyDir) {
		t.Error("link still there")
	}
	if !exists(filepath.Join(moved, sessA, "a.txt")) {
		t.Error("link target was deleted")
	}
}

func TestRemove(t *testing.T) {
	proj := newRepo(t, nil)
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	first, err := m.Ports().Block(sessA)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "scratch.txt"), "uncommitted work\n")
	if err := m.Remove(t.Context(), proj, sessA); err != nil {
		t.Fatal(err)
	}
	if exists(c.Dir) {
		t.Error("worktree folder still there")
	}
	if out := gitT(t, proj, "branch", "--list", "pi-desktop/*"); out != "" {
		t.Errorf("branch kept: %s", out)
	}
	if out := gitT(t, proj, "worktree", "list", "--porcelain"); strings.Contains(out, sessA) {
		t.Errorf("registration kept:\n%s", out)
	}
	if _, ok := m.Ports().Assigned(sessA); ok {
		t.Errorf("port block %d not released", first)
	}
	_, err = m.Verify(proj, sessA)
	wantCode(t, err, errs.WorktreeMissing)
	// removing again is fine
	if err := m.Remove(t.Context(), proj, sessA); err != nil {
		t.Fatal(err)
	}
	// and the session can get a fresh worktree
	if _, err := m.Create(t.Context(), proj, sessA); err != nil {
		t.Fatal(err)
	}
}

func TestProjectKey(t *testing.T) {
	a := ProjectKey(filepath.Join(string(filepath.Separator), "home", "u", "My Project!"))
	b := ProjectKey(filepath.Join(string(filepath.Separator), "home", "u", "My Project!") + string(filepath.Separator))
	c := ProjectKey(filepath.Join(string(filepath.Separator), "home", "v", "My Project!"))
	if a != b {
		t.Errorf("key not stable: %s vs %s", a, b)
	}
	if a == c {
		t.Errorf("different projects share key %s", a)
	}
	if !regexp.MustCompile(`^[a-z0-9_-]+-[0-9a-f]{16}$`).MatchString(a) || !strings.HasPrefix(a, "my-project-") {
		t.Errorf("key %q not filesystem-safe", a)
	}
}

func TestSetupFor(t *testing.T) {
	wt := Worktree{ProjectDir: "/p", Root: "/w/p"}
	if _, ok, err := SetupFor(wt, 41000, "  \n"); ok || err != nil {
		t.Errorf("blank command: ok=%v err=%v", ok, err)
	}
	s, ok, err := SetupFor(wt, 41000, "npm ci")
	if !ok || err != nil || s.Command != "npm ci" || s.Dir != "/w/p" || len(s.Env) != 3 {
		t.Errorf("SetupFor = %+v %v %v", s, ok, err)
	}
	_, _, err = SetupFor(wt, 41000, "a\x00b")
	wantCode(t, err, errs.InvalidArgument)
}
