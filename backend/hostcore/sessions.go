package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
)

// Projects and sessions as the window and the CLI change them. Each
// operation that changes one announces it here, once: projects:changed or
// sessions:changed (CreateSession and DeleteSession, which keep more
// invariants, announce theirs too).

// ListProjects returns every project.
func (c *Core) ListProjects(ctx context.Context) ([]api.Project, error) {
	return c.sessions.ListProjects(ctx)
}

// AddProject adds the folder at path as a project (or returns it if known).
func (c *Core) AddProject(ctx context.Context, path string) (api.Project, error) {
	p, err := c.sessions.AddProject(ctx, path)
	if err == nil {
		c.emit(api.EventProjectsChanged, nil)
	}
	return p, err
}

// RemoveProject forgets a project and deletes its sessions as
// DeleteSession does (turns and tasks stopped, worktrees removed); the
// project's own files stay.
func (c *Core) RemoveProject(ctx context.Context, id string) error {
	p, err := c.sessions.Project(ctx, id)
	if err != nil {
		return err
	}
	for _, archived := range []bool{false, true} {
		list, err := c.sessions.List(ctx, id, archived)
		if err != nil {
			return err
		}
		for _, s := range list {
			if err := c.retireSession(ctx, s.ID); err != nil {
				return err
			}
		}
	}
	// Its MCP servers end and their sign-ins leave the keychain before the
	// rows that name them go.
	if err := c.mcp.forgetProject(ctx, p); err != nil {
		return err
	}
	if err := c.sessions.RemoveProject(ctx, id); err != nil {
		return err
	}
	c.emit(api.EventProjectsChanged, nil)
	c.sweepAttachments(ctx) // its sessions' images, unless another refers to them
	return nil
}

// ListSessions lists a project's sessions newest first ("" = temporary).
func (c *Core) ListSessions(ctx context.Context, projectID string, archived bool) ([]api.Session, error) {
	return c.sessions.List(ctx, projectID, archived)
}

// Session returns one session.
func (c *Core) Session(ctx context.Context, id string) (api.Session, error) {
	return c.sessions.Get(ctx, id)
}

// RenameSession sets a session's title.
func (c *Core) RenameSession(ctx context.Context, id, title string) (api.Session, error) {
	return c.sessionChanged(c.sessions.Rename(ctx, id, title))
}

// SetSessionArchived archives a session (nothing is stopped or deleted) or
// brings it back.
func (c *Core) SetSessionArchived(ctx context.Context, id string, archived bool) (api.Session, error) {
	return c.sessionChanged(c.sessions.SetArchived(ctx, id, archived))
}

// ConfigureSession changes a session's operating or permission mode.
func (c *Core) ConfigureSession(ctx context.Context, id string, cfg api.SessionConfig) (api.Session, error) {
	return c.sessionChanged(c.sessions.Configure(ctx, id, cfg))
}

// sessionChanged announces a session that was created or changed.
func (c *Core) sessionChanged(s api.Session, err error) (api.Session, error) {
	if err == nil {
		c.emit(api.EventSessionsChanged, api.SessionsChanged{SessionID: s.ID, ProjectID: s.ProjectID})
	}
	return s, err
}
