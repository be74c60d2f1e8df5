package agent

import (
	"context"
	"encoding/json"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// Host is everything the loop needs from host-core. The agent never touches
// the filesystem, a shell or git itself: every tool call goes through
// Execute, which runs host-core's whole pipeline (validation, roots, policy,
// approval, admission, timeout, bounding, audit). hostcore implements it
// with a small adapter; this package never imports hostcore.
type Host interface {
	// Execute runs one tool call and always returns a Result, refusals
	// included. Cancelling ctx stops the call the way Abort does.
	Execute(ctx context.Context, call ToolCall) tools.Result
	// Abort cancels one in-flight call (or keeps it from starting).
	Abort(sessionID, toolCallID, tool string) bool
	// Binding describes the session's environment for the system prompt
	// and for pinning the shell of a turn.
	Binding(ctx context.Context, sessionID string) (SessionInfo, error)
	// Instructions returns the workspace's AGENTS.md (falling back to
	// CLAUDE.md), bounded by host-core with a truncation note; "" when
	// there is none.
	Instructions(ctx context.Context, sessionID string) (string, error)
	// PathInstructions returns the instruction files of the folders between
	// the workspace root (exclusive) and the folder of the path call names,
	// outermost first: each folder's AGENTS.md, else its CLAUDE.md. The
	// path is resolved as Execute resolves it (canonical, in the call's own
	// workspace: an isolated session's or delegate's worktree); a path
	// outside the workspace, a temporary session or a call naming no path
	// gives none. Each file's Text holds at most InstructionFileMax+1
	// bytes; a file that cannot be read comes with Skipped set.
	PathInstructions(ctx context.Context, call ToolCall) []InstructionFile
	// Tools returns the tools mode offers up front (the policy decides
	// which), in the order the model sees them; the runtime's own tools
	// among them act on the turn through ToolCall.Turn.
	Tools(mode string) []OfferedTool
	// Deferred returns the session's on-demand catalog in mode (spec §2.1):
	// optional tools the model loads with ToolSearch before it can call
	// them. It depends on the session (its project's MCP servers). A tool
	// the policy hard-denies in mode is not in it. Loaded or not, their
	// calls go through Execute like any other.
	Deferred(ctx context.Context, sessionID, mode string) []DeferredTool

	// The seams of the runtime-owned tools (run by Execute, they call back
	// into the turn, which uses these).

	// WriteArtifact stores the exact Markdown bytes of a SubmitPlan (kind
	// "plan") or SubmitGoal ("goal") in a new, unique file under the
	// workspace's .pi/<kind>/ folder, created exclusively and never through
	// a link.
	WriteArtifact(ctx context.Context, sessionID, kind, title string, markdown []byte) (Artifact, error)
	// Configure switches the session's durable operating mode from
	// change.From to change.To (and sets its permission mode when
	// change.PermissionMode is not empty). It refuses when the durable mode
	// is no longer change.From.
	Configure(ctx context.Context, sessionID string, change ModeChange) error
}

// OfferedTool is a tool a mode offers up front.
type OfferedTool struct {
	Def       provider.ToolDef
	Parallel  bool // may run in a parallel batch (Read, Glob, Grep)
	Exclusive bool // must be the only call of its batch (Enter*, Submit*)
}

// DeferredTool is one entry of an on-demand catalog.
type DeferredTool struct {
	Name     string
	Summary  string           // one line for the system prompt's catalog
	Def      provider.ToolDef // the full schema, sent once loaded
	Parallel bool             // may run in a parallel batch
	// Origin names the MCP server a tool comes from (nil for the others).
	Origin *ToolOrigin
}

// ToolOrigin is where an MCP tool comes from, for the transcript: the
// server's id and the tool's own name and title there.
type ToolOrigin struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	Title  string `json:"title,omitempty"`
}

// Artifact is a stored Plan/Goal document.
type Artifact struct {
	// Path is relative to the workspace root, with forward slashes
	// (".pi/plan/fix-login-1.md"); AbsPath is the absolute path.
	Path    string `json:"path"`
	AbsPath string `json:"absPath"`
	SHA256  string `json:"sha256"` // hex of the exact bytes
	Size    int64  `json:"size"`
}

// ModeChange is an operating-mode switch by a runtime tool.
type ModeChange struct {
	From           string `json:"from"`
	To             string `json:"to"`
	PermissionMode string `json:"permissionMode,omitempty"` // "" keeps the session's
}

// ToolCall is one tool call of the agent, mirroring hostcore.ToolRequest.
type ToolCall struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	// ToolCallID is assigned by the agent (unique, never the model's
	// tool_use id, which local models reuse across turns).
	ToolCallID string `json:"toolCallId"`
	// MessageID is the assistant message carrying the call; PromptID scopes
	// the edit loop guard and equals the turn id (one prompt, one turn).
	MessageID string          `json:"messageId"`
	PromptID  string          `json:"promptId"`
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"`
	// The shell pinned when the turn started (Bash).
	ShellID      string `json:"shellId,omitempty"`
	ShellDialect string `json:"shellDialect,omitempty"`
	// Turn is the running turn, for the runtime's own tools; BatchSize is
	// how many calls its assistant message has.
	Turn      tools.Turn `json:"-"`
	BatchSize int        `json:"-"`
	// A delegate's call (§10.2): Delegate names its subagent (the card says
	// who asks), DelegationID scopes its edit snapshots and loop guard,
	// PermissionOverride is the definition's scope ("" = the session's), and
	// AllowedTools are the only tools it may call (the host refuses others).
	Delegate           string   `json:"delegate,omitempty"`
	DelegationID       string   `json:"delegationId,omitempty"`
	PermissionOverride string   `json:"permissionOverride,omitempty"`
	AllowedTools       []string `json:"allowedTools,omitempty"`
}

// SessionInfo is the environment of a session as the agent sees it.
type SessionInfo struct {
	Workspace     string `json:"workspace"`     // absolute workspace root
	Scratch       string `json:"scratch"`       // absolute scratch folder
	Visualization string `json:"visualization"` // absolute visualization folder; "" = off
	OperatingMode string `json:"operatingMode"` // agent | plan | goal
	Temporary     bool   `json:"temporary"`     // the workspace is the scratch folder
	Platform      string `json:"platform"`      // GOOS: linux | darwin | windows
	ShellID       string `json:"shellId"`       // the command shell pinned for the turn
	ShellDialect  string `json:"shellDialect"`  // bash | powershell | cmd | …
}

// Tool names the loop treats specially.
const (
	ToolRead  = "Read"
	ToolGlob  = "Glob"
	ToolGrep  = "Grep"
	ToolWrite = "Write"
	ToolEdit  = "Edit"
	ToolBash  = "Bash"

	// The runtime-owned tools (tools.Runtime): Execute runs them, and they
	// act on the turn through tools.Turn.
	ToolTodoWrite     = tools.TodoWrite
	ToolAsk           = tools.AskTool
	ToolNewContext    = tools.NewContext
	ToolEnterPlanMode = tools.EnterPlanMode
	ToolEnterGoalMode = tools.EnterGoalMode
	ToolSubmitPlan    = tools.SubmitPlan
	ToolSubmitGoal    = tools.SubmitGoal
	ToolSearch        = tools.ToolSearch
)
