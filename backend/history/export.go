package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/redact"
)

// Export formats.
const (
	FormatMarkdown = "md"
	FormatJSON     = "json"
)

// ExportFormat and ExportVersion name the JSON document; a reader checks
// both before it trusts the shape.
const (
	ExportFormat  = "pi-desktop.session"
	ExportVersion = 1
)

// Export is a whole session as stored: every turn, message and tool call
// with its full result, with secret values redacted (spec §8).
type Export struct {
	Format     string        `json:"format"`
	Version    int           `json:"version"`
	ExportedAt int64         `json:"exportedAt"` // unix ms
	Session    ExportSession `json:"session"`
	Turns      []ExportTurn  `json:"turns"`
	Messages   []ExportMsg   `json:"messages"`
	ToolCalls  []ExportCall  `json:"toolCalls"`
}

// ExportSession is the session's own row and its project.
type ExportSession struct {
	ID             string `json:"id"`
	Title          string `json:"title"`
	ProjectID      string `json:"projectId,omitempty"`
	ProjectName    string `json:"projectName,omitempty"`
	Workspace      string `json:"workspace,omitempty"`
	OperatingMode  string `json:"operatingMode"`
	PermissionMode string `json:"permissionMode"`
	Isolated       bool   `json:"isolated"`
	CreatedAt      int64  `json:"createdAt"`
	UpdatedAt      int64  `json:"updatedAt"`
}

// ExportTurn is one user prompt's turn.
type ExportTurn struct {
	ID           string `json:"id"`
	Prompt       string `json:"prompt"`
	State        string `json:"state"`
	ErrorCode    string `json:"errorCode,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	DelegationID string `json:"delegationId,omitempty"` // a delegate's own turn
	CreatedAt    int64  `json:"createdAt"`
	EndedAt      *int64 `json:"endedAt,omitempty"`
}

// ExportMsg is a message with its provider blocks as stored.
type ExportMsg struct {
	ID               string          `json:"id"`
	TurnID           string          `json:"turnId"`
	Role             string          `json:"role"`
	Kind             string          `json:"kind"`
	Content          json.RawMessage `json:"content"`
	StopReason       string          `json:"stopReason,omitempty"`
	InputTokens      int64           `json:"inputTokens"`
	OutputTokens     int64           `json:"outputTokens"`
	CacheReadTokens  int64           `json:"cacheReadTokens"`
	CacheWriteTokens int64           `json:"cacheWriteTokens"`
	CostPicoUSD      *int64          `json:"costPicoUsd,omitempty"` // unknown when absent
	CostModel        string          `json:"costModel,omitempty"`
	CreatedAt        int64           `json:"createdAt"`
}

// ExportCall is a tool call with its arguments and full result.
type ExportCall struct {
	ID         string          `json:"id"`
	TurnID     string          `json:"turnId"`
	MessageID  string          `json:"messageId"`
	ToolUseID  string          `json:"toolUseId"`
	Position   int             `json:"position"`
	Tool       string          `json:"tool"`
	Args       json.RawMessage `json:"args"`
	State      string          `json:"state"`
	Result     json.RawMessage `json:"result,omitempty"`
	ModelText  string          `json:"modelText"`
	IsError    bool            `json:"isError"`
	ErrorCode  string          `json:"errorCode,omitempty"`
	CreatedAt  int64           `json:"createdAt"`
	StartedAt  *int64          `json:"startedAt,omitempty"`
	FinishedAt *int64          `json:"finishedAt,omitempty"`
}

// Load reads a session for export; now stamps it (unix ms).
func Load(ctx context.Context, db *sql.DB, sessionID string, now int64) (*Export, error) {
	x := &Export{Format: ExportFormat, Version: ExportVersion, ExportedAt: now,
		Turns: []ExportTurn{}, Messages: []ExportMsg{}, ToolCalls: []ExportCall{}}
	s := &x.Session
	var projectID, projectName, workspace sql.NullString
	err := db.QueryRowContext(ctx, `
		SELECT s.id, s.title, s.project_id, p.name, p.path, s.operating_mode, s.permission_mode, s.isolated, s.created_at, s.updated_at
		  FROM sessions AS s LEFT JOIN projects AS p ON p.id = s.project_id
		 WHERE s.id = ?`, sessionID).
		Scan(&s.ID, &s.Title, &projectID, &projectName, &workspace, &s.OperatingMode, &s.PermissionMode, &s.Isolated, &s.CreatedAt, &s.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.New(errs.SessionNotFound, "no session %q; copy the id from the window's session menu or from `pi-desktop run`", sessionID)
	}
	if err != nil {
		return nil, readFailed(err)
	}
	s.ProjectID, s.ProjectName, s.Workspace = projectID.String, projectName.String, workspace.String
	s.Title = redact.String(s.Title)
	if err := loadTurns(ctx, db, x); err != nil {
		return nil, err
	}
	if err := loadMessages(ctx, db, x); err != nil {
		return nil, err
	}
	if err := loadCalls(ctx, db, x); err != nil {
		return nil, err
	}
	return x, nil
}

func loadTurns(ctx context.Context, db *sql.DB, x *Export) error {
	rows, err := db.QueryContext(ctx, `
		SELECT id, prompt, state, error_code, error_message, delegation_id, created_at, ended_at
		  FROM agent_turns WHERE session_id = ? ORDER BY created_at, rowid`, x.Session.ID)
	if err != nil {
		return readFailed(err)
	}
	defer rows.Close()
	for rows.Next() {
		var t ExportTurn
		var ended sql.NullInt64
		if err := rows.Scan(&t.ID, &t.Prompt, &t.State, &t.ErrorCode, &t.ErrorMessage, &t.DelegationID, &t.CreatedAt, &ended); err != nil {
			return readFailed(err)
		}
		t.Prompt, t.ErrorMessage = redact.String(t.Prompt), redact.String(t.ErrorMessage)
		t.EndedAt = nullable(ended)
		x.Turns = append(x.Turns, t)
	}
	return rowsDone(rows)
}

func loadMessages(ctx context.Context, db *sql.DB, x *Export) error {
	rows, err := db.QueryContext(ctx, `
		SELECT id, turn_id, role, kind, content, stop_reason, input_tokens, output_tokens,
		       cache_read_tokens, cache_write_tokens, cost, cost_model, created_at
		  FROM agent_messages WHERE session_id = ? ORDER BY seq`, x.Session.ID)
	if err != nil {
		return readFailed(err)
	}
	defer rows.Close()
	for rows.Next() {
		var m ExportMsg
		var content string
		var cost sql.NullInt64
		if err := rows.Scan(&m.ID, &m.TurnID, &m.Role, &m.Kind, &content, &m.StopReason, &m.InputTokens, &m.OutputTokens,
			&m.CacheReadTokens, &m.CacheWriteTokens, &cost, &m.CostModel, &m.CreatedAt); err != nil {
			return readFailed(err)
		}
		m.Content = redactJSON(content, "[]")
		m.CostPicoUSD = nullable(cost)
		x.Messages = append(x.Messages, m)
	}
	return rowsDone(rows)
}

func loadCalls(ctx context.Context, db *sql.DB, x *Export) error {
	rows, err := db.QueryContext(ctx, `
		SELECT id, turn_id, message_id, tool_use_id, position, tool, args, state, result, model_text,
		       is_error, error_code, created_at, started_at, finished_at
		  FROM agent_tool_calls WHERE session_id = ? ORDER BY created_at, message_id, position`, x.Session.ID)
	if err != nil {
		return readFailed(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c ExportCall
		var args, result string
		var started, finished sql.NullInt64
		if err := rows.Scan(&c.ID, &c.TurnID, &c.MessageID, &c.ToolUseID, &c.Position, &c.Tool, &args, &c.State, &result,
			&c.ModelText, &c.IsError, &c.ErrorCode, &c.CreatedAt, &started, &finished); err != nil {
			return readFailed(err)
		}
		c.Args = redactJSON(args, "{}")
		if result != "" {
			c.Result = redactJSON(result, "null")
		}
		c.ModelText = redact.String(c.ModelText)
		c.StartedAt, c.FinishedAt = nullable(started), nullable(finished)
		x.ToolCalls = append(x.ToolCalls, c)
	}
	return rowsDone(rows)
}

// redactJSON redacts every string inside a stored JSON document, keeping
// its shape. Text that is not JSON is kept as a redacted JSON string, so
// the export stays valid and nothing is dropped.
func redactJSON(stored, empty string) json.RawMessage {
	if stored == "" {
		return json.RawMessage(empty)
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(stored))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		b, _ := json.Marshal(redact.String(stored))
		return b
	}
	b, err := json.Marshal(redactValue(v))
	if err != nil {
		b, _ = json.Marshal(redact.String(stored))
	}
	return b
}

func redactValue(v any) any {
	switch t := v.(type) {
	case string:
		return redact.String(t)
	case []any:
		for i := range t {
			t[i] = redactValue(t[i])
		}
	case map[string]any:
		for k, e := range t {
			s, ok := e.(string)
			if !ok {
				t[k] = redactValue(e)
				continue
			}
			// A value under a secret's name ("apiKey": "…") is hidden
			// whatever it looks like, as the assignment rule hides it in text.
			clean := redact.String(s)
			if redact.String(k+`="`+s+`"`) != k+`="`+clean+`"` {
				clean = redact.Mark
			}
			t[k] = clean
		}
	}
	return v
}

func nullable(n sql.NullInt64) *int64 {
	if !n.Valid {
		return nil
	}
	return &n.Int64
}

func rowsDone(rows *sql.Rows) error {
	if err := rows.Err(); err != nil {
		return readFailed(err)
	}
	return nil
}

func readFailed(err error) error {
	return errs.Wrap(err, errs.StorageUnavailable, "reading the session for export failed: %v; try again, or restart PI-Desktop", err)
}
