package main

import (
	"github.com/pi-desktop/pi-desktop/backend/audit"
)

// The session-wide list of review changes is ReviewChanges(sessionId, "")
// in app.go (oldest first, so grouped by message the newest comes last);
// a refused RollbackChange carries details.reason and details.since.

// ActivityLog returns one page of a session's audit rows, newest first,
// filtered by tool, decision and result ("ok", "failed" or an error code).
// Pass the page's nextCursor as filter.cursor for the next (older) page; the
// first page also carries a summary (matching count, distinct values).
func (a *App) ActivityLog(sessionID string, filter audit.Filter) (audit.Page, error) {
	c, err := a.ready()
	if err != nil {
		return audit.Page{}, err
	}
	return c.AuditPage(a.bg(), sessionID, filter)
}
