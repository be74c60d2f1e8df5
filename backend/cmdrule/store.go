package cmdrule

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Store keeps command rules in the command_rules table (migration 0015).
type Store struct {
	db  *sql.DB
	now func() time.Time
}

// NewStore returns a Store over db; now may be nil (time.Now).
func NewStore(db *sql.DB, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{db: db, now: now}
}

const ruleCols = "id, decision, program, args, scope, COALESCE(project_id, ''), COALESCE(session_id, ''), note, created_at"

// Add saves r after Validate, with a new ID and creation time. A rule
// equal to one already saved (same decision, words, scope and owner) is not
// saved twice: that one is returned.
func (s *Store) Add(ctx context.Context, r Rule) (Rule, error) {
	r, err := s.checked(ctx, r)
	if err != nil {
		return Rule{}, err
	}
	if e, ok, err := s.equal(ctx, r); err != nil || ok {
		return e, err
	}
	args, err := json.Marshal(r.Args)
	if err != nil {
		return Rule{}, errs.Wrap(err, errs.Internal, "could not encode the rule's words")
	}
	r.ID = uuid.Must(uuid.NewV7()).String()
	r.CreatedAt = s.now().UnixMilli()
	if _, err := s.db.ExecContext(ctx,
		"INSERT INTO command_rules (id, decision, program, args, scope, project_id, session_id, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		r.ID, r.Decision, r.Program, string(args), r.Scope, nullable(r.ProjectID), nullable(r.SessionID), r.Note, r.CreatedAt); err != nil {
		return Rule{}, storageErr(err, "save the rule")
	}
	return r, nil
}

// Update replaces the decision, words, scope (with its project or session)
// and note of the rule r.ID with r's, validated as Add validates them; the
// ID and creation time stay. It fails with RULE_NOT_FOUND for an unknown
// ID, and with CONFLICT naming the other rule when r would equal one
// already saved (remove this one instead).
func (s *Store) Update(ctx context.Context, r Rule) (Rule, error) {
	old, err := s.Get(ctx, r.ID)
	if err != nil {
		return Rule{}, err
	}
	if r, err = s.checked(ctx, r); err != nil {
		return Rule{}, err
	}
	e, ok, err := s.equal(ctx, r)
	if err != nil {
		return Rule{}, err
	}
	if ok && e.ID != old.ID {
		return Rule{}, errs.New(errs.Conflict, "the rule %s is saved already; remove this one instead", e).With("id", e.ID)
	}
	args, err := json.Marshal(r.Args)
	if err != nil {
		return Rule{}, errs.Wrap(err, errs.Internal, "could not encode the rule's words")
	}
	r.CreatedAt = old.CreatedAt
	res, err := s.db.ExecContext(ctx,
		"UPDATE command_rules SET decision = ?, program = ?, args = ?, scope = ?, project_id = ?, session_id = ?, note = ? WHERE id = ?",
		r.Decision, r.Program, string(args), r.Scope, nullable(r.ProjectID), nullable(r.SessionID), r.Note, r.ID)
	if err != nil {
		return Rule{}, storageErr(err, "save the rule")
	}
	if n, _ := res.RowsAffected(); n == 0 { // removed since Get
		return Rule{}, notFound(r.ID)
	}
	return r, nil
}

// checked is r normalised (no nil words, a trimmed note) once it passed
// Validate and its project or session exists.
func (s *Store) checked(ctx context.Context, r Rule) (Rule, error) {
	if r.Args == nil {
		r.Args = []string{}
	}
	r.Note = strings.TrimSpace(r.Note)
	if err := r.Validate(); err != nil {
		return Rule{}, err
	}
	if err := s.ownerExists(ctx, r); err != nil {
		return Rule{}, err
	}
	return r, nil
}

// equal finds a saved rule with r's decision, words, scope and owner.
func (s *Store) equal(ctx context.Context, r Rule) (Rule, bool, error) {
	existing, err := s.query(ctx, "SELECT "+ruleCols+" FROM command_rules WHERE decision = ? AND program = ? AND scope = ? AND COALESCE(project_id, '') = ? AND COALESCE(session_id, '') = ?",
		r.Decision, r.Program, r.Scope, r.ProjectID, r.SessionID)
	if err != nil {
		return Rule{}, false, err
	}
	for _, e := range existing {
		if slices.Equal(e.Args, r.Args) {
			return e, true, nil
		}
	}
	return Rule{}, false, nil
}

// ownerExists reports PROJECT_NOT_FOUND or SESSION_NOT_FOUND for a rule
// whose project or session is not (or no longer) there.
func (s *Store) ownerExists(ctx context.Context, r Rule) error {
	var q, id string
	var code errs.Code
	switch r.Scope {
	case ScopeProject:
		q, id, code = "SELECT 1 FROM projects WHERE id = ?", r.ProjectID, errs.ProjectNotFound
	case ScopeSession:
		q, id, code = "SELECT 1 FROM sessions WHERE id = ?", r.SessionID, errs.SessionNotFound
	default:
		return nil
	}
	var one int
	err := s.db.QueryRowContext(ctx, q, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return errs.New(code, "no %s %s; add the rule to an existing one, or as a global rule", r.Scope, id).With("id", id)
	}
	if err != nil {
		return storageErr(err, "look the rule's "+string(r.Scope)+" up")
	}
	return nil
}

// Remove deletes the rule with id.
func (s *Store) Remove(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM command_rules WHERE id = ?", id)
	if err != nil {
		return storageErr(err, "remove the rule")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound(id)
	}
	return nil
}

// Get returns the rule with id.
func (s *Store) Get(ctx context.Context, id string) (Rule, error) {
	rules, err := s.query(ctx, "SELECT "+ruleCols+" FROM command_rules WHERE id = ?", id)
	if err != nil {
		return Rule{}, err
	}
	if len(rules) == 0 {
		return Rule{}, notFound(id)
	}
	return rules[0], nil
}

// List returns every rule, of every scope, oldest first.
func (s *Store) List(ctx context.Context) ([]Rule, error) {
	return s.query(ctx, "SELECT "+ruleCols+" FROM command_rules ORDER BY created_at, id")
}

// ForProject returns the global rules and projectID's ("" = global only).
func (s *Store) ForProject(ctx context.Context, projectID string) ([]Rule, error) {
	return s.query(ctx, "SELECT "+ruleCols+" FROM command_rules WHERE scope = 'global' OR (scope = 'project' AND project_id = ?) ORDER BY created_at, id", projectID)
}

// InEffect returns the rules that apply to a command of sessionID: the
// global ones, its project's and its own. A temporary session (no project)
// has the global and its own.
func (s *Store) InEffect(ctx context.Context, sessionID string) ([]Rule, error) {
	var project sql.NullString
	err := s.db.QueryRowContext(ctx, "SELECT project_id FROM sessions WHERE id = ?", sessionID).Scan(&project)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.New(errs.SessionNotFound, "no session %s; refresh the list", sessionID).With("id", sessionID)
	}
	if err != nil {
		return nil, storageErr(err, "read the session")
	}
	return s.query(ctx, "SELECT "+ruleCols+` FROM command_rules WHERE scope = 'global'
		OR (scope = 'project' AND project_id = ?) OR (scope = 'session' AND session_id = ?) ORDER BY created_at, id`,
		project.String, sessionID)
}

func (s *Store) query(ctx context.Context, q string, args ...any) ([]Rule, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, storageErr(err, "read the command rules")
	}
	defer rows.Close()
	out := []Rule{}
	for rows.Next() {
		var r Rule
		var words string
		if err := rows.Scan(&r.ID, &r.Decision, &r.Program, &words, &r.Scope, &r.ProjectID, &r.SessionID, &r.Note, &r.CreatedAt); err != nil {
			return nil, storageErr(err, "read the command rules")
		}
		if err := json.Unmarshal([]byte(words), &r.Args); err != nil || r.Args == nil {
			// A hand-edited row whose words no longer parse fails closed:
			// an allow is left out, a deny or ask covers the whole program.
			if r.Decision == Allow {
				continue
			}
			r.Args = []string{}
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "read the command rules")
	}
	return out, nil
}

func notFound(id string) error {
	return errs.New(errs.RuleNotFound, "no command rule has the id %q; list them again (Settings → Permissions, or pi-desktop rules list)", id).With("id", id)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func storageErr(err error, doing string) error {
	return errs.Wrap(err, errs.StorageUnavailable, "could not %s: the database did not answer; check free disk space and try again", doing)
}
