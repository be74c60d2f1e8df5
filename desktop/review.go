package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/audit"
	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

// Review is what a session's tools changed (with rollback) and did (the
// Activity view).
type Review struct{ h Handle }

// ReviewChanges lists a session's review records ("" = all its messages,
// oldest first, so grouped by message the newest comes last).
func (r *Review) ReviewChanges(sessionID, messageID string) ([]review.Change, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) ([]review.Change, error) {
		return c.ReviewChanges(ctx, sessionID, messageID)
	})
}

// RollbackChange restores the file(s) of one review record; CONFLICT when
// the file changed since (with details.reason and details.since).
func (r *Review) RollbackChange(sessionID, snapshotID string) ([]review.Change, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) ([]review.Change, error) {
		return c.Rollback(ctx, sessionID, snapshotID)
	})
}

// ActivityLog returns one page of a session's audit rows, newest first,
// filtered by tool, decision and result ("ok", "failed" or an error code).
// Pass the page's nextCursor as filter.cursor for the next (older) page; the
// first page also carries a summary (matching count, distinct values).
func (r *Review) ActivityLog(sessionID string, filter audit.Filter) (audit.Page, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) (audit.Page, error) {
		return c.AuditPage(ctx, sessionID, filter)
	})
}

// Checkpoints lists a session's workspace checkpoints, newest first: when
// each was taken (kind, turn, tool call), whether it was captured, and how
// many files changed since the one before.
func (r *Review) Checkpoints(sessionID string) ([]checkpoint.Checkpoint, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) ([]checkpoint.Checkpoint, error) {
		return c.Checkpoints(ctx, sessionID)
	})
}

// PreviewRestore says what restoring a checkpoint would change: every file
// with its diff, files created since (to be deleted), and the conflicts.
func (r *Review) PreviewRestore(sessionID, checkpointID string) (checkpoint.Plan, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) (checkpoint.Plan, error) {
		return c.PreviewRestore(ctx, sessionID, checkpointID)
	})
}

// RestoreCheckpoint restores the workspace to a checkpoint, keeping
// each conflict unless overwrite covers it (all, or the paths the user
// chose); restoring the result's before checkpoint undoes it.
func (r *Review) RestoreCheckpoint(sessionID, checkpointID string, overwrite checkpoint.Overwrite) (checkpoint.Result, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) (checkpoint.Result, error) {
		return c.RestoreCheckpoint(ctx, sessionID, checkpointID, overwrite)
	})
}

// CommandChanges lists, oldest first, what each of the session's Bash calls
// changed in its workspace (the Changes pane's "Changed by commands"), each
// file with its diff.
func (r *Review) CommandChanges(sessionID string) ([]checkpoint.CommandChange, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) ([]checkpoint.CommandChange, error) {
		return c.CommandChanges(ctx, sessionID)
	})
}

// CheckpointUsage measures the disk each project's checkpoints take.
func (r *Review) CheckpointUsage() ([]checkpoint.Usage, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) ([]checkpoint.Usage, error) {
		return c.CheckpointUsage(ctx)
	})
}

// ClearCheckpoints removes every checkpoint of a project; it returns what
// was freed.
func (r *Review) ClearCheckpoints(projectID string) (checkpoint.Usage, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) (checkpoint.Usage, error) {
		return c.ClearCheckpoints(ctx, projectID)
	})
}
