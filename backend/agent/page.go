package agent

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// PageQuery picks the turns of a transcript page. Pages hold whole turns,
// so the window never shows half a turn.
type PageQuery struct {
	// Before asks for the turns older than this one (scrolling up); "" for
	// the newest.
	Before string
	// Since asks for every turn from this one on, however many messages
	// they hold: a reload of exactly what the window shows. It wins over
	// Before and Limit.
	Since string
	// Limit is how many messages are wanted: turns are added, newest first,
	// until they hold at least this many (or one turn when it alone holds more).
	Limit int
}

// MaxPageMessages caps PageQuery.Limit.
const MaxPageMessages = 5000

// Page is a contiguous run of a session's turns with their messages, for
// the window: a long session opens with its latest page and loads older
// ones as the user scrolls up.
type Page struct {
	SessionID string    `json:"sessionId"`
	Turns     []Turn    `json:"turns"`
	Messages  []Message `json:"messages"`
	// More: older turns exist before the first of Turns.
	More bool `json:"more"`
}

// LoadPage returns one page of a session's transcript. A turn id in the
// query that is not one of the session's turns is NOT_FOUND: a page never
// reaches into another session.
func (a *Agent) LoadPage(ctx context.Context, sessionID string, q PageQuery) (Page, error) {
	return a.st.loadPage(ctx, sessionID, q)
}

// turnRef is a turn's id and its message count, in transcript order.
type turnRef struct {
	id       string
	messages int
}

func (s *store) loadPage(ctx context.Context, sessionID string, q PageQuery) (Page, error) {
	p := Page{SessionID: sessionID, Turns: []Turn{}, Messages: []Message{}}
	refs, err := s.turnRefs(ctx, sessionID)
	if err != nil {
		return p, err
	}
	find := func(id string) (int, error) {
		for i, r := range refs {
			if r.id == id {
				return i, nil
			}
		}
		return 0, errs.New(errs.NotFound, "turn %s is not part of session %s; reload the session", id, sessionID)
	}
	from, to := 0, len(refs)
	switch {
	case q.Since != "":
		if from, err = find(q.Since); err != nil {
			return p, err
		}
	default:
		if q.Before != "" {
			if to, err = find(q.Before); err != nil {
				return p, err
			}
		}
		limit := min(max(q.Limit, 1), MaxPageMessages)
		from = to
		for n := 0; from > 0 && n < limit; {
			from--
			n += max(refs[from].messages, 1)
		}
	}
	if from == to {
		return p, nil
	}
	ids := make([]string, 0, to-from)
	for _, r := range refs[from:to] {
		ids = append(ids, r.id)
	}
	all, err := s.readTurns(ctx, sessionID)
	if err != nil {
		return p, err
	}
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	for _, t := range all {
		if want[t.ID] {
			p.Turns = append(p.Turns, t)
		}
	}
	if p.Messages, err = s.readMessages(ctx, sessionID, ids); err != nil {
		return p, err
	}
	p.More = from > 0
	return p, nil
}

// turnRefs lists a session's turns in transcript order with how many
// messages each holds.
func (s *store) turnRefs(ctx context.Context, sessionID string) ([]turnRef, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT t.id, COALESCE(m.n, 0) FROM agent_turns t
		 LEFT JOIN (SELECT turn_id, COUNT(*) AS n FROM agent_messages WHERE session_id = ? GROUP BY turn_id) m ON m.turn_id = t.id
		 WHERE t.session_id = ? AND t.delegation_id = '' ORDER BY t.created_at, t.rowid`, sessionID, sessionID)
	if err != nil {
		return nil, storageErr(err, "load the transcript")
	}
	defer rows.Close()
	var refs []turnRef
	for rows.Next() {
		var r turnRef
		if err := rows.Scan(&r.id, &r.messages); err != nil {
			return nil, storageErr(err, "load the transcript")
		}
		refs = append(refs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "load the transcript")
	}
	return refs, nil
}

func (s *store) readTurns(ctx context.Context, sessionID string) ([]Turn, error) {
	turns := []Turn{}
	rows, err := s.db.QueryContext(ctx,
		`SELECT id, prompt, state, error_code, error_message, created_at, updated_at, COALESCE(ended_at, 0)
		 FROM agent_turns WHERE session_id = ? AND delegation_id = '' ORDER BY created_at, rowid`, sessionID)
	if err != nil {
		return turns, storageErr(err, "load the transcript")
	}
	defer rows.Close()
	for rows.Next() {
		tu := Turn{SessionID: sessionID}
		if err := rows.Scan(&tu.ID, &tu.Prompt, &tu.State, &tu.ErrorCode, &tu.ErrorMessage, &tu.CreatedAt, &tu.UpdatedAt, &tu.EndedAt); err != nil {
			return turns, storageErr(err, "load the transcript")
		}
		turns = append(turns, tu)
	}
	if err := rows.Err(); err != nil {
		return turns, storageErr(err, "load the transcript")
	}
	return turns, nil
}

// readMessages reads the session's messages in seq order with their tool
// calls: of the given turns, or of every turn of the session's own
// conversation when turnIDs is nil (a delegate's never enter it).
func (s *store) readMessages(ctx context.Context, sessionID string, turnIDs []string) ([]Message, error) {
	msgs := []Message{}
	filter, args := " AND turn_id NOT IN (SELECT id FROM agent_turns WHERE delegation_id != '')", []any{sessionID}
	if turnIDs != nil {
		if len(turnIDs) == 0 {
			return msgs, nil
		}
		filter = " AND turn_id IN (SELECT value FROM json_each(?))"
		args = append(args, mustJSON(turnIDs))
	}
	rows, err := s.db.QueryContext(ctx,
		`SELECT seq, id, turn_id, role, kind, content, stop_reason, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,
		 created_at, updated_at, cost
		 FROM agent_messages WHERE session_id = ?`+filter+` ORDER BY seq`, args...)
	if err != nil {
		return msgs, storageErr(err, "load the transcript")
	}
	index := map[string]int{}
	for rows.Next() {
		m := Message{SessionID: sessionID}
		var role, content string
		var cost sql.NullInt64
		if err := rows.Scan(&m.Seq, &m.ID, &m.TurnID, &role, &m.Kind, &content, &m.StopReason,
			&m.Usage.InputTokens, &m.Usage.OutputTokens, &m.Usage.CacheReadTokens, &m.Usage.CacheWriteTokens, &m.CreatedAt, &m.UpdatedAt, &cost); err != nil {
			rows.Close()
			return msgs, storageErr(err, "load the transcript")
		}
		m.Role = provider.Role(role)
		if cost.Valid {
			c := provider.Cost(cost.Int64)
			m.priced.cost = &c
			m.CostUSD = m.priced.usd()
		}
		if err := json.Unmarshal([]byte(content), &m.Content); err != nil {
			rows.Close()
			return msgs, errs.Wrap(err, errs.StorageCorrupt, "message %s of session %s cannot be read", m.ID, sessionID)
		}
		index[m.ID] = len(msgs)
		msgs = append(msgs, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return msgs, storageErr(err, "load the transcript")
	}
	return msgs, s.readCalls(ctx, sessionID, filter, args, msgs, index)
}

// readCalls attaches the tool calls (filtered like their messages) to msgs.
func (s *store) readCalls(ctx context.Context, sessionID, filter string, args []any, msgs []Message, index map[string]int) error {
	rows, err := s.db.QueryContext(ctx,
		`SELECT id, turn_id, message_id, tool_use_id, position, tool, args, state, result, model_text, is_error, error_code, images,
		        instructions, created_at, COALESCE(started_at, 0), COALESCE(finished_at, 0)
		 FROM agent_tool_calls WHERE session_id = ?`+filter+` ORDER BY message_id, position`, args...)
	if err != nil {
		return storageErr(err, "load the transcript")
	}
	defer rows.Close()
	for rows.Next() {
		var c ToolCallRecord
		var args, result, images, instr string
		if err := rows.Scan(&c.ID, &c.TurnID, &c.MessageID, &c.ToolUseID, &c.Position, &c.Tool, &args, &c.State,
			&result, &c.ModelText, &c.IsError, &c.ErrorCode, &images, &instr, &c.CreatedAt, &c.StartedAt, &c.FinishedAt); err != nil {
			return storageErr(err, "load the transcript")
		}
		if instr != "" {
			if err := json.Unmarshal([]byte(instr), &c.Instructions); err != nil {
				return errs.Wrap(err, errs.StorageCorrupt, "the instruction files of tool call %s cannot be read", c.ID)
			}
		}
		if images != "" {
			if err := json.Unmarshal([]byte(images), &c.images); err != nil {
				return errs.Wrap(err, errs.StorageCorrupt, "the image references of tool call %s cannot be read", c.ID)
			}
		}
		c.Args = json.RawMessage(args)
		if result != "" {
			c.Result = json.RawMessage(result)
		}
		if i, ok := index[c.MessageID]; ok {
			msgs[i].ToolCalls = append(msgs[i].ToolCalls, c)
		}
	}
	if err := rows.Err(); err != nil {
		return storageErr(err, "load the transcript")
	}
	return nil
}
