package worktree

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestMergePreviewThenFastForward(t *testing.T) {
	proj := newRepo(t, map[string]string{"a.txt": "one\n", "notes.txt": "n\n"})
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "one\ntwo\n")
	write(t, filepath.Join(c.Dir, "new.txt"), "fresh\n")
	w := commitAll(t, c.Dir, "agent work")
	write(t, filepath.Join(c.Dir, "wip.txt"), "not committed\n")
	// an unrelated local change in the project survives the fast-forward
	write(t, filepath.Join(proj, "notes.txt"), "user edit\n")

	pv, err := m.Preview(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if pv.UpToDate || !pv.FastForward || pv.ProjectBranch != "main" || pv.WorktreeHead != w || pv.Token == "" {
		t.Fatalf("preview = %+v", pv)
	}
	if len(pv.Commits) != 1 || pv.Commits[0].Subject != "agent work" || pv.Commits[0].Hash != w {
		t.Errorf("commits = %+v", pv.Commits)
	}
	if !strings.Contains(pv.Diff, "+two") || !strings.Contains(pv.Diff, "+fresh") || strings.Contains(pv.Diff, "not committed") {
		t.Errorf("diff = %q", pv.Diff)
	}
	if len(pv.Files) != 2 || len(pv.Conflicts) != 0 {
		t.Errorf("files = %+v conflicts = %v", pv.Files, pv.Conflicts)
	}
	if len(pv.Uncommitted) != 1 || pv.Uncommitted[0] != "wip.txt" {
		t.Errorf("uncommitted = %v", pv.Uncommitted)
	}

	res, err := m.Merge(t.Context(), proj, sessA, pv.Token)
	if err != nil {
		t.Fatal(err)
	}
	if !res.FastForwarded || res.Synced || res.To != w || res.Commits != 1 {
		t.Errorf("result = %+v", res)
	}
	if got := gitT(t, proj, "rev-parse", "main"); got != w {
		t.Errorf("project main at %s, want %s", got, w)
	}
	if got := read(t, filepath.Join(proj, "a.txt")); got != "one\ntwo\n" {
		t.Errorf("project a.txt = %q", got)
	}
	if got := read(t, filepath.Join(proj, "notes.txt")); got != "user edit\n" {
		t.Errorf("project notes.txt = %q (local change lost)", got)
	}
	if n := gitT(t, proj, "rev-list", "--merges", "--count", "main"); n != "0" {
		t.Errorf("project gained %s merge commits", n)
	}

	// nothing more to merge
	pv2, err := m.Preview(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if !pv2.UpToDate {
		t.Errorf("second preview = %+v", pv2)
	}
	res2, err := m.Merge(t.Context(), proj, sessA, pv2.Token)
	if err != nil || !res2.UpToDate {
		t.Errorf("second merge = %+v, %v", res2, err)
	}
}

func TestMergeSyncsProjectBranchFirst(t *testing.T) {
	proj := newRepo(t, map[string]string{"a.txt": "one\n", "b.txt": "b\n"})
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "one (agent)\n")
	commitAll(t, c.Dir, "agent")
	write(t, filepath.Join(proj, "b.txt"), "b (user)\n")
	p := commitAll(t, proj, "user")

	pv, err := m.Preview(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if pv.FastForward || pv.UpToDate || len(pv.Conflicts) != 0 || pv.ProjectHead != p {
		t.Fatalf("preview = %+v", pv)
	}
	// the diff is what the project receives: the agent's change only
	if !strings.Contains(pv.Diff, "one (agent)") || strings.Contains(pv.Diff, "b (user)") {
		t.Errorf("diff = %q", pv.Diff)
	}
	res, err := m.Merge(t.Context(), proj, sessA, pv.Token)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Synced || !res.FastForwarded || res.From != p || res.To != res.SyncCommit {
		t.Errorf("result = %+v", res)
	}
	if got := gitT(t, proj, "rev-parse", "main"); got != gitT(t, c.Dir, "rev-parse", "HEAD") {
		t.Errorf("project and worktree differ after merge")
	}
	if read(t, filepath.Join(proj, "a.txt")) != "one (agent)\n" || read(t, filepath.Join(proj, "b.txt")) != "b (user)\n" {
		t.Error("merged content wrong")
	}
	// the sync merge commit was made on the session branch: its parents are
	// the agent's commit and the project commit
	if got := gitT(t, proj, "rev-parse", "main^2"); got != p {
		t.Errorf("second parent of the sync merge = %s, want the project commit %s", got, p)
	}
}

func TestMergeConflictStaysInWorktree(t *testing.T) {
	proj := newRepo(t, map[string]string{"a.txt": "one\n"})
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "agent\n")
	commitAll(t, c.Dir, "agent")
	write(t, filepath.Join(proj, "a.txt"), "user\n")
	p := commitAll(t, proj, "user")

	pv, err := m.Preview(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if len(pv.Conflicts) != 1 || pv.Conflicts[0] != "a.txt" {
		t.Errorf("predicted conflicts = %v", pv.Conflicts)
	}
	_, err = m.Merge(t.Context(), proj, sessA, pv.Token)
	e := wantCode(t, err, errs.WorktreeConflict)
	if files, _ := e.Details["files"].([]string); len(files) != 1 || files[0] != "a.txt" {
		t.Errorf("conflict files = %v", e.Details["files"])
	}
	// the project is untouched
	if got := gitT(t, proj, "rev-parse", "main"); got != p {
		t.Errorf("project moved to %s", got)
	}
	if got := read(t, filepath.Join(proj, "a.txt")); got != "user\n" {
		t.Errorf("project a.txt = %q", got)
	}
	if st := gitT(t, proj, "status", "--porcelain"); st != "" {
		t.Errorf("project status = %q", st)
	}
	// the conflict sits in the worktree
	if !strings.Contains(read(t, filepath.Join(c.Dir, "a.txt")), "<<<<<<<") {
		t.Error("no conflict markers in the worktree")
	}
	pv2, err := m.Preview(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if !pv2.SyncInProgress || len(pv2.Conflicts) != 1 {
		t.Errorf("preview during conflict = %+v", pv2)
	}
	_, err = m.Merge(t.Context(), proj, sessA, pv2.Token)
	wantCode(t, err, errs.WorktreeConflict)

	// resolving in the worktree lets the merge through
	write(t, filepath.Join(c.Dir, "a.txt"), "resolved\n")
	commitAll(t, c.Dir, "resolve")
	pv3, err := m.Preview(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	if !pv3.FastForward {
		t.Fatalf("after resolution: %+v", pv3)
	}
	if _, err := m.Merge(t.Context(), proj, sessA, pv3.Token); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(proj, "a.txt")); got != "resolved\n" {
		t.Errorf("project a.txt = %q", got)
	}
}

func TestMergeRefusesStaleToken(t *testing.T) {
	proj := newRepo(t, map[string]string{"a.txt": "one\n", "b.txt": "b\n"})
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "agent\n")
	commitAll(t, c.Dir, "agent")
	pv, err := m.Preview(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}

	// the project moves after the preview
	write(t, filepath.Join(proj, "b.txt"), "user\n")
	p := commitAll(t, proj, "user")
	_, err = m.Merge(t.Context(), proj, sessA, pv.Token)
	wantCode(t, err, errs.WorktreeStalePreview)
	if got := gitT(t, proj, "rev-parse", "main"); got != p {
		t.Errorf("project moved on a stale token")
	}
	w := gitT(t, c.Dir, "rev-parse", "HEAD")

	// the worktree moves after the preview
	pv, err = m.Preview(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "c.txt"), "more\n")
	commitAll(t, c.Dir, "more")
	_, err = m.Merge(t.Context(), proj, sessA, pv.Token)
	wantCode(t, err, errs.WorktreeStalePreview)
	if got := gitT(t, proj, "rev-parse", "main"); got != p {
		t.Errorf("project moved on a stale token")
	}
	if got := gitT(t, c.Dir, "rev-parse", "HEAD~1"); got != w {
		t.Errorf("worktree was synced on a stale token")
	}

	_, err = m.Merge(t.Context(), proj, sessA, "")
	wantCode(t, err, errs.WorktreeStalePreview)
}

func TestMergeRefusesDirtyProjectFiles(t *testing.T) {
	proj := newRepo(t, map[string]string{"a.txt": "one\n", ".gitignore": "*.log\n"})
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "agent\n")
	write(t, filepath.Join(c.Dir, "build.log"), "forced\n")
	gitT(t, c.Dir, "add", "-f", "build.log")
	commitAll(t, c.Dir, "agent")
	p := gitT(t, proj, "rev-parse", "HEAD")

	write(t, filepath.Join(proj, "a.txt"), "user, uncommitted\n")
	write(t, filepath.Join(proj, "build.log"), "user's ignored file\n")
	pv, err := m.Preview(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Merge(t.Context(), proj, sessA, pv.Token)
	e := wantCode(t, err, errs.WorktreeProjectDirty)
	if files, _ := e.Details["files"].([]string); strings.Join(files, ",") != "a.txt,build.log" {
		t.Errorf("files = %v", e.Details["files"])
	}
	if gitT(t, proj, "rev-parse", "HEAD") != p || read(t, filepath.Join(proj, "a.txt")) != "user, uncommitted\n" ||
		read(t, filepath.Join(proj, "build.log")) != "user's ignored file\n" {
		t.Error("project changed")
	}
}

func TestMergeRefusesDetachedProjectAndForeignGitFile(t *testing.T) {
	proj := newRepo(t, nil)
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	gitT(t, proj, "checkout", "-q", "--detach")
	_, err = m.Preview(t.Context(), proj, sessA)
	wantCode(t, err, errs.WorktreeMergeBlocked)
	gitT(t, proj, "checkout", "-q", "main")

	// the agent points the worktree's .git at a repository of its own
	evil := t.TempDir()
	gitT(t, evil, "init", "-q")
	write(t, filepath.Join(c.Dir, ".git"), "gitdir: "+filepath.Join(evil, ".git")+"\n")
	_, err = m.Preview(t.Context(), proj, sessA)
	wantCode(t, err, errs.WorktreeMissing)
}
