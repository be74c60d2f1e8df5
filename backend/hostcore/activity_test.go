package hostcore_test

import (
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/audit"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

// The Activity view reads the audit right after a call, while its row may
// still be queued in the batch writer: AuditPage must list it.
func TestAuditPageSeesRowsJustWritten(t *testing.T) {
	e := newEnv(t)
	for i := range 5 {
		e.call(e.session.ID, "Read", map[string]any{"path": "main.go"})
		p, err := e.core.AuditPage(t.Context(), e.session.ID, audit.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Rows) != i+1 || p.Summary.Matching != i+1 {
			t.Fatalf("after call %d: %d rows listed", i+1, len(p.Rows))
		}
	}
	e.callAnswering(e.session.ID, "Write", map[string]any{"path": "d.txt", "content": "x"}, permission.Denied)
	p, err := e.core.AuditPage(t.Context(), e.session.ID, audit.Filter{Result: "TOOL_DENIED"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rows) != 1 {
		t.Fatalf("denied rows = %+v", p.Rows)
	}
	if r := p.Rows[0]; r.Tool != "Write" || !r.Prompted || r.OK || r.Decision != "denied" || r.ID == 0 {
		t.Errorf("denied row = %+v", r)
	}
	if p.Summary.Matching != 1 || len(p.Summary.Tools) != 2 {
		t.Errorf("summary = %+v", p.Summary)
	}
	// Paging by two over the six rows: three pages, newest first.
	var seen []int64
	f := audit.Filter{Limit: 2}
	for {
		p, err := e.core.AuditPage(t.Context(), e.session.ID, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Rows {
			seen = append(seen, r.ID)
		}
		if p.NextCursor == 0 {
			break
		}
		f.Cursor = p.NextCursor
	}
	if len(seen) != 6 || seen[0] <= seen[5] {
		t.Errorf("paged ids = %v", seen)
	}
}

// A refused rollback of a real Write carries what changed since, so the
// Review pane can show the later work next to the refusal.
func TestRollbackConflictCarriesSince(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	res := e.call(e.session.ID, "Write", map[string]any{"path": "n.txt", "content": "agent\nline\n"})
	changes := res.Fields["review"].([]review.Change)
	write(t, filepath.Join(e.project, "n.txt"), "agent\nline\nuser\n")
	_, err := e.core.Rollback(t.Context(), e.session.ID, changes[0].SnapshotID)
	ee := errs.As(err)
	if ee == nil || ee.Code != errs.Conflict || ee.Details["reason"] != review.ReasonChanged {
		t.Fatalf("rollback = %v", err)
	}
	since, ok := ee.Details["since"].(review.Since)
	if !ok || since.Additions != 1 || since.Deletions != 0 || len(since.Hunks) != 1 || since.Hunks[0].Lines[2] != "+user" {
		t.Errorf("since = %+v", ee.Details["since"])
	}
}
