package agent

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Persistence of the runtime-owned tools (migration 0005): the checklist
// snapshot per session and the Plan/Goal proposals.

func (s *store) saveTodos(ctx context.Context, sessionID, turnID, toolCallID string, todos []Todo, now int64) error {
	if todos == nil {
		todos = []Todo{}
	}
	if _, err := s.db.ExecContext(ctx,
		`INSERT INTO agent_todos (session_id, todos, turn_id, tool_call_id, updated_at) VALUES (?, ?, ?, ?, ?)
		 ON CONFLICT (session_id) DO UPDATE SET todos = excluded.todos, turn_id = excluded.turn_id,
		   tool_call_id = excluded.tool_call_id, updated_at = excluded.updated_at`,
		sessionID, mustJSON(todos), turnID, toolCallID, now); err != nil {
		return storageErr(err, "save the checklist")
	}
	return nil
}

func (s *store) loadTodos(ctx context.Context, sessionID string) ([]Todo, error) {
	var raw string
	err := s.db.QueryRowContext(ctx, `SELECT todos FROM agent_todos WHERE session_id = ?`, sessionID).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return []Todo{}, nil
	}
	if err != nil {
		return nil, storageErr(err, "load the checklist")
	}
	todos := []Todo{}
	if err := json.Unmarshal([]byte(raw), &todos); err != nil {
		return nil, errs.Wrap(err, errs.StorageCorrupt, "the checklist of session %s cannot be read", sessionID)
	}
	return todos, nil
}

// insertProposal stores a pending proposal with the session's next version
// and returns that version.
func (s *store) insertProposal(ctx context.Context, p Proposal) (int, error) {
	var version int
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) + 1 FROM agent_proposals WHERE session_id = ?`, p.SessionID).
			Scan(&version); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`INSERT INTO agent_proposals (id, session_id, turn_id, tool_call_id, kind, version, title, question, markdown, path, sha256, size, state, created_at)
			 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
			p.ID, p.SessionID, p.TurnID, p.ToolCallID, p.Kind, version, p.Title, p.Question, p.Markdown, p.Path, p.SHA256, p.Size, p.CreatedAt)
		return err
	})
	if err != nil {
		return 0, storageErr(err, "save the proposal")
	}
	return version, nil
}

// resolveProposal writes a proposal's state, decision fields and time.
func (s *store) resolveProposal(ctx context.Context, p Proposal) error {
	var resolved any
	if p.ResolvedAt != 0 {
		resolved = p.ResolvedAt
	}
	if _, err := s.db.ExecContext(ctx,
		`UPDATE agent_proposals SET state = ?, permission_mode = ?, feedback = ?, resolved_at = ? WHERE id = ?`,
		p.State, p.PermissionMode, p.Feedback, resolved, p.ID); err != nil {
		return storageErr(err, "save the decision on the proposal")
	}
	return nil
}

const proposalColumns = `id, session_id, turn_id, tool_call_id, kind, version, title, question, markdown, path, sha256, size, state,
	permission_mode, feedback, created_at, COALESCE(resolved_at, 0)`

func scanProposal(row interface{ Scan(...any) error }) (Proposal, error) {
	var p Proposal
	err := row.Scan(&p.ID, &p.SessionID, &p.TurnID, &p.ToolCallID, &p.Kind, &p.Version, &p.Title, &p.Question, &p.Markdown,
		&p.Path, &p.SHA256, &p.Size, &p.State, &p.PermissionMode, &p.Feedback, &p.CreatedAt, &p.ResolvedAt)
	return p, err
}

func (s *store) getProposal(ctx context.Context, id string) (Proposal, bool, error) {
	p, err := scanProposal(s.db.QueryRowContext(ctx, `SELECT `+proposalColumns+` FROM agent_proposals WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Proposal{}, false, nil
	}
	if err != nil {
		return Proposal{}, false, storageErr(err, "load the proposal")
	}
	return p, true, nil
}

func (s *store) listProposals(ctx context.Context, sessionID string) ([]Proposal, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+proposalColumns+` FROM agent_proposals WHERE session_id = ? ORDER BY version`, sessionID)
	if err != nil {
		return nil, storageErr(err, "load the proposals")
	}
	defer rows.Close()
	out := []Proposal{}
	for rows.Next() {
		p, err := scanProposal(rows)
		if err != nil {
			return nil, storageErr(err, "load the proposals")
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "load the proposals")
	}
	return out, nil
}
