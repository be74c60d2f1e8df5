package agent

import (
	"encoding/json"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// Events emitted to the UI. Every payload carries sessionId and turnId.
const (
	EventTurn       = "agent:turn"        // TurnEvent: state changes, retries
	EventMessage    = "agent:message"     // MessageEvent: a message started or ended
	EventText       = "agent:text"        // DeltaEvent: assistant text, token by token
	EventThinking   = "agent:thinking"    // DeltaEvent: thinking, token by token
	EventToolCall   = "agent:tool_call"   // ToolCallEvent: streaming, ready (args), running
	EventToolResult = "agent:tool_result" // ToolResultEvent
	EventContext    = "agent:context"     // ContextEvent: compaction
)

// TurnEvent reports a turn's state. Retry names the code that caused a
// same-turn retry of the model call (the partial message was dropped).
type TurnEvent struct {
	SessionID string    `json:"sessionId"`
	TurnID    string    `json:"turnId"`
	State     string    `json:"state"`
	Code      errs.Code `json:"code,omitempty"`
	Message   string    `json:"message,omitempty"`
	Retriable bool      `json:"retriable,omitempty"`
	Retry     errs.Code `json:"retry,omitempty"`
	// DelegationID is set on the events of a delegate's own run, so the
	// window nests them under its Task row.
	DelegationID string `json:"delegationId,omitempty"`
}

// MessageEvent reports a message starting (State "streaming") or ending
// (State = its stop reason: end_turn, tool_use, max_tokens, other,
// aborted, failed). Kind is prompt, model or summary.
type MessageEvent struct {
	SessionID string         `json:"sessionId"`
	TurnID    string         `json:"turnId"`
	MessageID string         `json:"messageId"`
	Role      provider.Role  `json:"role"`
	Kind      string         `json:"kind"`
	State     string         `json:"state"`
	Usage     provider.Usage `json:"usage,omitzero"`
	// DelegationID is set on the events of a delegate's own run, so the
	// window nests them under its Task row.
	DelegationID string `json:"delegationId,omitempty"`
	// CostUSD is an ended model response's cost (nil: unknown).
	CostUSD *float64 `json:"costUsd,omitempty"`
}

// DeltaEvent carries one streamed piece of text or thinking.
type DeltaEvent struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
	// DelegationID is set on the events of a delegate's own run, so the
	// window nests them under its Task row.
	DelegationID string `json:"delegationId,omitempty"`
}

// Tool call phases of ToolCallEvent.
const (
	PhaseStreaming = "streaming" // the model started the call; ArgsDelta may follow
	PhaseReady     = "ready"     // the arguments are complete (Args)
	PhaseRunning   = "running"   // the host is executing it
	// PhaseStarted: a call that waited on a card starts its run after the
	// user's answer (WaitedMs is the wait); its run time counts from here.
	PhaseStarted = "started"
)

// ToolCallEvent reports a tool call as it streams and starts.
type ToolCallEvent struct {
	SessionID  string          `json:"sessionId"`
	TurnID     string          `json:"turnId"`
	MessageID  string          `json:"messageId"`
	ToolCallID string          `json:"toolCallId"`
	ToolUseID  string          `json:"toolUseId"`
	Tool       string          `json:"tool"`
	Phase      string          `json:"phase"`
	ArgsDelta  string          `json:"argsDelta,omitempty"`
	Args       json.RawMessage `json:"args,omitempty"`
	// MCP names the server and the tool's own name and title of an MCP
	// tool (nil for the others).
	MCP *ToolOrigin `json:"mcp,omitempty"`
	// DelegationID is set on the events of a delegate's own run, so the
	// window nests them under its Task row.
	DelegationID string `json:"delegationId,omitempty"`
	// WaitedMs is, on PhaseStarted, how long the call waited for the user.
	WaitedMs int64 `json:"waitedMs,omitempty"`
}

// ToolResultEvent reports a finished call; events of a parallel batch may
// arrive in any order.
type ToolResultEvent struct {
	SessionID  string       `json:"sessionId"`
	TurnID     string       `json:"turnId"`
	MessageID  string       `json:"messageId"`
	ToolCallID string       `json:"toolCallId"`
	ToolUseID  string       `json:"toolUseId"`
	Tool       string       `json:"tool"`
	State      string       `json:"state"` // done | failed | aborted | skipped
	Result     tools.Result `json:"result"`
	ModelText  string       `json:"modelText"`
	IsError    bool         `json:"isError"`
	// DelegationID is set on the events of a delegate's own run, so the
	// window nests them under its Task row.
	DelegationID string `json:"delegationId,omitempty"`
	// Instructions are the path instruction files loaded with this result.
	Instructions []InstructionFile `json:"instructions,omitempty"`
}

// ContextEvent reports a compaction: State compacting, then done or failed.
type ContextEvent struct {
	SessionID    string    `json:"sessionId"`
	TurnID       string    `json:"turnId"`
	State        string    `json:"state"`
	CheckpointID string    `json:"checkpointId,omitempty"`
	TokensBefore int       `json:"tokensBefore"`
	TokensAfter  int       `json:"tokensAfter,omitempty"`
	Code         errs.Code `json:"code,omitempty"`
}

// Events of the runtime-owned tools.
const (
	EventTodos    = "agent:todos"    // TodosEvent: the checklist was replaced
	EventQuestion = "agent:question" // QuestionEvent: asked (pending), then answered or skipped
	EventProposal = "agent:proposal" // Proposal: pending, then approved, rejected or cancelled
	EventMode     = "agent:mode"     // ModeEvent: a runtime tool or an approval switched the mode
)

// ModeEvent reports an operating-mode switch made by the runtime.
type ModeEvent struct {
	SessionID      string `json:"sessionId"`
	TurnID         string `json:"turnId"`
	OperatingMode  string `json:"operatingMode"`
	PermissionMode string `json:"permissionMode,omitempty"` // set on approval
	Reason         string `json:"reason"`                   // the tool (EnterPlanMode, …) or "approved"
}
