package checkpoint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
)

// TestHostileRepositoryRunsNothing: a workspace whose repository, global
// configuration and environment name programs at every place git would run
// one (hooks, core.fsmonitor, a filter with clean/smudge/process, an
// external diff, a textconv, a pager) has checkpoints taken, previewed,
// restored and undone, and none of those programs runs: each would leave a
// marker file. Attributes that would convert content (text eol=crlf) have no
// effect either: the bytes come back exactly.
func TestHostileRepositoryRunsNothing(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	marks := t.TempDir()
	evil := filepath.Join(t.TempDir(), "evil.sh")
	if err := os.WriteFile(evil, []byte("#!/bin/sh\ntouch \""+marks+"/$(basename \"$0\")-$$\"\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_EXTERNAL_DIFF", evil)
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='"+evil+"'")
	hostileConfig := strings.Join([]string{
		"[core]", "\tfsmonitor = " + evil, "\thooksPath = " + filepath.Join(f.ws, "hooks"), "\tpager = " + evil,
		"\tattributesFile = " + filepath.Join(home, "attrs"),
		"[filter \"evil\"]", "\tclean = " + evil, "\tsmudge = " + evil, "\tprocess = " + evil, "\trequired = true",
		"[diff]", "\texternal = " + evil,
		"[diff \"evil\"]", "\ttextconv = " + evil, "\tcommand = " + evil,
		"",
	}, "\n")
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(hostileConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "attrs"), []byte("* filter=evil diff=evil\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	f.write("a.txt", "alpha\r\nline\r\n", 0o644)
	f.write("b.txt", "bravo\n", 0o644)
	f.write(".gitattributes", "* filter=evil diff=evil\n*.txt text eol=crlf\n", 0o644)
	f.bash(`git init -q . && cat "$HOME/.gitconfig" >> .git/config`)
	for _, hook := range []string{"pre-commit", "post-commit", "post-checkout", "post-index-change", "reference-transaction", "pre-auto-gc", "fsmonitor-watchman"} {
		for _, dir := range []string{filepath.Join(f.ws, ".git", "hooks"), filepath.Join(f.ws, "hooks")} {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, hook), []byte("#!/bin/sh\ntouch \""+marks+"/hook-"+hook+"\"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := state(t, f.ws)

	before := f.take(checkpoint.BeforeFirstMutation)
	f.bash(`printf 'changed\n' > a.txt; rm b.txt; echo new > c.txt`)
	f.take(checkpoint.AfterBash)
	plan, err := f.svc.Preview(t.Context(), session, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Files) != 3 {
		t.Errorf("plan = %+v, want a.txt, b.txt, c.txt", plan.Files)
	}
	res, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{})
	if err != nil {
		t.Fatal(err)
	}
	if d := diffStates(want, state(t, f.ws)); d != "" {
		t.Errorf("restore left the workspace different:\n%s", d)
	}
	if got := f.read("a.txt"); got != "alpha\r\nline\r\n" {
		t.Errorf("a.txt = %q: its bytes were converted", got)
	}
	if _, err := f.svc.Restore(t.Context(), session, res.Before.ID, checkpoint.Overwrite{}); err != nil {
		t.Fatal(err)
	}
	ran, _ := os.ReadDir(marks)
	for _, e := range ran {
		t.Errorf("a hostile program ran: %s", e.Name())
	}

	// The control: plain git in the user's repository does run them, so
	// the traps are armed and the test above can fail.
	f.bash(`echo x >> a.txt; git add -A; git diff --cached >/dev/null; true`)
	if ran, _ := os.ReadDir(marks); len(ran) == 0 {
		t.Error("the control ran no hostile program: the traps are not armed")
	}
}

// TestRestoreDoesNotWriteThroughALinkedFolder: a folder of a checkpointed
// file replaced since by a link to another folder of the workspace (as
// "scripts" → ".git/hooks" would be) does not redirect the restore: nothing
// is written where the link points, and the file is reported as skipped.
func TestRestoreDoesNotWriteThroughALinkedFolder(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	f.write("scripts/hook", "#!/bin/sh\necho pwned\n", 0o755)
	f.write("other/keep.txt", "keep\n", 0o644)
	first := f.take(checkpoint.BeforeFirstMutation)
	f.bash(`rm -r scripts`)
	f.take(checkpoint.EndOfTurn)
	f.bash(`ln -s other scripts`)

	res, err := f.svc.Restore(t.Context(), session, first.ID, checkpoint.Overwrite{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(f.ws, "other", "hook")); !os.IsNotExist(err) {
		t.Errorf("the restore wrote other/hook through the link scripts → other (lstat: %v)", err)
	}
	if fi, err := os.Lstat(filepath.Join(f.ws, "scripts")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("scripts is no longer the link: %v %v", fi, err)
	}
	var skipped bool
	for _, s := range res.Skipped {
		if s.Path == "scripts/hook" && s.Skipped != "" {
			skipped = true
		}
	}
	for _, r := range res.Restored {
		if r.Path == "scripts/hook" {
			t.Errorf("scripts/hook reported as restored: %+v", r)
		}
	}
	if !skipped {
		t.Errorf("scripts/hook not reported as skipped: restored %+v, skipped %+v", res.Restored, res.Skipped)
	}

	// With overwrite the link goes first (deletions run first), and the
	// file comes back in a real folder.
	if _, err := f.svc.Restore(t.Context(), session, first.ID, checkpoint.OverwriteAll()); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(f.ws, "scripts")); err != nil || !fi.IsDir() {
		t.Errorf("scripts after overwrite: %v %v, want a real folder", fi, err)
	}
	if got := f.read("scripts/hook"); got != "#!/bin/sh\necho pwned\n" {
		t.Errorf("scripts/hook = %q after overwrite", got)
	}
	if _, err := os.Lstat(filepath.Join(f.ws, "other", "hook")); !os.IsNotExist(err) {
		t.Errorf("other/hook exists after overwrite (lstat: %v)", err)
	}
}

// TestSwappedFolderDuringRestoreIsNotFollowed: a folder swapped for a link
// after the restore checked the path, right before the write (the seam),
// does not redirect the write into where the link points: the write goes
// into the folder that was checked (moved aside), and a deletion likewise.
func TestSwappedFolderDuringRestoreIsNotFollowed(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	f.write("scripts/run.sh", "v1\n", 0o755)
	f.write("scripts/old.txt", "old\n", 0o644)
	f.write("hooks/keep.txt", "keep\n", 0o644)
	f.write("hooks/gone.txt", "the link's own file\n", 0o644)
	before := f.takeCall(checkpoint.BeforeFirstMutation, "c1")
	f.bash(`echo v2 > scripts/run.sh; echo new > scripts/gone.txt; rm scripts/old.txt`)
	f.takeCall(checkpoint.AfterBash, "c1")

	swapped := false
	checkpoint.SetBeforeWrite(f.svc, func(p string) {
		if swapped || !strings.HasPrefix(p, "scripts/") {
			return
		}
		swapped = true
		f.bash(`mv scripts scripts.moved && ln -s hooks scripts`)
	})
	res, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{})
	if err != nil {
		t.Fatal(err)
	}
	if !swapped {
		t.Fatal("the seam never ran")
	}
	got := state(t, filepath.Join(f.ws, "hooks"))
	want := map[string]string{"keep.txt": state(t, f.ws)["hooks/keep.txt"], "gone.txt": state(t, f.ws)["hooks/gone.txt"]}
	if d := diffStates(want, got); d != "" {
		t.Errorf("the restore wrote or deleted through the swapped link scripts → hooks:\n%s", d)
	}
	if fi, err := os.Lstat(filepath.Join(f.ws, "scripts")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("scripts is no longer the swapped-in link: %v %v", fi, err)
	}
	// The first path (a deletion: they go first) went through the folder
	// it had checked; the later ones meet the link and are left alone.
	if _, err := os.Lstat(filepath.Join(f.ws, "scripts.moved", "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("scripts.moved/gone.txt is still there: %v", err)
	}
	skipped := changedPaths(res.Skipped)
	for _, p := range []string{"scripts/run.sh", "scripts/old.txt"} {
		if skipped[p].Skipped == "" {
			t.Errorf("%s not reported as skipped: restored %+v, skipped %+v", p, res.Restored, res.Skipped)
		}
	}
}
