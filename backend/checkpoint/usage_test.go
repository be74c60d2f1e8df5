package checkpoint_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
)

func (f *fixture) addProject(id, path string, sessions ...string) {
	f.t.Helper()
	db := f.db.DB()
	if _, err := db.ExecContext(f.t.Context(), "INSERT INTO projects (id, name, path, created_at, updated_at) VALUES (?, ?, ?, 0, 0)", id, id, path); err != nil {
		f.t.Fatal(err)
	}
	for _, s := range sessions {
		if _, err := db.ExecContext(f.t.Context(), "UPDATE sessions SET project_id = ? WHERE id = ?", id, s); err != nil {
			f.t.Fatal(err)
		}
	}
}

// TestProjectUsageAndClear: a project's checkpoints are measured on disk
// (its shadow repositories), another project's are not counted, and
// clearing removes the project's rows and shadows only, leaving the
// workspace's files as they are.
func TestProjectUsageAndClear(t *testing.T) {
	f := newFixture(t, checkpoint.Options{})
	seed(f)
	f.addProject("p1", f.ws, session)
	other := canon(t, t.TempDir())
	if err := os.WriteFile(filepath.Join(other, "o.txt"), []byte("other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.addSession("s2")
	f.addProject("p2", other, "s2")

	empty, err := f.svc.ProjectUsage(t.Context(), "p1", f.ws)
	if err != nil || empty.Bytes != 0 || empty.Shadows != 0 || empty.Checkpoints != 0 {
		t.Fatalf("usage before any checkpoint = %+v, %v", empty, err)
	}
	f.take(checkpoint.BeforeFirstMutation)
	f.bash(`echo changed > a.txt`)
	f.take(checkpoint.AfterBash)
	if _, err := f.svc.Take(t.Context(), checkpoint.Point{SessionID: "s2", Kind: checkpoint.AfterBash, Workspace: other}); err != nil {
		t.Fatal(err)
	}

	u, err := f.svc.ProjectUsage(t.Context(), "p1", f.ws)
	if err != nil {
		t.Fatal(err)
	}
	if u.ProjectID != "p1" || u.Checkpoints != 2 || u.Shadows != 1 || u.Bytes <= 0 {
		t.Fatalf("usage = %+v", u)
	}
	shadows, _ := os.ReadDir(f.shadows())
	if len(shadows) != 2 {
		t.Fatalf("shadows on disk = %d, want one per project", len(shadows))
	}
	before := state(t, f.ws)

	freed, err := f.svc.ClearProject(t.Context(), "p1", f.ws)
	if err != nil {
		t.Fatal(err)
	}
	if freed != u {
		t.Errorf("freed = %+v, want what was measured %+v", freed, u)
	}
	after, err := f.svc.ProjectUsage(t.Context(), "p1", f.ws)
	if err != nil || after.Bytes != 0 || after.Checkpoints != 0 || after.Shadows != 0 {
		t.Errorf("usage after clear = %+v, %v", after, err)
	}
	if list, _ := f.svc.List(t.Context(), session); len(list) != 0 {
		t.Errorf("checkpoints left: %v", list)
	}
	if d := diffStates(before, state(t, f.ws)); d != "" {
		t.Errorf("clearing changed the workspace:\n%s", d)
	}
	kept, err := f.svc.ProjectUsage(t.Context(), "p2", other)
	if err != nil || kept.Checkpoints != 1 || kept.Shadows != 1 || kept.Bytes <= 0 {
		t.Errorf("the other project's usage = %+v, %v", kept, err)
	}

	// Checkpoints start again from nothing after a clear.
	cp := f.take(checkpoint.BeforeFirstMutation)
	if cp.FilesChanged == 0 {
		t.Errorf("first checkpoint after a clear saw no files: %+v", cp)
	}
}
