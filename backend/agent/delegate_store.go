package agent

import (
	"context"
	"database/sql"
	"errors"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

const delegationInterruptedText = "PI-Desktop stopped while this delegate was running; it is not resumed on its own: start a new Task that says what is left"

// beginDelegation inserts a running delegation, its own turn and the
// turn's prompt message atomically; it returns the prompt's seq.
func (s *store) beginDelegation(ctx context.Context, d Delegation, t Turn, promptMsgID string) (int64, error) {
	if _, err := s.db.ExecContext(ctx,
		`INSERT INTO delegations (id, session_id, parent_turn_id, parent_tool_call_id, turn_id, subagent, source, description, prompt, state, created_at, worktree_branch)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)`,
		d.ID, d.SessionID, d.ParentTurnID, d.ParentToolCallID, d.TurnID, d.Subagent, d.Source, d.Description, d.Prompt, d.CreatedAt, d.Branch); err != nil {
		return 0, storageErr(err, "save the delegation")
	}
	seq, err := s.beginTurn(ctx, t, promptMsgID)
	if err != nil {
		_, _ = s.db.ExecContext(ctx, `DELETE FROM delegations WHERE id = ?`, d.ID)
		return 0, err
	}
	return seq, nil
}

func (s *store) finishDelegation(ctx context.Context, d Delegation) error {
	if _, err := s.db.ExecContext(ctx,
		`UPDATE delegations SET state = ?, report = ?, error_code = ?, error_message = ?, turns_used = ?, tool_count = ?, finished_at = ?, merge_state = ? WHERE id = ?`,
		d.State, d.Report, d.ErrorCode, d.ErrorMessage, d.TurnsUsed, d.ToolCount, d.FinishedAt, d.MergeState, d.ID); err != nil {
		return storageErr(err, "save the delegation's outcome")
	}
	return nil
}

// saveReport stores a running delegate's report so far.
func (s *store) saveReport(ctx context.Context, id, report string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE delegations SET report = ? WHERE id = ?`, report, id); err != nil {
		return storageErr(err, "save the delegation's report so far")
	}
	return nil
}

const delegationColumns = `id, session_id, parent_turn_id, parent_tool_call_id, turn_id, subagent, source, description, prompt, state,
	report, error_code, error_message, turns_used, tool_count, created_at, COALESCE(finished_at, 0), worktree_branch, merge_state`

type scanner interface{ Scan(dest ...any) error }

func scanDelegation(row scanner) (Delegation, error) {
	var d Delegation
	err := row.Scan(&d.ID, &d.SessionID, &d.ParentTurnID, &d.ParentToolCallID, &d.TurnID, &d.Subagent, &d.Source, &d.Description,
		&d.Prompt, &d.State, &d.Report, &d.ErrorCode, &d.ErrorMessage, &d.TurnsUsed, &d.ToolCount, &d.CreatedAt, &d.FinishedAt,
		&d.Branch, &d.MergeState)
	d.Tools = []string{}
	return d, err
}

func (s *store) delegation(ctx context.Context, sessionID, id string) (Delegation, error) {
	d, err := scanDelegation(s.db.QueryRowContext(ctx,
		`SELECT `+delegationColumns+` FROM delegations WHERE session_id = ? AND id = ?`, sessionID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return d, errs.New(errs.DelegateNotFound, "this session has no delegation %q; TaskList shows the ones it has", id).With("id", id)
	}
	if err != nil {
		return d, storageErr(err, "read the delegation")
	}
	return d, nil
}

func (s *store) delegations(ctx context.Context, sessionID string) ([]Delegation, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT `+delegationColumns+` FROM delegations WHERE session_id = ? ORDER BY parent_turn_id, parent_tool_call_id, created_at, rowid`, sessionID)
	if err != nil {
		return nil, storageErr(err, "read the delegations")
	}
	defer rows.Close()
	out := []Delegation{}
	for rows.Next() {
		d, err := scanDelegation(rows)
		if err != nil {
			return nil, storageErr(err, "read the delegations")
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "read the delegations")
	}
	return out, nil
}
