package checkpoint_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
)

// takeFor is take with the call's message and tool call recorded.
func (f *fixture) takeFor(kind checkpoint.Kind, message, call string) checkpoint.Checkpoint {
	f.t.Helper()
	cp, err := f.svc.Take(f.t.Context(), checkpoint.Point{SessionID: session, TurnID: "t1", MessageID: message, ToolCallID: call, Kind: kind, Workspace: f.ws})
	if err != nil {
		f.t.Fatal(err)
	}
	return cp
}

func filesByPath(files []checkpoint.CommandFile) map[string]checkpoint.CommandFile {
	m := map[string]checkpoint.CommandFile{}
	for _, f := range files {
		m[f.Path] = f
	}
	return m
}

// TestCommandChangesAreTheDiffAroundEachBashCall: with real git, each
// after-bash checkpoint lists the files its command created, modified,
// deleted, chmodded or turned into a link, with the diff from before the
// call to after it; a call that changed nothing is left out.
func TestCommandChangesAreTheDiffAroundEachBashCall(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	seed(f)
	f.gitInit()
	f.takeFor(checkpoint.BeforeFirstMutation, "m1", "c1")
	f.bash(`sed -i 's/alpha/ALPHA/' a.txt && echo new > new.txt && rm b.txt && chmod -x run.sh && rm e.txt && ln -s a.txt e.txt`)
	first := f.takeFor(checkpoint.AfterBash, "m1", "c1")
	f.bash(`true`)
	f.takeFor(checkpoint.AfterBash, "m1", "c2")
	f.bash(`echo more >> new.txt`)
	third := f.takeFor(checkpoint.AfterBash, "m2", "c3")
	f.takeFor(checkpoint.EndOfTurn, "", "")

	got, err := f.svc.CommandChanges(t.Context(), session)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d commands, want the two that changed files: %+v", len(got), got)
	}
	if got[0].CheckpointID != first.ID || got[0].ToolCallID != "c1" || got[0].MessageID != "m1" || !got[0].Captured || got[0].Since == "" {
		t.Errorf("first = %+v", got[0])
	}
	files := filesByPath(got[0].Files)
	for path, status := range map[string]string{
		"a.txt": checkpoint.StatusModified, "new.txt": checkpoint.StatusAdded, "b.txt": checkpoint.StatusDeleted,
		"run.sh": checkpoint.StatusModified, "e.txt": checkpoint.StatusModified,
	} {
		if files[path].Status != status {
			t.Errorf("%s: status %q, want %q", path, files[path].Status, status)
		}
	}
	if len(files) != 5 {
		t.Errorf("files = %v, want exactly the five the command changed", got[0].Files)
	}
	if a := files["a.txt"]; a.Additions != 1 || a.Deletions != 1 || !strings.Contains(a.Diff, "-alpha") || !strings.Contains(a.Diff, "+ALPHA") {
		t.Errorf("a.txt diff = %+v", a)
	}
	if r := files["run.sh"]; r.ModeBefore != "100755" || r.ModeAfter != "100644" {
		t.Errorf("run.sh modes = %q → %q", r.ModeBefore, r.ModeAfter)
	}
	if e := files["e.txt"]; e.ModeAfter != "120000" || !strings.Contains(e.Note, "link") {
		t.Errorf("e.txt = %+v, want a link with a note", e)
	}
	if b := files["b.txt"]; b.Deletions != 1 || b.ModeAfter != "" {
		t.Errorf("b.txt = %+v", b)
	}
	// The third call is compared with the second's checkpoint, not the turn's first.
	if got[1].CheckpointID != third.ID || got[1].MessageID != "m2" || len(got[1].Files) != 1 || got[1].Files[0].Path != "new.txt" ||
		got[1].Files[0].Status != checkpoint.StatusModified || got[1].Files[0].Additions != 1 {
		t.Errorf("third = %+v", got[1])
	}
	if state := state(t, f.ws); state["new.txt"] == "" {
		t.Error("listing changed the workspace")
	}
}

// TestCommandChangesOfANotCapturedCall: a call whose snapshot was abandoned
// is listed with its reason and no files.
func TestCommandChangesOfANotCapturedCall(t *testing.T) {
	slow := false
	f := newFixture(t, checkpoint.Options{Slow: func(ctx context.Context) error {
		if slow {
			return errors.New("injected failure")
		}
		return nil
	}})
	seed(f)
	f.takeFor(checkpoint.BeforeFirstMutation, "m1", "c1")
	f.bash(`echo x > x.txt`)
	slow = true
	f.takeFor(checkpoint.AfterBash, "m1", "c1")
	got, err := f.svc.CommandChanges(t.Context(), session)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Captured || got[0].Reason == "" || len(got[0].Files) != 0 {
		t.Fatalf("got %+v, want one not-captured call with its reason", got)
	}
}

// TestCommandChangesLeaveOutAnEarlierWriteOfTheTurn: a Write made after the
// turn's first checkpoint and before a command is the Write's, not the
// command's: with the call's before-bash snapshot the command lists only
// what it changed, while Since still names the restore target before it.
// When that snapshot was not captured the listing falls back to Since.
func TestCommandChangesLeaveOutAnEarlierWriteOfTheTurn(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	seed(f)
	f.gitInit()
	start := f.takeFor(checkpoint.BeforeFirstMutation, "m1", "w1")
	f.write("written.txt", "by the Write tool\n", 0o644)
	f.svc.NoteWrite(session, f.ws, f.ws+"/written.txt", nil)
	f.takeFor(checkpoint.BeforeBash, "m1", "c1")
	f.bash(`sed -i 's/alpha/ALPHA/' a.txt`)
	f.takeFor(checkpoint.AfterBash, "m1", "c1")

	got, err := f.svc.CommandChanges(t.Context(), session)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d commands: %+v", len(got), got)
	}
	if files := filesByPath(got[0].Files); len(files) != 1 || files["a.txt"].Status != checkpoint.StatusModified {
		t.Errorf("files = %+v, want only a.txt (written.txt is the Write's)", got[0].Files)
	}
	if got[0].Since != start.ID {
		t.Errorf("Since = %q, want the turn's first checkpoint %q", got[0].Since, start.ID)
	}
}
