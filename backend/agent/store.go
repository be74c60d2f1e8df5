package agent

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// Turn states.
const (
	TurnRunning     = "running"
	TurnDone        = "done"
	TurnFailed      = "failed"
	TurnAborted     = "aborted"
	TurnInterrupted = "interrupted"
)

// Message kinds.
const (
	KindPrompt  = "prompt"
	KindModel   = "model"
	KindSummary = "summary"
)

// Stop reasons the agent writes itself, beside the provider's.
const (
	stopStreaming   = ""
	stopAborted     = "aborted"
	stopFailed      = "failed"
	stopInterrupted = "interrupted"
)

// Tool call states.
const (
	CallPending     = "pending"
	CallRunning     = "running"
	CallDone        = "done"
	CallFailed      = "failed"
	CallAborted     = "aborted"
	CallSkipped     = "skipped"
	CallInterrupted = "interrupted"
)

// Turn is one user prompt and everything the agent did for it.
type Turn struct {
	ID           string `json:"id"`
	SessionID    string `json:"sessionId"`
	Prompt       string `json:"prompt"`
	State        string `json:"state"`
	ErrorCode    string `json:"errorCode,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	CreatedAt    int64  `json:"createdAt"`
	UpdatedAt    int64  `json:"updatedAt"`
	EndedAt      int64  `json:"endedAt,omitempty"`
	// delegationID is set on a delegate's own turn: the parent's
	// transcript and context never read it.
	delegationID string
	// attachments are stored with the prompt message's text.
	attachments []api.Attachment
}

// Message is one persisted message. Assistant messages carry their tool
// calls; the tool_result message the model saw is derived from them.
type Message struct {
	Seq        int64            `json:"seq"`
	ID         string           `json:"id"`
	SessionID  string           `json:"sessionId"`
	TurnID     string           `json:"turnId"`
	Role       provider.Role    `json:"role"`
	Kind       string           `json:"kind"`
	Content    []provider.Block `json:"content"`
	StopReason string           `json:"stopReason"`
	Usage      provider.Usage   `json:"usage"`
	ToolCalls  []ToolCallRecord `json:"toolCalls,omitempty"`
	CreatedAt  int64            `json:"createdAt"`
	UpdatedAt  int64            `json:"updatedAt"`
	// CostUSD is a model response's cost at the price in effect when it
	// was made (nil: unknown, or not a model response), for display.
	CostUSD *float64 `json:"costUsd,omitempty"`
	// priced is written with the message (see pricing).
	priced pricing
}

// ToolCallRecord is one tool call and its outcome.
type ToolCallRecord struct {
	ID        string          `json:"id"`
	TurnID    string          `json:"turnId"`
	MessageID string          `json:"messageId"`
	ToolUseID string          `json:"toolUseId"`
	Position  int             `json:"position"`
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args" ts_type:"unknown"`
	State     string          `json:"state"`
	// Result is the full tools.Result JSON (review records included);
	// ModelText and IsError are exactly what the model received.
	Result    json.RawMessage `json:"result,omitempty" ts_type:"unknown"`
	ModelText string          `json:"modelText"`
	IsError   bool            `json:"isError"`
	ErrorCode string          `json:"errorCode,omitempty"`
	// Instructions are the path instruction files loaded with this call's
	// result (their text is in ModelText).
	Instructions []InstructionFile `json:"instructions,omitempty"`
	// images are the result's stored images (also in Result), read on
	// their own so building a request parses no result.
	images     []tools.ImageRef
	CreatedAt  int64 `json:"createdAt"`
	StartedAt  int64 `json:"startedAt,omitempty"`
	FinishedAt int64 `json:"finishedAt,omitempty"`
}

// Checkpoint replaces every message up to UptoSeq in the next request.
type Checkpoint struct {
	ID       string             `json:"id"`
	TurnID   string             `json:"turnId"`
	UptoSeq  int64              `json:"uptoSeq"`
	Messages []provider.Message `json:"messages"`
	Summary  string             `json:"summary"`
	// Retained are the user's messages the checkpoint keeps, oldest first
	// (the oldest possibly clipped with a marker); a later checkpoint
	// starts from them.
	Retained     []string `json:"retained"`
	TokensBefore int      `json:"tokensBefore"`
	CreatedAt    int64    `json:"createdAt"`
}

// Transcript is a session's whole history: every turn and message for the
// UI, and the latest checkpoint the next request starts from.
type Transcript struct {
	SessionID  string      `json:"sessionId"`
	Turns      []Turn      `json:"turns"`
	Messages   []Message   `json:"messages"`
	Checkpoint *Checkpoint `json:"checkpoint,omitempty"`
}

// store persists the transcript. Every write uses a context that survives
// Stop: what happened is recorded even when the turn was cancelled.
type store struct {
	db  *sql.DB
	now func() time.Time
}

func (s *store) ms() int64 { return s.now().UnixMilli() }

func storageErr(err error, doing string) error {
	return errs.Wrap(err, errs.StorageUnavailable, "could not %s: the database did not answer; check free disk space and restart PI-Desktop", doing)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// beginTurn inserts a running turn and its prompt message atomically.
func (s *store) beginTurn(ctx context.Context, t Turn, promptMsgID string) (int64, error) {
	var seq int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO agent_turns (id, session_id, prompt, state, created_at, updated_at, delegation_id) VALUES (?, ?, ?, 'running', ?, ?, ?)`,
			t.ID, t.SessionID, t.Prompt, t.CreatedAt, t.CreatedAt, t.delegationID); err != nil {
			return err
		}
		content := promptContent(t.Prompt, t.attachments)
		r, err := tx.ExecContext(ctx,
			`INSERT INTO agent_messages (id, session_id, turn_id, role, kind, content, stop_reason, created_at, updated_at)
			 VALUES (?, ?, ?, 'user', 'prompt', ?, 'end_turn', ?, ?)`,
			promptMsgID, t.SessionID, t.ID, mustJSON(content), t.CreatedAt, t.CreatedAt)
		if err != nil {
			return err
		}
		seq, err = r.LastInsertId()
		return err
	})
	if err != nil {
		return 0, storageErr(err, "save the prompt")
	}
	return seq, nil
}

func (s *store) finishTurn(ctx context.Context, id, state string, code errs.Code, message string) error {
	now := s.ms()
	if _, err := s.db.ExecContext(ctx,
		`UPDATE agent_turns SET state = ?, error_code = ?, error_message = ?, updated_at = ?, ended_at = ? WHERE id = ?`,
		state, string(code), message, now, now, id); err != nil {
		return storageErr(err, "save the turn's outcome")
	}
	return nil
}

// insertMessage adds a message and returns its seq.
func (s *store) insertMessage(ctx context.Context, m Message) (int64, error) {
	r, err := s.db.ExecContext(ctx,
		`INSERT INTO agent_messages (id, session_id, turn_id, role, kind, content, stop_reason, input_tokens, output_tokens,
		 cache_read_tokens, cache_write_tokens, created_at, updated_at, cost, cost_profile_id, cost_model)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.ID, m.SessionID, m.TurnID, string(m.Role), m.Kind, mustJSON(blocksOrEmpty(m.Content)), m.StopReason,
		m.Usage.InputTokens, m.Usage.OutputTokens, m.Usage.CacheReadTokens, m.Usage.CacheWriteTokens, m.CreatedAt, m.CreatedAt,
		m.priced.column(), m.priced.profileID, m.priced.model)
	if err != nil {
		return 0, storageErr(err, "save a message")
	}
	return r.LastInsertId()
}

// updateMessage rewrites a streaming message's content (and, once it ended,
// its stop reason, usage and what it cost).
func (s *store) updateMessage(ctx context.Context, id string, content []provider.Block, stop string, usage provider.Usage, priced pricing) error {
	if _, err := s.db.ExecContext(ctx,
		`UPDATE agent_messages SET content = ?, stop_reason = ?, input_tokens = ?, output_tokens = ?,
		 cache_read_tokens = ?, cache_write_tokens = ?, updated_at = ?, cost = ?, cost_profile_id = ?, cost_model = ? WHERE id = ?`,
		mustJSON(blocksOrEmpty(content)), stop, usage.InputTokens, usage.OutputTokens, usage.CacheReadTokens, usage.CacheWriteTokens,
		s.ms(), priced.column(), priced.profileID, priced.model, id); err != nil {
		return storageErr(err, "save a message")
	}
	return nil
}

func blocksOrEmpty(b []provider.Block) []provider.Block {
	if b == nil {
		return []provider.Block{}
	}
	return b
}

// prepareCalls writes all tool calls of an assistant message as
// pending, in source order, in one transaction: before any of them runs.
func (s *store) prepareCalls(ctx context.Context, msgID string, calls []*prepared) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		now := s.ms()
		for _, c := range calls {
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO agent_tool_calls (id, session_id, turn_id, message_id, tool_use_id, position, tool, args, state, created_at)
				 VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
				c.id, c.sessionID, c.turnID, msgID, c.toolUseID, c.position, c.tool, string(c.args), now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return storageErr(err, "save the tool calls")
	}
	return nil
}

func (s *store) startCall(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE agent_tool_calls SET state = 'running', started_at = ? WHERE id = ?`, s.ms(), id); err != nil {
		return storageErr(err, "save a tool call")
	}
	return nil
}

func (s *store) finishCall(ctx context.Context, c *prepared) error {
	res, err := json.Marshal(c.result)
	if err != nil {
		return errs.Wrap(err, errs.Internal, "cannot encode the result of %s", c.tool)
	}
	if _, err := s.db.ExecContext(ctx,
		`UPDATE agent_tool_calls SET state = ?, result = ?, model_text = ?, is_error = ?, error_code = ?, images = ?, instructions = ?, finished_at = ? WHERE id = ?`,
		c.state, string(res), c.modelText, c.isError, string(c.result.Code), imagesColumn(c.result.Images), instructionsColumn(c.instructions), s.ms(), c.id); err != nil {
		return storageErr(err, "save a tool result")
	}
	return nil
}

// imagesColumn is a result's image references as stored ("" for none).
func imagesColumn(refs []tools.ImageRef) string {
	if len(refs) == 0 {
		return ""
	}
	return mustJSON(refs)
}

// instructionsColumn is a call's instruction files as stored ("" for none).
func instructionsColumn(files []InstructionFile) string {
	if len(files) == 0 {
		return ""
	}
	return mustJSON(files)
}

func (s *store) insertCheckpoint(ctx context.Context, sessionID string, cp Checkpoint) error {
	if _, err := s.db.ExecContext(ctx,
		`INSERT INTO agent_checkpoints (id, session_id, turn_id, upto_seq, messages, summary, retained, tokens_before, created_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		cp.ID, sessionID, cp.TurnID, cp.UptoSeq, mustJSON(cp.Messages), cp.Summary, mustJSON(cp.Retained), cp.TokensBefore, cp.CreatedAt); err != nil {
		return storageErr(err, "save the context checkpoint")
	}
	return nil
}

// markInterrupted ends every running turn as interrupted: its streaming
// messages and its unfinished tool calls with it. Nothing is replayed.
func (s *store) markInterrupted(ctx context.Context) (int, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		now := s.ms()
		const running = `SELECT id FROM agent_turns WHERE state = 'running'`
		if _, err := tx.ExecContext(ctx,
			`UPDATE agent_messages SET stop_reason = 'interrupted', updated_at = ? WHERE stop_reason = '' AND turn_id IN (`+running+`)`, now); err != nil {
			return err
		}
		for _, st := range []struct{ from, text string }{
			{CallPending, interruptedPendingText},
			{CallRunning, interruptedRunningText},
		} {
			res := mustJSON(map[string]any{"ok": false, "code": errs.TurnInterrupted, "message": st.text})
			if _, err := tx.ExecContext(ctx,
				`UPDATE agent_tool_calls SET state = 'interrupted', result = ?, model_text = ?, is_error = 1, error_code = ?, finished_at = ?
				 WHERE state = ? AND turn_id IN (`+running+`)`,
				res, st.text, string(errs.TurnInterrupted), now, st.from); err != nil {
				return err
			}
		}
		// A proposal waits only while its turn runs: one left pending can no
		// longer be decided (PLAN_APPROVAL_INTERRUPTED).
		if _, err := tx.ExecContext(ctx,
			`UPDATE agent_proposals SET state = 'interrupted', resolved_at = ? WHERE state = 'pending'`, now); err != nil {
			return err
		}
		// A delegate runs only while PI-Desktop does: it is never replayed.
		if err := markIsolatedInterrupted(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`UPDATE delegations SET state = 'interrupted', error_code = ?, error_message = ?, finished_at = ? WHERE state IN ('running', 'waiting')`,
			string(errs.TurnInterrupted), delegationInterruptedText, now); err != nil {
			return err
		}
		r, err := tx.ExecContext(ctx,
			`UPDATE agent_turns SET state = 'interrupted', error_code = ?, error_message = ?, updated_at = ?, ended_at = ? WHERE state = 'running'`,
			string(errs.TurnInterrupted), "PI-Desktop stopped while this turn was running; send a new prompt to continue", now, now)
		if err != nil {
			return err
		}
		n, err = r.RowsAffected()
		return err
	})
	if err != nil {
		return 0, storageErr(err, "mark interrupted turns")
	}
	return int(n), nil
}

const (
	interruptedPendingText = "not run: the turn was interrupted (PI-Desktop stopped) before this call started"
	interruptedRunningText = "interrupted: PI-Desktop stopped while this call was running; its effect is unknown, so check the current state before retrying"
)

// load reads a session's transcript.
func (s *store) load(ctx context.Context, sessionID string) (Transcript, error) {
	t := Transcript{SessionID: sessionID, Turns: []Turn{}, Messages: []Message{}}
	var err error
	if t.Turns, err = s.readTurns(ctx, sessionID); err != nil {
		return t, err
	}
	if t.Messages, err = s.readMessages(ctx, sessionID, nil); err != nil {
		return t, err
	}

	var cp Checkpoint
	var msgs, retained string
	err = s.db.QueryRowContext(ctx,
		`SELECT id, turn_id, upto_seq, messages, summary, retained, tokens_before, created_at
		 FROM agent_checkpoints WHERE session_id = ? ORDER BY seq DESC LIMIT 1`, sessionID).
		Scan(&cp.ID, &cp.TurnID, &cp.UptoSeq, &msgs, &cp.Summary, &retained, &cp.TokensBefore, &cp.CreatedAt)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return t, storageErr(err, "load the transcript")
	default:
		if err := errors.Join(json.Unmarshal([]byte(msgs), &cp.Messages), json.Unmarshal([]byte(retained), &cp.Retained)); err != nil {
			return t, errs.Wrap(err, errs.StorageCorrupt, "the context checkpoint of session %s cannot be read", sessionID)
		}
		t.Checkpoint = &cp
	}
	return t, nil
}

func (s *store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
