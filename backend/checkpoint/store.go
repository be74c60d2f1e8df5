package checkpoint

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

const columns = `id, session_id, turn_id, message_id, tool_call_id, kind, workspace, shadow, tree_id, commit_id, captured, reason, files_changed, created_at`

// insert records cp and drops the session's checkpoints beyond Keep.
func (s *Service) insert(ctx context.Context, cp Checkpoint) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, `INSERT INTO checkpoints (`+columns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		cp.ID, cp.SessionID, cp.TurnID, cp.MessageID, cp.ToolCallID, string(cp.Kind), cp.Workspace, cp.shadow,
		cp.tree, cp.commit, cp.Captured, cp.Reason, cp.FilesChanged, cp.CreatedAt); err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return err
		}
		return storageErr(err)
	}
	// The session's ref still reaches the trimmed commits (they are the
	// newer ones' ancestors) until the session goes; only the rows go. The
	// newest before-restore checkpoints stay beyond Keep: each is the only
	// undo of a restore, and with it what the user had then.
	if _, err := tx.ExecContext(ctx, `DELETE FROM checkpoints WHERE session_id = ? AND seq NOT IN
		(SELECT seq FROM checkpoints WHERE session_id = ? ORDER BY seq DESC LIMIT ?)
		AND NOT (kind = ? AND seq IN (SELECT seq FROM checkpoints WHERE session_id = ? AND kind = ? ORDER BY seq DESC LIMIT ?))`,
		cp.SessionID, cp.SessionID, s.opts.Keep, string(BeforeRestore), cp.SessionID, string(BeforeRestore), keepRestoreUndos); err != nil {
		return storageErr(err)
	}
	return storageErr(tx.Commit())
}

// keepRestoreUndos is how many before-restore checkpoints a session keeps
// beyond Options.Keep.
const keepRestoreUndos = 20

// lastCommit is the session's newest captured checkpoint in shadow (zero
// for none).
func (s *Service) lastCommit(ctx context.Context, session, shadow string) (parentRef, error) {
	var p parentRef
	err := s.db.QueryRowContext(ctx, `SELECT commit_id, tree_id FROM checkpoints WHERE session_id = ? AND shadow = ? AND captured = 1
		ORDER BY seq DESC LIMIT 1`, session, shadow).Scan(&p.commit, &p.tree)
	if errors.Is(err, sql.ErrNoRows) {
		return parentRef{}, nil
	}
	return p, storageErr(err)
}

// List returns a session's checkpoints, newest first.
func (s *Service) List(ctx context.Context, sessionID string) ([]Checkpoint, error) {
	return s.query(ctx, `SELECT `+columns+` FROM checkpoints WHERE session_id = ? ORDER BY seq DESC`, sessionID)
}

// Get returns one checkpoint of a session (CHECKPOINT_NOT_FOUND if it has none by that id).
func (s *Service) Get(ctx context.Context, sessionID, id string) (Checkpoint, error) {
	list, err := s.query(ctx, `SELECT `+columns+` FROM checkpoints WHERE session_id = ? AND id = ?`, sessionID, id)
	if err != nil {
		return Checkpoint{}, err
	}
	if len(list) == 0 {
		return Checkpoint{}, errs.New(errs.CheckpointNotFound, "the session has no checkpoint %q; list them with {\"op\":\"checkpoints\"} or the Changes pane", id).With("checkpointId", id)
	}
	return list[0], nil
}

// chainFrom is the session's captured checkpoints of from's shadow from
// from on, oldest first.
func (s *Service) chainFrom(ctx context.Context, from Checkpoint) ([]Checkpoint, error) {
	return s.query(ctx, `SELECT `+columns+` FROM checkpoints WHERE session_id = ? AND shadow = ? AND captured = 1
		AND seq >= (SELECT seq FROM checkpoints WHERE id = ?) ORDER BY seq`, from.SessionID, from.shadow, from.ID)
}

func (s *Service) query(ctx context.Context, q string, args ...any) ([]Checkpoint, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, storageErr(err)
	}
	defer rows.Close()
	var out []Checkpoint
	for rows.Next() {
		var cp Checkpoint
		var kind string
		if err := rows.Scan(&cp.ID, &cp.SessionID, &cp.TurnID, &cp.MessageID, &cp.ToolCallID, &kind, &cp.Workspace, &cp.shadow,
			&cp.tree, &cp.commit, &cp.Captured, &cp.Reason, &cp.FilesChanged, &cp.CreatedAt); err != nil {
			return nil, storageErr(err)
		}
		cp.Kind = Kind(kind)
		out = append(out, cp)
	}
	return out, storageErr(rows.Err())
}

// DeleteSession removes a session's checkpoints: its rows and its ref in
// every shadow (found on disk: the rows may already have gone with the
// session), so git gc can drop what only it referenced.
func (s *Service) DeleteSession(ctx context.Context, sessionID string) error {
	if err := validID("session", sessionID); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM checkpoints WHERE session_id = ?`, sessionID); err != nil {
		return storageErr(err)
	}
	s.forgetWrites(sessionID)
	refs, err := filepath.Glob(filepath.Join(s.dir, "*", "git", "refs", "sessions", sessionID))
	if err != nil {
		return err
	}
	var first error
	for _, ref := range refs {
		if err := os.Remove(ref); err != nil && !errors.Is(err, os.ErrNotExist) && first == nil {
			first = err
		}
	}
	return first
}

// SweepReport says what Sweep removed.
type SweepReport struct {
	Rows    int64 // checkpoints whose session is gone
	Refs    int   // refs of sessions that are gone
	Shadows int   // shadow folders no checkpoint refers to
}

// Sweep removes what deleted sessions left behind (as the scratch sweep
// does at start-up): rows and refs of sessions that no longer exist, and
// shadow folders no checkpoint refers to any more.
func (s *Service) Sweep(ctx context.Context) (SweepReport, error) {
	var r SweepReport
	res, err := s.db.ExecContext(ctx, `DELETE FROM checkpoints WHERE session_id NOT IN (SELECT id FROM sessions)`)
	if err != nil {
		return r, storageErr(err)
	}
	r.Rows, _ = res.RowsAffected()
	live := map[string]map[string]bool{} // shadow → sessions with rows there
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT shadow, session_id FROM checkpoints`)
	if err != nil {
		return r, storageErr(err)
	}
	for rows.Next() {
		var sh, sess string
		if err := rows.Scan(&sh, &sess); err != nil {
			rows.Close()
			return r, storageErr(err)
		}
		if live[sh] == nil {
			live[sh] = map[string]bool{}
		}
		live[sh][sess] = true
	}
	rows.Close()
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if live[e.Name()] == nil {
			if err := os.RemoveAll(filepath.Join(s.dir, e.Name())); err == nil {
				r.Shadows++
			}
			continue
		}
		refs := filepath.Join(s.dir, e.Name(), "git", "refs", "sessions")
		names, _ := os.ReadDir(refs)
		for _, n := range names {
			if !live[e.Name()][n.Name()] && os.Remove(filepath.Join(refs, n.Name())) == nil {
				r.Refs++
			}
		}
	}
	return r, nil
}

func storageErr(err error) error {
	if err == nil {
		return nil
	}
	if e := errs.As(err); e != nil {
		return e
	}
	return errs.Wrap(err, errs.StorageUnavailable, "cannot read or write checkpoints in the database; check free disk space and retry")
}
