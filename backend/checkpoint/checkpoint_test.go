package checkpoint_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
)

// seed is the workspace a turn starts from.
func seed(f *fixture) {
	f.write("a.txt", "alpha\n", 0o644)
	f.write("b.txt", "bravo\n", 0o644)
	f.write("dir/c.txt", "charlie\n", 0o644)
	f.write("run.sh", "#!/bin/sh\necho hi\n", 0o755)
	f.write("plain.sh", "echo plain\n", 0o644)
	f.write("e.txt", "echo\n", 0o644)
	f.write("crlf.txt", "one\r\ntwo\r\n", 0o644)
	if err := os.Symlink("a.txt", filepath.Join(f.ws, "link")); err != nil {
		f.t.Fatal(err)
	}
}

// bashTurn is what a turn's Bash calls do: create, modify, delete, rename,
// chmod both ways, a file replaced by a link, a link retargeted, a file
// replaced by a folder.
const bashTurn = `set -e
echo new > new.txt
sed -i 's/alpha/ALPHA/' a.txt
rm b.txt
mv dir/c.txt dir/d.txt
chmod -x run.sh
chmod +x plain.sh
rm e.txt && ln -s a.txt e.txt
ln -sfn b.txt link
printf 'one\ntwo\n' > crlf.txt
mkdir -p made/deep && echo x > made/deep/x.txt`

func TestRestoreBringsBackWhatBashChanged(t *testing.T) {
	for _, repo := range []bool{false, true} {
		name := "plain folder"
		if repo {
			name = "git repository"
		}
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, checkpoint.Options{})
			seed(f)
			if repo {
				f.gitInit()
			}
			userGit := state(t, filepath.Join(f.ws, ".git"))
			want := state(t, f.ws)
			before := f.take(checkpoint.BeforeFirstMutation)
			f.bash(bashTurn)
			after := f.take(checkpoint.AfterBash)
			if after.FilesChanged < 10 {
				t.Errorf("after-bash FilesChanged = %d, want every path Bash touched", after.FilesChanged)
			}
			bashed := state(t, f.ws)

			plan, err := f.svc.Preview(t.Context(), session, before.ID)
			if err != nil {
				t.Fatal(err)
			}
			files := changedPaths(plan.Files)
			for path, action := range map[string]string{
				"new.txt": checkpoint.ActionDelete, "a.txt": checkpoint.ActionModify, "b.txt": checkpoint.ActionCreate,
				"dir/c.txt": checkpoint.ActionCreate, "dir/d.txt": checkpoint.ActionDelete, "run.sh": checkpoint.ActionModify,
				"plain.sh": checkpoint.ActionModify, "e.txt": checkpoint.ActionModify, "link": checkpoint.ActionModify,
				"crlf.txt": checkpoint.ActionModify, "made/deep/x.txt": checkpoint.ActionDelete,
			} {
				if files[path].Action != action {
					t.Errorf("preview of %s: action %q, want %q", path, files[path].Action, action)
				}
			}
			if d := files["a.txt"].Diff; !strings.Contains(d, "-ALPHA") || !strings.Contains(d, "+alpha") {
				t.Errorf("a.txt diff does not show ALPHA → alpha:\n%s", d)
			}
			if plan.Conflicts != 0 {
				t.Errorf("preview: %d conflicts, want none (nothing changed after the latest checkpoint)", plan.Conflicts)
			}
			if got := state(t, f.ws); diffStates(bashed, got) != "" {
				t.Fatalf("preview changed the workspace:\n%s", diffStates(bashed, got))
			}

			res, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Skipped) != 0 {
				t.Errorf("skipped %+v", res.Skipped)
			}
			if d := diffStates(want, state(t, f.ws)); d != "" {
				t.Errorf("after restore the workspace differs from the checkpoint:\n%s", d)
			}
			if d := diffStates(userGit, state(t, filepath.Join(f.ws, ".git"))); d != "" {
				t.Errorf("the user's .git changed:\n%s", d)
			}

			// Undo: restoring the checkpoint the restore took first.
			if res.Before.Kind != checkpoint.BeforeRestore || !res.Before.Captured {
				t.Fatalf("before = %+v", res.Before)
			}
			undo, err := f.svc.Restore(t.Context(), session, res.Before.ID, checkpoint.Overwrite{})
			if err != nil {
				t.Fatal(err)
			}
			if len(undo.Skipped) != 0 {
				t.Errorf("undo skipped %+v", undo.Skipped)
			}
			if d := diffStates(bashed, state(t, f.ws)); d != "" {
				t.Errorf("after undo the workspace differs from what Bash left:\n%s", d)
			}
		})
	}
}

func TestConflictAfterTheTurnIsReportedAndKept(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	seed(f)
	before := f.take(checkpoint.BeforeFirstMutation)
	f.bash(`echo agent >> a.txt; echo agent >> b.txt`)
	f.take(checkpoint.AfterBash)
	f.take(checkpoint.EndOfTurn)
	f.write("b.txt", "the user's edit\n", 0o644) // after the turn, in their editor

	plan, err := f.svc.Preview(t.Context(), session, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	files := changedPaths(plan.Files)
	if plan.Conflicts != 1 || !files["b.txt"].Conflict || files["a.txt"].Conflict {
		t.Fatalf("conflicts = %d, files = %+v; want b.txt alone", plan.Conflicts, plan.Files)
	}
	res, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{})
	if err != nil {
		t.Fatal(err)
	}
	if f.read("a.txt") != "alpha\n" {
		t.Errorf("a.txt = %q, want it restored", f.read("a.txt"))
	}
	if f.read("b.txt") != "the user's edit\n" {
		t.Errorf("b.txt = %q, the user's edit was overwritten", f.read("b.txt"))
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Path != "b.txt" || !res.Skipped[0].Conflict || res.Skipped[0].Skipped == "" {
		t.Errorf("skipped = %+v, want b.txt as a conflict", res.Skipped)
	}

	// Overwrite replaces it, and the restore before it can still be undone.
	if _, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.OverwriteAll()); err != nil {
		t.Fatal(err)
	}
	if f.read("b.txt") != "bravo\n" {
		t.Errorf("b.txt = %q after overwrite", f.read("b.txt"))
	}
}

// TestOverwriteIsChosenFileByFile: with two conflicts, overwriting one of
// them replaces that file alone; the other stays the user's and is listed
// as kept.
func TestOverwriteIsChosenFileByFile(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	seed(f)
	before := f.take(checkpoint.BeforeFirstMutation)
	f.bash(`echo agent >> a.txt; echo agent >> b.txt`)
	f.take(checkpoint.AfterBash)
	f.take(checkpoint.EndOfTurn)
	f.write("a.txt", "the user's a\n", 0o644)
	f.write("b.txt", "the user's b\n", 0o644)

	res, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{Paths: []string{"b.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if f.read("a.txt") != "the user's a\n" || f.read("b.txt") != "bravo\n" {
		t.Errorf("a.txt = %q (want kept), b.txt = %q (want overwritten)", f.read("a.txt"), f.read("b.txt"))
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Path != "a.txt" || !res.Skipped[0].Conflict {
		t.Errorf("skipped = %+v, want a.txt alone", res.Skipped)
	}
	if restored := changedPaths(res.Restored); !restored["b.txt"].Conflict {
		t.Errorf("restored = %+v, want b.txt listed as an overwritten conflict", res.Restored)
	}
}

func TestIgnoredAndOversizedFilesAreUntouched(t *testing.T) {
	f := newFixture(t, checkpoint.Options{MaxFileSize: 1024, Exclude: ""})
	f.write(".gitignore", "*.log\n", 0o644)
	f.write("a.txt", "alpha\n", 0o644)
	f.write("app.log", "log 1\n", 0o644)
	f.write("big.bin", strings.Repeat("x", 2000), 0o644)
	f.write("node_modules/pkg/index.js", "v1\n", 0o644)
	f.write(".venv/bin/python", "v1\n", 0o644)
	f.write("grows.txt", "small\n", 0o644)
	before := f.take(checkpoint.BeforeFirstMutation)
	f.bash(`echo changed > a.txt; echo log 2 >> app.log; echo more >> big.bin; echo v2 > node_modules/pkg/index.js
echo v2 > .venv/bin/python; head -c 3000 /dev/zero > grows.txt; head -c 3000 /dev/zero > newbig.bin; echo n > new.log`)
	f.take(checkpoint.AfterBash)
	kept := map[string]string{}
	for _, p := range []string{"app.log", "big.bin", "node_modules/pkg/index.js", ".venv/bin/python", "grows.txt", "newbig.bin", "new.log"} {
		kept[p] = f.read(p)
	}
	res, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{})
	if err != nil {
		t.Fatal(err)
	}
	if f.read("a.txt") != "alpha\n" {
		t.Errorf("a.txt not restored: %q", f.read("a.txt"))
	}
	for p, content := range kept {
		if got := f.read(p); got != content {
			t.Errorf("%s was touched by the restore", p)
		}
	}
	// grows.txt was captured small, then excluded for its size: the restore
	// says it left it alone rather than overwrite it.
	var saw bool
	for _, s := range res.Skipped {
		saw = saw || s.Path == "grows.txt"
	}
	if !saw {
		t.Errorf("grows.txt not reported as skipped: %+v", res.Skipped)
	}
}

func TestDataFolderInsideTheWorkspaceIsNotCaptured(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	data := filepath.Join(f.ws, ".pi-data")
	f.svc = checkpoint.New(f.db.DB(), f.git, f.shadows(), checkpoint.Options{Exclude: data})
	f.write("a.txt", "a\n", 0o644)
	f.write(".pi-data/pi.db", "db\n", 0o644)
	before := f.take(checkpoint.BeforeFirstMutation)
	f.write(".pi-data/pi.db", "db changed\n", 0o644)
	f.write("a.txt", "b\n", 0o644) // the agent's Write
	f.svc.NoteWrite(session, f.ws, filepath.Join(f.ws, "a.txt"), nil)
	f.take(checkpoint.EndOfTurn)
	if _, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{}); err != nil {
		t.Fatal(err)
	}
	if f.read(".pi-data/pi.db") != "db changed\n" || f.read("a.txt") != "a\n" {
		t.Errorf("data folder %q, a.txt %q", f.read(".pi-data/pi.db"), f.read("a.txt"))
	}
}

func TestNestedRepositoryIsLeftOut(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	f.write("a.txt", "a\n", 0o644)
	before := f.take(checkpoint.BeforeFirstMutation)
	f.bash(`mkdir vendored && cd vendored && git init -q . && echo inner > inner.txt`)
	f.take(checkpoint.AfterBash)
	plan, err := f.svc.Preview(t.Context(), session, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Files) != 0 {
		t.Errorf("a nested repository shows in the plan: %+v", plan.Files)
	}
	if _, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{}); err != nil {
		t.Fatal(err)
	}
	if f.read("vendored/inner.txt") != "inner\n" {
		t.Error("the nested repository was touched")
	}
}

func TestSlowSnapshotIsAbandonedAtTheCap(t *testing.T) {
	t.Run("injected delay", func(t *testing.T) {
		f := newFixture(t, checkpoint.Options{})
		f.svc = checkpoint.New(f.db.DB(), f.git, f.shadows(), checkpoint.Options{Cap: 200 * time.Millisecond,
			Slow: func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }})
		start := time.Now()
		cp, err := f.svc.Take(t.Context(), checkpoint.Point{SessionID: session, Kind: checkpoint.AfterBash, Workspace: f.ws})
		if err != nil {
			t.Fatal(err)
		}
		// Slow never returns by itself: a Take that ends at all was cut at
		// the cap; the bound is loose for a loaded machine.
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("Take took %s with a 200ms cap", took)
		}
		if cp.Captured || !strings.Contains(cp.Reason, "abandoned") {
			t.Errorf("checkpoint = %+v, want not captured, abandoned", cp)
		}
		list, _ := f.svc.List(t.Context(), session)
		if len(list) != 1 || list[0].Captured {
			t.Errorf("list = %+v, want the not-captured row", list)
		}
		if _, err := f.svc.Restore(t.Context(), session, cp.ID, checkpoint.Overwrite{}); errs.CodeOf(err) != errs.CheckpointNotCaptured {
			t.Errorf("restore of a not-captured checkpoint: %v", err)
		}
	})
	t.Run("slow git killed", func(t *testing.T) {
		f := newFixture(t, checkpoint.Options{})
		f.write("a.txt", "a\n", 0o644)
		// A git that hangs in a child process: the process group goes.
		wrapper := filepath.Join(f.data, "slowgit")
		gitPath := mustLook(t)
		if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nsleep 30\nexec "+gitPath+" \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		slow := &worktree.Git{Path: wrapper, HooksDir: f.git.HooksDir}
		f.svc = checkpoint.New(f.db.DB(), slow, f.shadows(), checkpoint.Options{Cap: 300 * time.Millisecond})
		start := time.Now()
		cp, err := f.svc.Take(t.Context(), checkpoint.Point{SessionID: session, Kind: checkpoint.AfterBash, Workspace: f.ws})
		if err != nil {
			t.Fatal(err)
		}
		// The wrapper sleeps 30 s in a child: well under that, its whole
		// process group was killed at the cap.
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("Take took %s with a 300ms cap", took)
		}
		if cp.Captured {
			t.Errorf("checkpoint captured through a git that sleeps 30s")
		}
		// The next snapshot with a working git is not blocked by leftovers.
		f.svc = checkpoint.New(f.db.DB(), f.git, f.shadows(), checkpoint.Options{})
		f.take(checkpoint.AfterBash)
	})
}

func TestRetentionKeepsTheNewest(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	f.svc = checkpoint.New(f.db.DB(), f.git, f.shadows(), checkpoint.Options{Keep: 3})
	var ids []string
	for i := range 5 {
		f.write("a.txt", strings.Repeat("x", i+1), 0o644)
		ids = append(ids, f.take(checkpoint.AfterBash).ID)
	}
	list, err := f.svc.List(t.Context(), session)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].ID != ids[4] || list[2].ID != ids[2] {
		t.Errorf("list = %v, want the 3 newest first", list)
	}
}

// A restore's undo outlives the retention of ordinary checkpoints.
func TestRetentionKeepsARestoresUndo(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	f.svc = checkpoint.New(f.db.DB(), f.git, f.shadows(), checkpoint.Options{Keep: 3})
	f.write("a.txt", "first", 0o644)
	first := f.take(checkpoint.AfterBash)
	f.write("a.txt", "mine", 0o644)
	f.take(checkpoint.AfterBash)
	res, err := f.svc.Restore(t.Context(), session, first.ID, checkpoint.Overwrite{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		f.write("b.txt", strings.Repeat("y", i+1), 0o644)
		f.take(checkpoint.AfterBash)
	}
	list, err := f.svc.List(t.Context(), session)
	if err != nil {
		t.Fatal(err)
	}
	var undo bool
	for _, cp := range list {
		undo = undo || cp.Kind == checkpoint.BeforeRestore
	}
	if len(list) != 4 || !undo {
		t.Errorf("list = %+v, want the 3 newest and the restore's undo %+v", list, res)
	}
}

func TestSessionDeleteRemovesItsCheckpoints(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	f.addSession("s2")
	f.write("a.txt", "a\n", 0o644)
	f.take(checkpoint.BeforeFirstMutation)
	if _, err := f.svc.Take(t.Context(), checkpoint.Point{SessionID: "s2", Kind: checkpoint.AfterBash, Workspace: f.ws}); err != nil {
		t.Fatal(err)
	}
	refs, _ := filepath.Glob(filepath.Join(f.shadows(), "*", "git", "refs", "sessions", "*"))
	if len(refs) != 2 {
		t.Fatalf("refs = %v, want one per session", refs)
	}
	if err := f.svc.DeleteSession(t.Context(), session); err != nil {
		t.Fatal(err)
	}
	if list, _ := f.svc.List(t.Context(), session); len(list) != 0 {
		t.Errorf("session %s still lists %d checkpoints", session, len(list))
	}
	if list, _ := f.svc.List(t.Context(), "s2"); len(list) != 1 {
		t.Errorf("the other session lost its checkpoints: %v", list)
	}
	refs, _ = filepath.Glob(filepath.Join(f.shadows(), "*", "git", "refs", "sessions", "*"))
	if len(refs) != 1 || filepath.Base(refs[0]) != "s2" {
		t.Errorf("refs after delete = %v", refs)
	}

	// The start-up sweep: s2's row goes with its session (the cascade), and
	// the shadow no row refers to goes with it.
	if _, err := f.db.DB().ExecContext(t.Context(), "DELETE FROM sessions WHERE id = 's2'"); err != nil {
		t.Fatal(err)
	}
	r, err := f.svc.Sweep(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if r.Shadows != 1 {
		t.Errorf("sweep = %+v, want the orphan shadow removed", r)
	}
	if left, _ := os.ReadDir(f.shadows()); len(left) != 0 {
		t.Errorf("shadows left: %v", left)
	}
}

func TestUnknownCheckpoint(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	if _, err := f.svc.Preview(t.Context(), session, "cp_nope"); errs.CodeOf(err) != errs.CheckpointNotFound {
		t.Errorf("preview of an unknown id: %v", err)
	}
	f.addSession("other")
	cp := f.take(checkpoint.AfterBash)
	if _, err := f.svc.Restore(t.Context(), "other", cp.ID, checkpoint.Overwrite{}); errs.CodeOf(err) != errs.CheckpointNotFound {
		t.Errorf("another session's checkpoint: %v", err)
	}
}

// TestNewIgnoreRuleLeavesTheIndex: a file captured before the project
// ignored it is, once ignored, neither captured nor restored.
func TestNewIgnoreRuleLeavesTheIndex(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	f.write("a.txt", "a\n", 0o644)
	f.write("gen/out.txt", "v1\n", 0o644)
	before := f.take(checkpoint.BeforeFirstMutation)
	f.bash(`echo 'gen/' > .gitignore; echo v2 > gen/out.txt; echo b > a.txt`)
	f.take(checkpoint.AfterBash)
	plan, err := f.svc.Preview(t.Context(), session, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	files := changedPaths(plan.Files)
	if _, ok := files["gen/out.txt"]; ok && files["gen/out.txt"].Skipped == "" {
		t.Errorf("a file ignored now would be restored: %+v", files["gen/out.txt"])
	}
	if _, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{}); err != nil {
		t.Fatal(err)
	}
	if f.read("gen/out.txt") != "v2\n" || f.read("a.txt") != "a\n" {
		t.Errorf("gen/out.txt = %q, a.txt = %q", f.read("gen/out.txt"), f.read("a.txt"))
	}
}

// TestShadowHistoryIsValidGit: the commits a snapshot writes itself are
// ones git accepts (fsck --strict), chained per session, and a snapshot
// with nothing changed adds no commit.
func TestShadowHistoryIsValidGit(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	f.write("a.txt", "1\n", 0o644)
	f.take(checkpoint.BeforeFirstMutation)
	f.write("a.txt", "2\n", 0o644)
	f.take(checkpoint.AfterBash)
	f.take(checkpoint.AfterBash) // nothing changed
	f.write("b.txt", "b\n", 0o755)
	f.take(checkpoint.EndOfTurn)
	dirs, _ := filepath.Glob(filepath.Join(f.shadows(), "*", "git"))
	if len(dirs) != 1 {
		t.Fatalf("shadows = %v", dirs)
	}
	plain := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"--git-dir", dirs[0]}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	plain("fsck", "--strict", "--no-dangling")
	if n := plain("rev-list", "--count", "refs/sessions/"+session); n != "3" {
		t.Errorf("the session's chain has %s commits, want 3", n)
	}
	if got := plain("show", "--no-ext-diff", "--no-textconv", "refs/sessions/"+session+":b.txt"); got != "b" {
		t.Errorf("b.txt in the newest checkpoint = %q", got)
	}
	if mode := plain("ls-tree", "refs/sessions/"+session, "b.txt"); !strings.HasPrefix(mode, "100755") {
		t.Errorf("b.txt entry = %q, want executable", mode)
	}
}

// A snapshot does not wait past its cap for another one (or a restore) of
// the same folder: it is recorded as not captured and the tool goes on.
func TestBusyShadowIsNotWaitedForPastTheCap(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	hold, entered := make(chan struct{}), make(chan struct{})
	var once sync.Once
	f.svc = checkpoint.New(f.db.DB(), f.git, f.shadows(), checkpoint.Options{Cap: 300 * time.Millisecond,
		Slow: func(ctx context.Context) error { once.Do(func() { close(entered) }); <-hold; return ctx.Err() }})
	first := make(chan struct{})
	go func() {
		defer close(first)
		_, _ = f.svc.Take(context.Background(), checkpoint.Point{SessionID: session, Kind: checkpoint.AfterBash, Workspace: f.ws})
	}()
	<-entered // the first snapshot holds the folder's lock
	type taken struct {
		cp  checkpoint.Checkpoint
		err error
	}
	second := make(chan taken, 1)
	go func() {
		cp, err := f.svc.Take(t.Context(), checkpoint.Point{SessionID: session, Kind: checkpoint.BeforeFirstMutation, Workspace: f.ws})
		second <- taken{cp, err}
	}()
	select {
	case got := <-second:
		close(hold)
		<-first
		if got.err != nil || got.cp.Captured || !strings.Contains(got.cp.Reason, "still running") {
			t.Errorf("second checkpoint = %+v, %v; want not captured while the first runs", got.cp, got.err)
		}
	case <-time.After(20 * time.Second):
		close(hold)
		<-first
		t.Fatal("a checkpoint waited for a busy folder far past its 300ms cap")
	}
}
