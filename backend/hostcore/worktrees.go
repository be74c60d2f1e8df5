package hostcore

import (
	"context"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
)

// bind resolves a session's roots. For an isolated session the worktree
// replaces the project as the workspace for every rule, and a missing or
// redirected worktree fails the call: there is no fallback to the main
// checkout (spec §4e).
func (c *Core) bind(ctx context.Context, sessionID string) (session.Binding, []string, error) {
	v, err := c.config(ctx)
	if err != nil {
		return session.Binding{}, nil, err
	}
	return c.bindIn(ctx, v, sessionID)
}

// bindIn is bind with the session row looked up through v.
func (c *Core) bindIn(ctx context.Context, v configView, sessionID string) (session.Binding, []string, error) {
	b, wt, err := c.workspaceIn(ctx, v, sessionID)
	if err != nil || !b.Session.Isolated {
		return b, nil, err
	}
	port, err := c.worktrees.Ports().Block(sessionID)
	if err != nil {
		return session.Binding{}, nil, err
	}
	return b, worktree.Env(wt, port), nil
}

// bindFor is bindIn for a call: a control tool gets the session's binding
// without the worktree's port block or environment, which it never uses;
// an isolated delegate's call (delegationID) is rooted in its own worktree.
func (c *Core) bindFor(ctx context.Context, v configView, sessionID, delegationID string, control bool) (session.Binding, []string, error) {
	if !control {
		b, env, err := c.bindIn(ctx, v, sessionID)
		if err != nil {
			return b, env, err
		}
		return c.delegateBinding(sessionID, delegationID, b, env)
	}
	b, _, err := c.workspaceIn(ctx, v, sessionID)
	return b, nil, err
}

// workspace resolves a session's roots without side effects: bind's rules,
// minus the port block an isolated session's tools need.
func (c *Core) workspace(ctx context.Context, sessionID string) (session.Binding, worktree.Worktree, error) {
	v, err := c.config(ctx)
	if err != nil {
		return session.Binding{}, worktree.Worktree{}, err
	}
	return c.workspaceIn(ctx, v, sessionID)
}

// workspaceIn is workspace with the session row looked up through v. The
// worktree is verified on disk every time, never cached.
func (c *Core) workspaceIn(ctx context.Context, v configView, sessionID string) (session.Binding, worktree.Worktree, error) {
	b, err := v.bind(ctx, sessionID)
	if err != nil || !b.Session.Isolated {
		return b, worktree.Worktree{}, err
	}
	wt, err := c.worktrees.Verify(b.Project, sessionID)
	if err != nil {
		return session.Binding{}, worktree.Worktree{}, err
	}
	b.Workspace = wt.Root
	return b, wt, nil
}

// CreateSession creates a session; an isolated one gets its worktree of
// the project's current HEAD before it is usable, or is not created.
func (c *Core) CreateSession(ctx context.Context, in api.CreateSessionInput) (api.Session, error) {
	if !in.Isolated {
		return c.sessionChanged(c.sessions.Create(ctx, in))
	}
	p, err := c.sessions.Project(ctx, in.ProjectID)
	if err != nil {
		return api.Session{}, err
	}
	ok, err := c.worktrees.IsRepo(ctx, p.Path)
	if err != nil {
		return api.Session{}, err
	}
	if !ok {
		return api.Session{}, errs.New(errs.WorktreeNotGit, "%s is not a git repository with a commit, so a session there cannot be isolated; start a normal session, or commit the project first", p.Path)
	}
	s, err := c.sessions.Create(ctx, in)
	if err != nil {
		return api.Session{}, err
	}
	created, err := c.worktrees.Create(ctx, p.Path, s.ID)
	if err != nil {
		_ = c.sessions.Delete(context.WithoutCancel(ctx), s.ID)
		return api.Session{}, err
	}
	if p.SetupCommand != "" && c.enter() {
		go func() {
			defer c.life.calls.Done()
			r := c.runSetup(context.WithoutCancel(ctx), s.ID, p.SetupCommand, created.Worktree)
			c.log.Info("worktree setup", "session", s.ID, "state", r.State, "exitCode", r.ExitCode)
		}()
	}
	return c.sessionChanged(s, nil)
}

// SetProjectSetup sets the command run once in each new isolated worktree
// of a project ("" = none).
func (c *Core) SetProjectSetup(ctx context.Context, projectID, command string) (api.Project, error) {
	p, err := c.sessions.SetSetupCommand(ctx, projectID, command, worktree.ValidateSetupCommand)
	if err == nil {
		c.emit(api.EventProjectsChanged, nil)
	}
	return p, err
}

// MergePreview shows what merging an isolated session into its project
// would bring, with the token Merge needs.
func (c *Core) MergePreview(ctx context.Context, sessionID string) (worktree.Preview, error) {
	b, err := c.isolated(ctx, sessionID)
	if err != nil {
		return worktree.Preview{}, err
	}
	return c.worktrees.Preview(ctx, b.Project, sessionID)
}

// Merge merges an isolated session into its project: the project branch is
// synced into the worktree first, then the project is only fast-forwarded.
// It runs as a mutation of the session, so no edit lands meanwhile.
func (c *Core) Merge(ctx context.Context, sessionID, token string) (worktree.MergeResult, error) {
	b, err := c.isolated(ctx, sessionID)
	if err != nil {
		return worktree.MergeResult{}, err
	}
	done, err := c.admission.admit(ctx, sessionID, nil, true)
	if err != nil {
		return worktree.MergeResult{}, err
	}
	defer done()
	return c.worktrees.Merge(ctx, b.Project, sessionID, token)
}

func (c *Core) isolated(ctx context.Context, sessionID string) (session.Binding, error) {
	b, err := c.sessions.Bind(ctx, sessionID)
	if err != nil {
		return b, err
	}
	if !b.Session.Isolated {
		return b, errs.New(errs.InvalidArgument, "this session works in the project itself; only isolated sessions are merged")
	}
	return b, nil
}

func newWorktrees(dataDir string) (*worktree.Manager, error) {
	git, err := worktree.NewGit(filepath.Join(dataDir, "git", "empty-hooks"))
	if err != nil {
		return nil, err
	}
	return worktree.NewManager(filepath.Join(dataDir, "worktrees"), git)
}

// ProjectIsGit reports whether a project can have isolated sessions: a git
// work tree with at least one commit.
func (c *Core) ProjectIsGit(ctx context.Context, projectID string) (bool, error) {
	p, err := c.sessions.Project(ctx, projectID)
	if err != nil {
		return false, err
	}
	return c.worktrees.IsRepo(ctx, p.Path)
}
