package session

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

const sessionCols = "id, project_id, title, operating_mode, permission_mode, isolated, created_at, updated_at, archived_at"

func scanSession(row interface{ Scan(...any) error }) (api.Session, error) {
	var (
		ss        api.Session
		projectID sql.NullString
		archived  sql.NullInt64
	)
	err := row.Scan(&ss.ID, &projectID, &ss.Title, &ss.OperatingMode, &ss.PermissionMode, &ss.Isolated, &ss.CreatedAt, &ss.UpdatedAt, &archived)
	ss.ProjectID = projectID.String
	ss.ArchivedAt = archived.Int64
	return ss, err
}

// Create makes a session in in.ProjectID, or a temporary session when the
// project is empty.
func (s *Service) Create(ctx context.Context, in api.CreateSessionInput) (api.Session, error) {
	now := s.now()
	title := in.Title
	if title == "" {
		title = fmtDefaultTitle(now)
	}
	title, err := validTitle(title)
	if err != nil {
		return api.Session{}, err
	}
	if in.Isolated && in.ProjectID == "" {
		return api.Session{}, errs.New(errs.InvalidArgument, "a temporary session cannot be isolated: it has no project to branch from").With("field", "isolated")
	}
	var projectID any
	if in.ProjectID != "" {
		if _, err := s.Project(ctx, in.ProjectID); err != nil {
			return api.Session{}, err
		}
		projectID = in.ProjectID
	}
	ss := api.Session{
		ID: newID(), ProjectID: in.ProjectID, Title: title,
		OperatingMode: api.ModeAgent, PermissionMode: api.PermissionInherit, Isolated: in.Isolated,
		CreatedAt: now.UnixMilli(), UpdatedAt: now.UnixMilli(),
	}
	if _, err := s.db.ExecContext(ctx,
		"INSERT INTO sessions (id, project_id, title, title_auto, operating_mode, permission_mode, isolated, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		ss.ID, projectID, ss.Title, in.Title == "", ss.OperatingMode, ss.PermissionMode, ss.Isolated, ss.CreatedAt, ss.UpdatedAt); err != nil {
		return api.Session{}, storageErr(err, "save the session")
	}
	return ss, nil
}

// Get returns the session with id. A storage failure is an error of its own,
// never SESSION_NOT_FOUND.
func (s *Service) Get(ctx context.Context, id string) (api.Session, error) {
	ss, err := scanSession(s.db.QueryRowContext(ctx, "SELECT "+sessionCols+" FROM sessions WHERE id = ?", id))
	return ss, notFoundOr(err, errs.SessionNotFound, "session", id)
}

// List returns a project's sessions, newest first; projectID "" lists the
// temporary sessions. archived selects the archive view instead of the live one.
func (s *Service) List(ctx context.Context, projectID string, archived bool) ([]api.Session, error) {
	where := "project_id = ?"
	args := []any{projectID}
	if projectID == "" {
		where, args = "project_id IS NULL", nil
	}
	if archived {
		where += " AND archived_at IS NOT NULL"
	} else {
		where += " AND archived_at IS NULL"
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+sessionCols+" FROM sessions WHERE "+where+" ORDER BY created_at DESC, id DESC", args...)
	if err != nil {
		return nil, storageErr(err, "list sessions")
	}
	defer rows.Close()
	out := []api.Session{}
	for rows.Next() {
		ss, err := scanSession(rows)
		if err != nil {
			return nil, storageErr(err, "list sessions")
		}
		out = append(out, ss)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "list sessions")
	}
	return out, nil
}

// update runs one UPDATE on session id and returns the session as stored.
func (s *Service) update(ctx context.Context, id, set string, args ...any) (api.Session, error) {
	args = append(args, s.nowMs(), id)
	res, err := s.db.ExecContext(ctx, "UPDATE sessions SET "+set+", updated_at = ? WHERE id = ?", args...)
	if err != nil {
		return api.Session{}, storageErr(err, "update the session")
	}
	if n, err := res.RowsAffected(); err != nil {
		return api.Session{}, storageErr(err, "update the session")
	} else if n == 0 {
		return api.Session{}, errs.New(errs.SessionNotFound, "no session %s; it may have been deleted, so refresh the list", id).With("id", id)
	}
	return s.Get(ctx, id)
}

// Rename sets a session's title.
func (s *Service) Rename(ctx context.Context, id, title string) (api.Session, error) {
	title, err := validTitle(title)
	if err != nil {
		return api.Session{}, err
	}
	return s.update(ctx, id, "title = ?, title_auto = 0", title)
}

// SetArchived archives or restores a session. Archiving is a reversible
// marker: it stops nothing and deletes nothing.
func (s *Service) SetArchived(ctx context.Context, id string, archived bool) (api.Session, error) {
	if archived {
		return s.update(ctx, id, "archived_at = COALESCE(archived_at, ?)", s.nowMs())
	}
	return s.update(ctx, id, "archived_at = NULL")
}

// Configure changes a session's operating and permission modes.
func (s *Service) Configure(ctx context.Context, id string, cfg api.SessionConfig) (api.Session, error) {
	if cfg.OperatingMode == "" && cfg.PermissionMode == "" {
		return api.Session{}, errs.New(errs.InvalidArgument, "nothing to change: give operatingMode or permissionMode")
	}
	ss, err := s.Get(ctx, id)
	if err != nil {
		return api.Session{}, err
	}
	if cfg.OperatingMode != "" {
		switch cfg.OperatingMode {
		case api.ModeAgent:
		case api.ModePlan, api.ModeGoal:
			if ss.ProjectID == "" {
				return api.Session{}, errs.New(errs.WorkspaceRequired, "%s mode needs a project; start a session in a project to plan", cfg.OperatingMode).With("field", "operatingMode")
			}
		default:
			return api.Session{}, errs.New(errs.InvalidArgument, "operatingMode must be agent, plan or goal, not %q", cfg.OperatingMode).With("field", "operatingMode")
		}
		ss.OperatingMode = cfg.OperatingMode
	}
	if cfg.PermissionMode != "" {
		if !validSessionPermission(cfg.PermissionMode) {
			return api.Session{}, errs.New(errs.InvalidArgument, "permissionMode must be inherit, ask, accept-edits or auto, not %q", cfg.PermissionMode).With("field", "permissionMode")
		}
		ss.PermissionMode = cfg.PermissionMode
	}
	return s.update(ctx, id, "operating_mode = ?, permission_mode = ?", ss.OperatingMode, ss.PermissionMode)
}

func validSessionPermission(m string) bool {
	switch m {
	case api.PermissionInherit, api.PermissionAsk, api.PermissionAcceptEdits, api.PermissionAuto:
		return true
	}
	return false
}

// Delete removes a session and its scratch, visualization and review
// folders. The row goes first so a half-finished delete never leaves a live
// session pointing at missing folders; leftover folders are swept at start.
func (s *Service) Delete(ctx context.Context, id string) error {
	if _, err := s.Get(ctx, id); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", id); err != nil {
		return storageErr(err, "delete the session")
	}
	var failed []error
	for _, base := range s.sessionBases() {
		if err := removeEntry(base, id); err != nil {
			failed = append(failed, err)
		}
	}
	if len(failed) > 0 {
		return &FilesLeftError{Err: errors.Join(failed...)}
	}
	return nil
}

// FilesLeftError reports a deleted session some of whose folders could not
// be removed (a process still writing, say). The session is gone; the
// folders are swept at the next start.
type FilesLeftError struct{ Err error }

func (e *FilesLeftError) Error() string {
	return "the session was deleted but some of its files could not be removed: " + e.Err.Error()
}

func (e *FilesLeftError) Unwrap() error { return e.Err }

func (s *Service) sessionBases() []string {
	return []string{s.layout.Scratch(), s.layout.Visualizations(), s.layout.Reviews()}
}

// removeEntry removes base/name without following symlinks anywhere: a
// redirected base is left alone, a link named name is removed as a link.
func removeEntry(base, name string) error {
	if !isRealDir(base) {
		return nil
	}
	root, err := os.OpenRoot(base)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.RemoveAll(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func isRealDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// Binding is where a session's tools run.
type Binding struct {
	Session api.Session
	// Workspace is the project's canonical path, or the scratch folder of a
	// temporary session (host-core swaps in the worktree of an isolated one).
	Workspace string
	// Project is the project's canonical path ("" for a temporary session):
	// the identity settings and instructions stay keyed to.
	Project       string
	Scratch       string
	Visualization string
	Temporary     bool
}

// Bind resolves a session's roots from its persisted project. Any failure is
// an error; there is no fallback to another workspace.
func (s *Service) Bind(ctx context.Context, id string) (Binding, error) {
	ss, err := s.Get(ctx, id)
	if err != nil {
		return Binding{}, err
	}
	b := Binding{
		Session:       ss,
		Scratch:       filepath.Join(s.layout.Scratch(), ss.ID),
		Visualization: filepath.Join(s.layout.Visualizations(), ss.ID),
	}
	if ss.ProjectID == "" {
		b.Workspace, b.Temporary = b.Scratch, true
		return b, nil
	}
	p, err := s.Project(ctx, ss.ProjectID)
	if err != nil {
		return Binding{}, err
	}
	b.Workspace, b.Project = p.Path, p.Path
	return b, nil
}

// EnsureScratch creates the session's scratch folder on first use.
func (s *Service) EnsureScratch(ctx context.Context, id string) (string, error) {
	b, err := s.Bind(ctx, id)
	if err != nil {
		return "", err
	}
	if !isRealDir(s.layout.Scratch()) {
		return "", errs.New(errs.StorageUnavailable, "the scratch folder %s is missing or redirected; restart PI-Desktop to recreate it", s.layout.Scratch())
	}
	if err := os.Mkdir(b.Scratch, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", errs.Wrap(err, errs.StorageUnavailable, "cannot create the scratch folder %s; check free disk space", b.Scratch)
	}
	if !isRealDir(b.Scratch) {
		return "", errs.New(errs.StorageUnavailable, "the scratch folder %s is not a real folder; delete it and try again", b.Scratch)
	}
	return b.Scratch, nil
}
