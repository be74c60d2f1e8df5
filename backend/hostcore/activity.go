package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/audit"
)

// AuditPage returns one page of a session's audit rows, newest first,
// filtered (the Activity view). Rows are written in batches, so the queue
// is flushed first: a call that just finished is always listed. Rows
// outlive their session, so an unknown session is an empty page, not an
// error.
func (c *Core) AuditPage(ctx context.Context, sessionID string, f audit.Filter) (audit.Page, error) {
	c.audit.Flush()
	return audit.Query(ctx, c.store.DB(), sessionID, f)
}
