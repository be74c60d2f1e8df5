package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
)

// Projects are the folders the user added.
type Projects struct{ h Handle }

// ListProjects returns every project.
func (p *Projects) ListProjects() ([]api.Project, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) ([]api.Project, error) { return c.ListProjects(ctx) })
}

// AddProject adds the folder at path as a project (or returns it if known).
func (p *Projects) AddProject(path string) (api.Project, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) (api.Project, error) { return c.AddProject(ctx, path) })
}

// RemoveProject forgets a project and deletes its sessions; files stay.
func (p *Projects) RemoveProject(id string) error {
	return do(p.h, func(ctx context.Context, c *hostcore.Core) error { return c.RemoveProject(ctx, id) })
}

// ProjectIsGit reports whether a project can have isolated sessions.
func (p *Projects) ProjectIsGit(projectID string) (bool, error) {
	return with(p.h, func(ctx context.Context, c *hostcore.Core) (bool, error) { return c.ProjectIsGit(ctx, projectID) })
}

// Sessions are the conversations of a project (or temporary ones), and the
// merge of an isolated one back into its project.
type Sessions struct{ h Handle }

// ListSessions lists a project's sessions newest first ("" = temporary).
func (s *Sessions) ListSessions(projectID string, archived bool) ([]api.Session, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) ([]api.Session, error) {
		return c.ListSessions(ctx, projectID, archived)
	})
}

// GetSession returns one session.
func (s *Sessions) GetSession(id string) (api.Session, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.Session, error) { return c.Session(ctx, id) })
}

// CreateSession starts a session in a project, or a temporary one.
func (s *Sessions) CreateSession(in api.CreateSessionInput) (api.Session, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.Session, error) { return c.CreateSession(ctx, in) })
}

// RenameSession sets a session's title.
func (s *Sessions) RenameSession(id, title string) (api.Session, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.Session, error) {
		return c.RenameSession(ctx, id, title)
	})
}

// ArchiveSession marks a session archived; nothing is stopped or deleted.
func (s *Sessions) ArchiveSession(id string) (api.Session, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.Session, error) {
		return c.SetSessionArchived(ctx, id, true)
	})
}

// RestoreSession brings an archived session back.
func (s *Sessions) RestoreSession(id string) (api.Session, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.Session, error) {
		return c.SetSessionArchived(ctx, id, false)
	})
}

// ConfigureSession changes a session's operating or permission mode.
func (s *Sessions) ConfigureSession(id string, cfg api.SessionConfig) (api.Session, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.Session, error) {
		return c.ConfigureSession(ctx, id, cfg)
	})
}

// DeleteSession deletes a session and its folders.
func (s *Sessions) DeleteSession(id string) error {
	return do(s.h, func(ctx context.Context, c *hostcore.Core) error { return c.DeleteSession(ctx, id) })
}

// MergePreview shows what merging an isolated session would bring.
func (s *Sessions) MergePreview(sessionID string) (worktree.Preview, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (worktree.Preview, error) {
		return c.MergePreview(ctx, sessionID)
	})
}

// Merge merges an isolated session into its project with a preview's token.
func (s *Sessions) Merge(sessionID, token string) (worktree.MergeResult, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (worktree.MergeResult, error) {
		return c.Merge(ctx, sessionID, token)
	})
}
