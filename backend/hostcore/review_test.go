package hostcore_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

func TestWriteReviewAndRollback(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	mainGo := filepath.Join(e.project, "main.go")
	orig, _ := os.ReadFile(mainGo)
	tag := hashline.DigestOf(orig).Tag()
	// A tag the session was never shown does not authorize an overwrite.
	if res := e.call(e.session.ID, "Write", map[string]any{"path": "main.go", "content": "x", "tag": tag}); res.Code != errs.EditTagUnknown {
		t.Fatalf("Write with an unshown tag = %+v", res)
	}
	e.call(e.session.ID, "Read", map[string]any{"path": "main.go"})
	res := e.call(e.session.ID, "Write", map[string]any{"path": "main.go", "content": "package main\n", "tag": tag})
	changes, ok := res.Fields["review"].([]review.Change)
	if !res.OK || !ok || len(changes) != 1 || changes[0].Status != "modified" || changes[0].Path != "main.go" || !changes[0].Reversible {
		t.Fatalf("Write review = %+v", res)
	}
	// Scratch writes carry no review record.
	scratch := filepath.Join(e.core.Info().DataDir, "scratch", e.session.ID, "x.txt")
	if res := e.call(e.session.ID, "Write", map[string]any{"path": scratch, "content": "x"}); res.Fields["review"] != nil {
		t.Errorf("scratch write got a review record: %+v", res.Fields["review"])
	}
	listed, err := e.core.ReviewChanges(t.Context(), e.session.ID, "")
	if err != nil || len(listed) != 1 || listed[0].SnapshotID != changes[0].SnapshotID {
		t.Fatalf("listed = %+v, %v", listed, err)
	}
	back, err := e.core.Rollback(t.Context(), e.session.ID, changes[0].SnapshotID)
	if err != nil || len(back) != 1 || back[0].State != review.StateRolledBack {
		t.Fatalf("rollback = %+v, %v", back, err)
	}
	if now, _ := os.ReadFile(mainGo); string(now) != string(orig) {
		t.Errorf("not restored: %q", now)
	}
}

func TestRollbackRefusesNewerWork(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	res := e.call(e.session.ID, "Write", map[string]any{"path": "n.txt", "content": "agent\n"})
	changes := res.Fields["review"].([]review.Change)
	write(t, filepath.Join(e.project, "n.txt"), "user edit\n")
	if _, err := e.core.Rollback(t.Context(), e.session.ID, changes[0].SnapshotID); !errs.Is(err, errs.Conflict) {
		t.Fatalf("rollback over newer work = %v; want CONFLICT", err)
	}
	if b, _ := os.ReadFile(filepath.Join(e.project, "n.txt")); string(b) != "user edit\n" {
		t.Errorf("newer work overwritten: %q", b)
	}
	rows, _ := e.core.AuditRows(t.Context(), e.session.ID)
	if last := rows[len(rows)-1]; last.Tool != "Rollback" || last.OK || last.ErrorCode != "CONFLICT" {
		t.Errorf("rollback audit row = %+v", last)
	}
}
