// Package session owns projects, sessions and the binding between them: the
// persisted project of a session is the only source of its workspace root.
package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/platform/paths"
)

const maxTitleRunes = 200

// Service manages projects and sessions.
type Service struct {
	db     *sql.DB
	layout paths.Layout
	now    func() time.Time
}

// New returns a Service over db whose per-session folders live in layout.
// now may be nil (time.Now).
func New(db *sql.DB, layout paths.Layout, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, layout: layout, now: now}
}

func (s *Service) nowMs() int64 { return s.now().UnixMilli() }

func newID() string { return uuid.Must(uuid.NewV7()).String() }

func storageErr(err error, doing string) error {
	return errs.Wrap(err, errs.StorageUnavailable, "could not %s: the database did not answer; check free disk space and restart PI-Desktop", doing)
}

// AddProject registers the folder at dir (canonicalised: absolute, symlinks
// resolved). Adding a folder that is already a project returns that project.
func (s *Service) AddProject(ctx context.Context, dir string) (api.Project, error) {
	if strings.TrimSpace(dir) == "" {
		return api.Project{}, errs.New(errs.InvalidArgument, "choose a folder to add as a project").With("field", "path")
	}
	canon, err := canonicalDir(dir)
	if err != nil {
		return api.Project{}, err
	}
	existing, err := s.projectByPath(ctx, canon)
	if err == nil {
		return existing, nil
	}
	if !errs.Is(err, errs.ProjectNotFound) {
		return api.Project{}, err
	}
	now := s.nowMs()
	p := api.Project{ID: newID(), Name: filepath.Base(canon), Path: canon, CreatedAt: now, UpdatedAt: now}
	if _, err := s.db.ExecContext(ctx,
		"INSERT INTO projects (id, name, path, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
		p.ID, p.Name, p.Path, p.CreatedAt, p.UpdatedAt); err != nil {
		return api.Project{}, storageErr(err, "save the project")
	}
	return p, nil
}

func canonicalDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", errs.Wrap(err, errs.InvalidArgument, "the path %q cannot be made absolute", dir).With("field", "path")
	}
	canon, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", errs.Wrap(err, errs.NotFound, "the folder %s does not exist or cannot be read; choose an existing folder", abs).With("field", "path")
	}
	fi, err := os.Stat(canon)
	if err != nil {
		return "", errs.Wrap(err, errs.NotFound, "the folder %s cannot be read; check its permissions", canon).With("field", "path")
	}
	if !fi.IsDir() {
		return "", errs.New(errs.InvalidArgument, "%s is a file; choose the folder that contains your project", canon).With("field", "path")
	}
	return canon, nil
}

const projectCols = "id, name, path, created_at, updated_at, setup_command"

func scanProject(row interface{ Scan(...any) error }) (api.Project, error) {
	var p api.Project
	err := row.Scan(&p.ID, &p.Name, &p.Path, &p.CreatedAt, &p.UpdatedAt, &p.SetupCommand)
	return p, err
}

// SetSetupCommand sets the command run once in each new isolated worktree
// of the project ("" = none). validate checks it first.
func (s *Service) SetSetupCommand(ctx context.Context, id, command string, validate func(string) error) (api.Project, error) {
	if err := validate(command); err != nil {
		return api.Project{}, err
	}
	res, err := s.db.ExecContext(ctx, "UPDATE projects SET setup_command = ?, updated_at = ? WHERE id = ?", command, s.nowMs(), id)
	if err != nil {
		return api.Project{}, storageErr(err, "save the setup command")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return api.Project{}, errs.New(errs.ProjectNotFound, "no project %s; refresh the list", id).With("id", id)
	}
	return s.Project(ctx, id)
}

// ProjectByPath returns the project whose canonical folder is path.
func (s *Service) ProjectByPath(ctx context.Context, path string) (api.Project, error) {
	return s.projectByPath(ctx, path)
}

func (s *Service) projectByPath(ctx context.Context, path string) (api.Project, error) {
	p, err := scanProject(s.db.QueryRowContext(ctx, "SELECT "+projectCols+" FROM projects WHERE path = ?", path))
	return p, notFoundOr(err, errs.ProjectNotFound, "project", path)
}

// Project returns the project with id.
func (s *Service) Project(ctx context.Context, id string) (api.Project, error) {
	p, err := scanProject(s.db.QueryRowContext(ctx, "SELECT "+projectCols+" FROM projects WHERE id = ?", id))
	return p, notFoundOr(err, errs.ProjectNotFound, "project", id)
}

func notFoundOr(err error, code errs.Code, what, key string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return errs.New(code, "no %s %s; it may have been removed, so refresh the list", what, key).With("id", key)
	default:
		// A storage failure is never reported as "not found": callers must not
		// fall back to another project or workspace because of it.
		return storageErr(err, "look up the "+what)
	}
}

// ListProjects returns every project, by name.
func (s *Service) ListProjects(ctx context.Context) ([]api.Project, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+projectCols+" FROM projects ORDER BY name COLLATE NOCASE, path")
	if err != nil {
		return nil, storageErr(err, "list projects")
	}
	defer rows.Close()
	out := []api.Project{}
	for rows.Next() {
		p, err := scanProject(rows)
		if err != nil {
			return nil, storageErr(err, "list projects")
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "list projects")
	}
	return out, nil
}

// RemoveProject forgets a project and deletes its sessions with their
// folders. The project's own files are never touched.
func (s *Service) RemoveProject(ctx context.Context, id string) error {
	if _, err := s.Project(ctx, id); err != nil {
		return err
	}
	ids, err := s.sessionIDs(ctx, "project_id = ?", id)
	if err != nil {
		return err
	}
	for _, sid := range ids {
		if err := s.Delete(ctx, sid); err != nil {
			return err
		}
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM projects WHERE id = ?", id); err != nil {
		return storageErr(err, "remove the project")
	}
	return nil
}

func (s *Service) sessionIDs(ctx context.Context, where string, args ...any) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM sessions WHERE "+where, args...)
	if err != nil {
		return nil, storageErr(err, "list sessions")
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, storageErr(err, "list sessions")
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "list sessions")
	}
	return ids, nil
}

func validTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	switch {
	case title == "":
		return "", errs.New(errs.InvalidArgument, "a session title cannot be empty; type a name").With("field", "title")
	case !utf8.ValidString(title) || strings.ContainsAny(title, "\x00\r\n"):
		return "", errs.New(errs.InvalidArgument, "a session title must be one line of text").With("field", "title")
	case utf8.RuneCountInString(title) > maxTitleRunes:
		return "", errs.New(errs.InvalidArgument, "a session title can have at most %d characters", maxTitleRunes).With("field", "title")
	}
	return title, nil
}

func fmtDefaultTitle(t time.Time) string {
	return fmt.Sprintf("New session %s", t.Format("Jan 2 15:04"))
}
