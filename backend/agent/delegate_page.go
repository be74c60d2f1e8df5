package agent

import (
	"context"
)

// DelegationPage is one delegate run as the window's Task row shows it
// after a reload: its record (state, counters, report) and its own
// conversation — the delegate's turn with its messages and tool calls and
// their results. The parent's transcript pages never hold it.
type DelegationPage struct {
	Delegation Delegation `json:"delegation"`
	Turns      []Turn     `json:"turns"`
	Messages   []Message  `json:"messages"`
}

// LoadDelegation returns one delegation of sessionID with its own
// conversation: the live record while this process runs it, else the
// stored one. A delegation of another session is DELEGATE_NOT_FOUND.
func (a *Agent) LoadDelegation(ctx context.Context, sessionID, id string) (DelegationPage, error) {
	p := DelegationPage{Turns: []Turn{}, Messages: []Message{}}
	d, err := a.Delegation(ctx, sessionID, id)
	if err != nil {
		return p, err
	}
	p.Delegation = d
	if d.TurnID == "" {
		return p, nil
	}
	if p.Turns, err = a.st.delegateTurns(ctx, sessionID, d.ID); err != nil {
		return p, err
	}
	if p.Messages, err = a.st.readMessages(ctx, sessionID, []string{d.TurnID}); err != nil {
		return p, err
	}
	return p, nil
}

// delegateTurns reads the turns a delegation owns (one today: its run).
func (s *store) delegateTurns(ctx context.Context, sessionID, delegationID string) ([]Turn, error) {
	turns := []Turn{}
	rows, err := s.db.QueryContext(ctx,
		`SELECT id, prompt, state, error_code, error_message, created_at, updated_at, COALESCE(ended_at, 0)
		 FROM agent_turns WHERE session_id = ? AND delegation_id = ? ORDER BY created_at, rowid`, sessionID, delegationID)
	if err != nil {
		return turns, storageErr(err, "load the delegate's conversation")
	}
	defer rows.Close()
	for rows.Next() {
		tu := Turn{SessionID: sessionID}
		if err := rows.Scan(&tu.ID, &tu.Prompt, &tu.State, &tu.ErrorCode, &tu.ErrorMessage, &tu.CreatedAt, &tu.UpdatedAt, &tu.EndedAt); err != nil {
			return turns, storageErr(err, "load the delegate's conversation")
		}
		turns = append(turns, tu)
	}
	if err := rows.Err(); err != nil {
		return turns, storageErr(err, "load the delegate's conversation")
	}
	return turns, nil
}
