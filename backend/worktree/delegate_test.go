package worktree

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

const delegA = "0195f3c2-7a1b-7c3d-9e4f-d1d2d3d4d5d6"

// sessionState is what a checkpoint or a merge must leave alone in the
// session's worktree: HEAD, the index file's bytes and git's view of it.
type sessionState struct{ head, indexSum, status string }

func stateOf(t *testing.T, dir string) sessionState {
	t.Helper()
	index := gitT(t, dir, "rev-parse", "--path-format=absolute", "--git-path", "index")
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	return sessionState{head: gitT(t, dir, "rev-parse", "HEAD"), indexSum: string(sha256.New().Sum(data)),
		status: gitT(t, dir, "status", "--porcelain=v1", "--untracked-files=all")}
}

// newDelegateSetup is a project with an isolated session whose worktree
// holds pending edits of every kind.
func newDelegateSetup(t *testing.T) (*Manager, string, Worktree) {
	t.Helper()
	proj := newRepo(t, map[string]string{
		"a.txt": "one\ntwo\nthree\nfour\nfive\n", "b.txt": "b\n", "gone.txt": "bye\n", ".gitignore": "*.log\n",
		".worktreeinclude": "env.log\n",
	})
	m := newManager(t)
	c, err := m.Create(t.Context(), proj, sessA)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "b.txt"), "b edited, unstaged\n")
	write(t, filepath.Join(c.Dir, "staged.txt"), "staged\n")
	gitT(t, c.Dir, "add", "staged.txt")
	write(t, filepath.Join(c.Dir, "untracked.txt"), "untracked\n")
	write(t, filepath.Join(c.Dir, "build.log"), "ignored\n")
	write(t, filepath.Join(c.Dir, "env.log"), "ignored but included\n")
	return m, proj, c.Worktree
}

func TestCreateDelegateCheckpointsPendingEditsWithoutTouchingTheSession(t *testing.T) {
	m, proj, wt := newDelegateSetup(t)
	before := stateOf(t, wt.Dir)

	dw, err := m.CreateDelegate(t.Context(), proj, sessA, delegA)
	if err != nil {
		t.Fatal(err)
	}
	if after := stateOf(t, wt.Dir); after != before {
		t.Errorf("the session's worktree changed:\nbefore %+v\nafter  %+v", before, after)
	}
	if got := read(t, filepath.Join(wt.Dir, "b.txt")); got != "b edited, unstaged\n" {
		t.Errorf("session b.txt = %q", got)
	}
	wantDir := filepath.Join(m.Base(), ProjectKey(proj), ".delegates", sessA, delegA)
	if dw.Dir != wantDir || dw.Root != wantDir || dw.Branch != "pi-desktop-delegate/"+sessA+"/"+delegA {
		t.Errorf("delegate worktree = %+v", dw)
	}
	for file, want := range map[string]string{
		"b.txt": "b edited, unstaged\n", "staged.txt": "staged\n", "untracked.txt": "untracked\n", "env.log": "ignored but included\n",
	} {
		if got := read(t, filepath.Join(dw.Dir, file)); got != want {
			t.Errorf("delegate %s = %q, want %q", file, got, want)
		}
	}
	if exists(filepath.Join(dw.Dir, "build.log")) {
		t.Error("an ignored file not in .worktreeinclude reached the delegate")
	}
	if got := gitT(t, dw.Dir, "status", "--porcelain", "--untracked-files=all"); got != "" {
		t.Errorf("the delegate starts dirty: %q", got)
	}
	if parent := gitT(t, proj, "rev-parse", dw.Checkpoint+"^"); parent != before.head {
		t.Errorf("checkpoint parent = %s, want the session's HEAD %s", parent, before.head)
	}
	if author := gitT(t, proj, "log", "-1", "--format=%an <%ae>", dw.Checkpoint); author != "PI-Desktop <pi-desktop@localhost>" {
		t.Errorf("checkpoint author = %s", author)
	}
	if got := gitT(t, proj, "rev-parse", "pi-desktop/"+sessA); got != before.head {
		t.Errorf("the session branch moved to %s", got)
	}

	v, err := m.VerifyDelegate(proj, sessA, delegA)
	if err != nil || v.Checkpoint != dw.Checkpoint || v.Root != dw.Root {
		t.Fatalf("VerifyDelegate = %+v, %v", v, err)
	}
	_, err = m.CreateDelegate(t.Context(), proj, sessA, delegA)
	wantCode(t, err, errs.WorktreeExists)
}

func TestFinishDelegateMergesOntoASessionThatChangedMeanwhile(t *testing.T) {
	m, proj, wt := newDelegateSetup(t)
	dw, err := m.CreateDelegate(t.Context(), proj, sessA, delegA)
	if err != nil {
		t.Fatal(err)
	}
	// The delegate edits the top of a.txt, adds and deletes files...
	write(t, filepath.Join(dw.Dir, "a.txt"), "ONE\ntwo\nthree\nfour\nfive\n")
	write(t, filepath.Join(dw.Dir, "new", "made.txt"), "by the delegate\n")
	if err := os.Remove(filepath.Join(dw.Dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	// ...while the session edits the bottom of a.txt and adds its own.
	write(t, filepath.Join(wt.Dir, "a.txt"), "one\ntwo\nthree\nfour\nFIVE\n")
	write(t, filepath.Join(wt.Dir, "session.txt"), "by the session\n")
	head := gitT(t, wt.Dir, "rev-parse", "HEAD")

	out, err := m.FinishDelegate(t.Context(), proj, sessA, delegA, "Delegate general: tidy up", true)
	if err != nil {
		t.Fatal(err)
	}
	if out.State != DelegateMerged || !slices.Equal(out.Files, []string{"a.txt", "gone.txt", "new/made.txt"}) {
		t.Errorf("outcome = %+v", out)
	}
	for file, want := range map[string]string{
		"a.txt": "ONE\ntwo\nthree\nfour\nFIVE\n", "new/made.txt": "by the delegate\n", "session.txt": "by the session\n",
		"b.txt": "b edited, unstaged\n", "untracked.txt": "untracked\n", "build.log": "ignored\n",
	} {
		if got := read(t, filepath.Join(wt.Dir, filepath.FromSlash(file))); got != want {
			t.Errorf("session %s = %q, want %q", file, got, want)
		}
	}
	if exists(filepath.Join(wt.Dir, "gone.txt")) {
		t.Error("the delegate's deletion did not reach the session")
	}
	if got := gitT(t, wt.Dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("the session's HEAD moved to %s", got)
	}
	if got := gitT(t, wt.Dir, "diff", "--cached", "--name-only"); got != "staged.txt" {
		t.Errorf("the session's index changed: staged = %q", got)
	}
	if exists(dw.Dir) || gitT(t, proj, "branch", "--list", dw.Branch) != "" {
		t.Error("a merged delegate left its worktree or branch")
	}
	if strings.Contains(gitT(t, proj, "worktree", "list", "--porcelain"), dw.Dir) {
		t.Error("git still lists the delegate's worktree")
	}
}

func TestFinishDelegateConflictKeepsTheBranchAndTheSession(t *testing.T) {
	m, proj, wt := newDelegateSetup(t)
	dw, err := m.CreateDelegate(t.Context(), proj, sessA, delegA)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dw.Dir, "a.txt"), "delegate\ntwo\nthree\nfour\nfive\n")
	write(t, filepath.Join(dw.Dir, "clean.txt"), "would merge\n")
	write(t, filepath.Join(wt.Dir, "a.txt"), "session\ntwo\nthree\nfour\nfive\n")
	before := stateOf(t, wt.Dir)

	out, err := m.FinishDelegate(t.Context(), proj, sessA, delegA, "Delegate general: rename", true)
	if err != nil {
		t.Fatal(err)
	}
	if out.State != DelegateConflict || !slices.Equal(out.Files, []string{"a.txt"}) || out.Branch != dw.Branch || out.Commit == "" {
		t.Fatalf("outcome = %+v", out)
	}
	if after := stateOf(t, wt.Dir); after != before {
		t.Errorf("a conflicting merge changed the session:\nbefore %+v\nafter  %+v", before, after)
	}
	if got := read(t, filepath.Join(wt.Dir, "a.txt")); got != "session\ntwo\nthree\nfour\nfive\n" {
		t.Errorf("session a.txt = %q", got)
	}
	if exists(filepath.Join(wt.Dir, "clean.txt")) {
		t.Error("part of a conflicting merge reached the session")
	}
	if got := gitT(t, proj, "rev-parse", dw.Branch); got != out.Commit {
		t.Errorf("branch at %s, want %s", got, out.Commit)
	}
	if got := gitT(t, proj, "log", "-1", "--format=%an|%s|%P", dw.Branch); got != "PI-Desktop|Delegate general: rename|"+dw.Checkpoint {
		t.Errorf("the delegate's commit = %s", got)
	}
	if got := gitT(t, proj, "show", dw.Branch+":a.txt"); got != "delegate\ntwo\nthree\nfour\nfive" {
		t.Errorf("the branch's a.txt = %q", got)
	}
	if exists(dw.Dir) {
		t.Error("the worktree folder is kept (its work is on the branch)")
	}
	if _, err := m.VerifyDelegate(proj, sessA, delegA); !errs.Is(err, errs.WorktreeMissing) {
		t.Errorf("VerifyDelegate after finish = %v", err)
	}
}

func TestFinishDelegateWithoutMerge(t *testing.T) {
	tests := []struct {
		name   string
		edit   bool
		state  string
		branch bool
	}{
		{"stopped with edits keeps them on its branch", true, DelegateKept, true},
		{"nothing changed leaves nothing", false, DelegateUnchanged, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, proj, wt := newDelegateSetup(t)
			dw, err := m.CreateDelegate(t.Context(), proj, sessA, delegA)
			if err != nil {
				t.Fatal(err)
			}
			if tc.edit {
				write(t, filepath.Join(dw.Dir, "half.txt"), "half done\n")
			}
			out, err := m.FinishDelegate(t.Context(), proj, sessA, delegA, "Delegate general: stopped", false)
			if err != nil {
				t.Fatal(err)
			}
			if out.State != tc.state {
				t.Errorf("outcome = %+v", out)
			}
			if exists(filepath.Join(wt.Dir, "half.txt")) {
				t.Error("an unmerged delegate's file reached the session")
			}
			if has := gitT(t, proj, "branch", "--list", dw.Branch) != ""; has != tc.branch {
				t.Errorf("branch kept = %v, want %v", has, tc.branch)
			}
			if tc.branch {
				if got := gitT(t, proj, "show", dw.Branch+":half.txt"); got != "half done" {
					t.Errorf("the branch's half.txt = %q", got)
				}
			}
		})
	}
}

func TestVerifyDelegateRefusesALinkedFolder(t *testing.T) {
	unixOnly(t)
	m, proj, wt := newDelegateSetup(t)
	dw, err := m.CreateDelegate(t.Context(), proj, sessA, delegA)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dw.Dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(wt.Dir, dw.Dir); err != nil {
		t.Fatal(err)
	}
	_, err = m.VerifyDelegate(proj, sessA, delegA)
	wantCode(t, err, errs.WorktreeMissing)
	if err := m.RemoveDelegate(t.Context(), proj, sessA, delegA, false); err != nil {
		t.Fatal(err)
	}
	if !exists(filepath.Join(wt.Dir, "a.txt")) {
		t.Error("removing a linked delegate folder removed its target")
	}
	if exists(dw.Dir) || gitT(t, proj, "branch", "--list", dw.Branch) != "" {
		t.Error("RemoveDelegate left the link or the branch")
	}
	if _, err := m.CreateDelegate(t.Context(), proj, sessA, "bad/id"); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("a delegation id with a slash = %v", err)
	}
}

func TestRemoveSessionDiscardsItsDelegates(t *testing.T) {
	m, proj, wt := newDelegateSetup(t)
	kept, err := m.CreateDelegate(t.Context(), proj, sessA, delegA)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(kept.Dir, "kept.txt"), "kept\n")
	if out, err := m.FinishDelegate(t.Context(), proj, sessA, delegA, "stopped", false); err != nil || out.State != DelegateKept {
		t.Fatalf("finish = %+v, %v", out, err)
	}
	running, err := m.CreateDelegate(t.Context(), proj, sessA, "0195f3c2-0000-7c3d-9e4f-d1d2d3d4d5d7")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Remove(t.Context(), proj, sessA); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{wt.Dir, running.Dir, filepath.Join(m.Base(), ProjectKey(proj), ".delegates")} {
		if exists(p) {
			t.Errorf("%s is left after the session was removed", p)
		}
	}
	if refs := gitT(t, proj, "for-each-ref", "refs/heads/pi-desktop-delegate/"); refs != "" {
		t.Errorf("delegate branches left: %s", refs)
	}
	if list := gitT(t, proj, "worktree", "list", "--porcelain"); strings.Contains(list, running.Dir) || strings.Contains(list, wt.Dir) {
		t.Errorf("git still lists: %s", list)
	}
}

func TestTwoDelegatesFromOneCheckpointBothMerge(t *testing.T) {
	m, proj, wt := newDelegateSetup(t)
	other := "0195f3c2-0000-7c3d-9e4f-d1d2d3d4d5d8"
	first, err := m.CreateDelegate(t.Context(), proj, sessA, delegA)
	if err != nil {
		t.Fatal(err)
	}
	second, err := m.CreateDelegate(t.Context(), proj, sessA, other)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(first.Dir, "a.txt"), "ONE\ntwo\nthree\nfour\nfive\n")
	write(t, filepath.Join(second.Dir, "a.txt"), "one\ntwo\nthree\nfour\nFIVE\n")
	for _, id := range []string{delegA, other} {
		out, err := m.FinishDelegate(t.Context(), proj, sessA, id, "Delegate "+id, true)
		if err != nil || out.State != DelegateMerged {
			t.Fatalf("finish %s = %+v, %v", id, out, err)
		}
	}
	if got := read(t, filepath.Join(wt.Dir, "a.txt")); got != "ONE\ntwo\nthree\nfour\nFIVE\n" {
		t.Errorf("session a.txt = %q; the second merge lost the first", got)
	}
}
