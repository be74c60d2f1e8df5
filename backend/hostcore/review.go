package hostcore

import (
	"context"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/audit"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

// ReviewChanges lists a session's review records, or one message's.
func (c *Core) ReviewChanges(ctx context.Context, sessionID, messageID string) ([]review.Change, error) {
	if _, err := c.sessions.Get(ctx, sessionID); err != nil {
		return nil, err
	}
	return c.review.List(ctx, sessionID, messageID)
}

// Rollback restores the file(s) of one review record, hash-guarded: a file
// changed since the tool call is left alone and CONFLICT is returned. It
// runs as a mutation of the session (serialized with its Write/Edit calls)
// and leaves an audit row like any tool call.
func (c *Core) Rollback(ctx context.Context, sessionID, snapshotID string) ([]review.Change, error) {
	start := time.Now()
	row := audit.Row{TraceID: newTraceID(), SessionID: sessionID, Tool: "Rollback", ArgsHash: audit.Hash([]byte(snapshotID)),
		ArgsPreview: "changeId=" + clip(snapshotID), Decision: "user", CreatedAt: c.cfg.Now().UnixMilli()}
	changes, err := c.rollback(ctx, sessionID, snapshotID, &row)
	row.OK, row.ErrorCode = err == nil, string(errs.CodeOf(err))
	row.TotalMs = time.Since(start).Milliseconds()
	row.DurationMs = row.TotalMs
	c.audit.Record(row)
	return changes, err
}

func (c *Core) rollback(ctx context.Context, sessionID, snapshotID string, row *audit.Row) ([]review.Change, error) {
	if !c.enter() {
		return nil, errs.New(errs.ToolAborted, "PI-Desktop is shutting down; nothing was rolled back")
	}
	defer c.life.calls.Done()
	binding, _, err := c.bind(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	row.OperatingMode, row.PathRoot = binding.Session.OperatingMode, "workspace"
	settings, err := c.settings.Get(ctx)
	if err != nil {
		return nil, err
	}
	resolver, err := c.resolverFor(ctx, binding, settings.InlineVisualizations)
	if err != nil {
		return nil, err
	}
	// Lock every path the record touches, like a Write of each, so no edit
	// lands between the hash check and the restore.
	all, err := c.review.List(ctx, sessionID, "")
	if err != nil {
		return nil, err
	}
	var keys []string
	group := ""
	for _, ch := range all {
		if ch.SnapshotID == snapshotID {
			group = ch.GroupID
		}
	}
	for _, ch := range all {
		if ch.SnapshotID == snapshotID || (group != "" && ch.GroupID == group) {
			if res, err := resolver.Resolve(ch.Path); err == nil {
				keys = append(keys, resolver.Key(res))
			}
		}
	}
	done, err := c.admission.admit(ctx, sessionID, keys, true)
	if err != nil {
		return nil, err
	}
	defer done()
	changes, err := c.review.Rollback(ctx, sessionID, snapshotID, resolver)
	if err != nil {
		return nil, err
	}
	for _, ch := range changes {
		c.forgetEdits(sessionID, resolver, ch.Path)
		c.artifactRolledBack(ctx, sessionID, resolver, ch)
	}
	return changes, nil
}
