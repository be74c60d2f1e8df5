package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/bgtask"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// Tasks are a session's background tasks (Bash with run_in_background).
type Tasks struct{ h Handle }

// Tasks lists a session's background tasks.
func (t *Tasks) Tasks(sessionID string) ([]bgtask.Task, error) {
	return with(t.h, func(_ context.Context, c *hostcore.Core) ([]bgtask.Task, error) { return c.Tasks(sessionID), nil })
}

// TaskOutput returns a bounded preview of a background task's output.
func (t *Tasks) TaskOutput(sessionID, taskID string) (bgtask.TaskOutput, error) {
	return with(t.h, func(_ context.Context, c *hostcore.Core) (bgtask.TaskOutput, error) {
		return c.TaskOutput(sessionID, taskID)
	})
}

// StopTask stops a running background task.
func (t *Tasks) StopTask(sessionID, taskID string) error {
	return do(t.h, func(_ context.Context, c *hostcore.Core) error { return c.StopTask(sessionID, taskID) })
}

// RemoveTask removes a finished background task from its session's list.
func (t *Tasks) RemoveTask(sessionID, taskID string) error {
	return do(t.h, func(_ context.Context, c *hostcore.Core) error { return c.RemoveTask(sessionID, taskID) })
}

// Files are a session's workspace files, for @-references.
type Files struct{ h Handle }

// WorkspaceFiles suggests files of a session's workspace (its worktree when
// isolated) whose path matches query, best first, for @-references in the
// composer. limit 0 means the default; it is capped.
func (f *Files) WorkspaceFiles(sessionID, query string, limit int) (hostcore.WorkspaceFiles, error) {
	return with(f.h, func(ctx context.Context, c *hostcore.Core) (hostcore.WorkspaceFiles, error) {
		return c.WorkspaceFiles(ctx, sessionID, query, limit)
	})
}
