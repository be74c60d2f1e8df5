package checkpoint_test

import (
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
)

func (f *fixture) takeCall(kind checkpoint.Kind, call string) checkpoint.Checkpoint {
	f.t.Helper()
	cp, err := f.svc.Take(f.t.Context(), checkpoint.Point{SessionID: session, TurnID: "t1", ToolCallID: call, Kind: kind, Workspace: f.ws})
	if err != nil {
		f.t.Fatal(err)
	}
	if !cp.Captured {
		f.t.Fatalf("checkpoint %s not captured: %s", kind, cp.Reason)
	}
	return cp
}

// agentWrite is what the Write tool does, and what the host notes of it.
func (f *fixture) agentWrite(rel, content string) {
	f.t.Helper()
	f.write(rel, content, 0o644)
	f.svc.NoteWrite(session, f.ws, filepath.Join(f.ws, filepath.FromSlash(rel)), []byte(content))
}

func conflictSet(files []checkpoint.FileChange) map[string]bool {
	m := map[string]bool{}
	for _, f := range files {
		if f.Conflict {
			m[f.Path] = true
		}
	}
	return m
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// TestUserEditDuringATurnIsAConflict: a user's edit made between two tool
// calls of a turn lands in the next checkpoint, but it is still theirs: a
// restore to before the turn reports it as a conflict and keeps it, while
// everything the agent's commands and writes changed comes back. An edit
// the user makes after the agent's Write of the same file is theirs too.
func TestUserEditDuringATurnIsAConflict(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	for _, name := range []string{"a.txt", "b.txt", "c.txt", "d.txt", "w.txt"} {
		f.write(name, name+" before\n", 0o644)
	}
	before := f.takeCall(checkpoint.BeforeFirstMutation, "c1")
	f.bash(`echo agent >> a.txt`)
	f.takeCall(checkpoint.AfterBash, "c1")
	f.write("b.txt", "the user's edit\n", 0o644) // their editor, between two calls
	f.takeCall(checkpoint.BeforeBash, "c2")
	f.bash(`echo agent >> c.txt; rm d.txt`)
	f.takeCall(checkpoint.AfterBash, "c2")
	f.agentWrite("x.txt", "new from the agent\n")
	f.agentWrite("w.txt", "the agent's write\n")
	f.write("w.txt", "the user's fix of the agent's write\n", 0o644)
	f.takeCall(checkpoint.EndOfTurn, "")

	want := map[string]bool{"b.txt": true, "w.txt": true}
	plan, err := f.svc.Preview(t.Context(), session, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := conflictSet(plan.Files); !sameSet(got, want) || plan.Conflicts != len(want) {
		t.Fatalf("preview conflicts = %v (%d), want %v; files %+v", got, plan.Conflicts, want, plan.Files)
	}
	res, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{})
	if err != nil {
		t.Fatal(err)
	}
	if got := conflictSet(res.Skipped); !sameSet(got, want) || len(res.Skipped) != len(want) {
		t.Errorf("skipped = %+v, want the conflicts %v alone", res.Skipped, want)
	}
	for name, content := range map[string]string{
		"a.txt": "a.txt before\n", "c.txt": "c.txt before\n", "d.txt": "d.txt before\n",
		"b.txt": "the user's edit\n", "w.txt": "the user's fix of the agent's write\n",
	} {
		if got := f.read(name); got != content {
			t.Errorf("%s = %q, want %q", name, got, content)
		}
	}
	if got := state(t, f.ws)["x.txt"]; got != "" {
		t.Errorf("x.txt the agent wrote is still there: %s", got)
	}

	// The user's edits stay theirs across the restore: overwrite alone
	// replaces them.
	res, err = f.svc.Restore(t.Context(), session, before.ID, checkpoint.OverwriteAll())
	if err != nil {
		t.Fatal(err)
	}
	if f.read("b.txt") != "b.txt before\n" || f.read("w.txt") != "w.txt before\n" || len(res.Skipped) != 0 {
		t.Errorf("overwrite: b.txt %q, w.txt %q, skipped %+v", f.read("b.txt"), f.read("w.txt"), res.Skipped)
	}
}

// TestPendingWritesAreTheAgents: a Write since the latest checkpoint (the
// turn still running) is the agent's in a preview, and a user's edit since
// then is not; a restore keeps the distinction (its before-restore
// checkpoint keeps the pending writes).
func TestPendingWritesAreTheAgents(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	f.write("a.txt", "a\n", 0o644)
	f.write("u.txt", "u\n", 0o644)
	before := f.takeCall(checkpoint.BeforeFirstMutation, "c1")
	f.agentWrite("a.txt", "agent\n")
	f.write("u.txt", "user\n", 0o644)

	plan, err := f.svc.Preview(t.Context(), session, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := conflictSet(plan.Files), map[string]bool{"u.txt": true}; !sameSet(got, want) {
		t.Fatalf("preview conflicts = %v, want %v", got, want)
	}
	res, err := f.svc.Restore(t.Context(), session, before.ID, checkpoint.Overwrite{})
	if err != nil {
		t.Fatal(err)
	}
	if f.read("a.txt") != "a\n" || f.read("u.txt") != "user\n" || len(res.Skipped) != 1 || !res.Skipped[0].Conflict {
		t.Errorf("a.txt %q, u.txt %q, skipped %+v", f.read("a.txt"), f.read("u.txt"), res.Skipped)
	}
}

// TestNoteWriteKeepsTheBytesTheToolReadBack: an edit the user makes
// between the agent's write and the host's note of it is the user's: the
// note is of the bytes the tool read back, not of the file a moment later.
// Without those bytes the note reads the file, as before.
func TestNoteWriteKeepsTheBytesTheToolReadBack(t *testing.T) {
	for _, tc := range []struct {
		name         string
		landed       []byte
		wantConflict bool
	}{
		{"bytes read back", []byte("agent\n"), true},
		{"no bytes: the file is read", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, checkpoint.Options{})
			f.write("a.txt", "a\n", 0o644)
			before := f.takeCall(checkpoint.BeforeFirstMutation, "c1")
			f.write("a.txt", "agent\n", 0o644)
			f.write("a.txt", "the user's quick fix\n", 0o644)
			f.svc.NoteWrite(session, f.ws, filepath.Join(f.ws, "a.txt"), tc.landed)
			f.takeCall(checkpoint.EndOfTurn, "")
			plan, err := f.svc.Preview(t.Context(), session, before.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := conflictSet(plan.Files)["a.txt"]; got != tc.wantConflict {
				t.Errorf("a.txt conflict = %v, want %v; files %+v", got, tc.wantConflict, plan.Files)
			}
		})
	}
}

// TestWriteOutsideTheWorkspaceIsNotNoted: NoteWrite ignores a path that is
// not inside the workspace (another root), and a missing file.
func TestWriteOutsideTheWorkspaceIsNotNoted(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	f.write("a.txt", "a\n", 0o644)
	before := f.takeCall(checkpoint.BeforeFirstMutation, "c1")
	f.write("a.txt", "changed\n", 0o644)
	f.svc.NoteWrite(session, f.ws, filepath.Join(f.data, "a.txt"), nil)
	f.svc.NoteWrite(session, f.ws, filepath.Join(f.ws, "..", filepath.Base(f.ws)+"-other", "a.txt"), nil)
	f.svc.NoteWrite(session, f.ws, filepath.Join(f.ws, "missing.txt"), nil)
	plan, err := f.svc.Preview(t.Context(), session, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := conflictSet(plan.Files); !got["a.txt"] {
		t.Errorf("a.txt changed by someone else is not a conflict: %+v", plan.Files)
	}
}
