package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
)

// What the window shows of checkpoints beside the restore itself: the
// files each Bash call changed (the Changes pane) and the disk they take
// per project (Settings), with a way to clear them.

// CommandChanges lists, oldest first, what each of the session's Bash calls
// changed in its workspace, each file with its diff.
func (c *Core) CommandChanges(ctx context.Context, sessionID string) ([]checkpoint.CommandChange, error) {
	if _, err := c.sessions.Get(ctx, sessionID); err != nil {
		return nil, err
	}
	return c.checkpoints.CommandChanges(ctx, sessionID)
}

// CheckpointUsage measures the checkpoints of every project, in the order
// ListProjects gives.
func (c *Core) CheckpointUsage(ctx context.Context) ([]checkpoint.Usage, error) {
	projects, err := c.sessions.ListProjects(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]checkpoint.Usage, 0, len(projects))
	for _, p := range projects {
		u, err := c.checkpoints.ProjectUsage(ctx, p.ID, p.Path)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

// ClearCheckpoints removes every checkpoint of a project (its sessions'
// and its worktrees'), so none of them can be restored any more; the
// project's files stay as they are. It returns what was freed.
func (c *Core) ClearCheckpoints(ctx context.Context, projectID string) (checkpoint.Usage, error) {
	p, err := c.sessions.Project(ctx, projectID)
	if err != nil {
		return checkpoint.Usage{}, err
	}
	return c.checkpoints.ClearProject(ctx, p.ID, p.Path)
}
