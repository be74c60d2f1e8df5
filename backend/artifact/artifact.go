// Package artifact keeps a session's workspace deliverables (spec §4b): the
// files its Write and Edit calls left in the workspace, with the first and
// last message that wrote each and the hash of its bytes as the host last
// saw them. The host records only workspace-root targets (never scratch,
// visualization, external or skill paths); this package trusts its caller
// on that and only keeps the rows.
package artifact

import (
	"context"
	"database/sql"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Artifact is one recorded workspace file of a session.
type Artifact struct {
	// Path is workspace-relative with '/' separators.
	Path           string
	FirstMessageID string
	LastMessageID  string
	// SHA256 is the hex SHA-256 of the file's bytes as last written or
	// restored by the host.
	SHA256    string
	CreatedAt int64 // Unix milliseconds
	UpdatedAt int64
}

// Store reads and writes the artifacts table. It is safe for concurrent use.
type Store struct {
	db  *sql.DB
	now func() time.Time
}

// New returns a Store over db (migrated by backend/store); now may be nil.
func New(db *sql.DB, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{db: db, now: now}
}

// Record notes that messageID left path with the bytes hashed sha256: a new
// row names messageID as first and last writer, an existing one only as
// last.
func (s *Store) Record(ctx context.Context, sessionID, path, messageID, sha256 string) error {
	if sessionID == "" || path == "" || messageID == "" {
		return errs.New(errs.InvalidArgument, "an artifact needs a session, a path and a message id")
	}
	now := s.now().UnixMilli()
	_, err := s.db.ExecContext(ctx, `INSERT INTO artifacts
		(session_id, path, first_message_id, last_message_id, sha256, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (session_id, path) DO UPDATE SET
			last_message_id = excluded.last_message_id, sha256 = excluded.sha256, updated_at = excluded.updated_at`,
		sessionID, path, messageID, messageID, sha256, now, now)
	return storageErr(err)
}

// Rehash updates the hash of a recorded path (a rollback restored other
// bytes); it reports whether the path was recorded.
func (s *Store) Rehash(ctx context.Context, sessionID, path, sha256 string) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE artifacts SET sha256 = ?, updated_at = ? WHERE session_id = ? AND path = ?`,
		sha256, s.now().UnixMilli(), sessionID, path)
	if err != nil {
		return false, storageErr(err)
	}
	n, err := res.RowsAffected()
	return n > 0, storageErr(err)
}

// Forget removes a path that no longer exists (deleted, or its creation
// rolled back).
func (s *Store) Forget(ctx context.Context, sessionID, path string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM artifacts WHERE session_id = ? AND path = ?`, sessionID, path)
	return storageErr(err)
}

// List returns a session's artifacts, the most recently written first.
func (s *Store) List(ctx context.Context, sessionID string) ([]Artifact, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path, first_message_id, last_message_id, sha256, created_at, updated_at
		FROM artifacts WHERE session_id = ? ORDER BY updated_at DESC, id DESC`, sessionID)
	if err != nil {
		return nil, storageErr(err)
	}
	defer rows.Close()
	out := []Artifact{}
	for rows.Next() {
		var a Artifact
		if err := rows.Scan(&a.Path, &a.FirstMessageID, &a.LastMessageID, &a.SHA256, &a.CreatedAt, &a.UpdatedAt); err != nil {
			return nil, storageErr(err)
		}
		out = append(out, a)
	}
	return out, storageErr(rows.Err())
}

// DeleteSession removes a session's rows.
func (s *Store) DeleteSession(ctx context.Context, sessionID string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM artifacts WHERE session_id = ?`, sessionID)
	return storageErr(err)
}

func storageErr(err error) error {
	if err == nil {
		return nil
	}
	if e := errs.As(err); e != nil {
		return e
	}
	return errs.Wrap(err, errs.StorageUnavailable, "cannot read or write the session's file list in the database; check free disk space and retry")
}
