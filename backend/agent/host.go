package agent

import (
	"context"
	"encoding/json"

	"github.com/pi-desktop/pi-desktop/backend/api"
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
	// Tools returns the schemas of the builtin tools visible in mode; the
	// adapter takes the names from ToolNames(mode).
	Tools(mode string) []provider.ToolDef
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
)

// ToolNames lists the builtin tools visible in an operating mode, in the
// order the model sees them. The list is guidance: host-core's operating-mode
// matrix is the boundary, so a direct call of a hidden tool is still denied.
// The runtime-owned tools (TodoWrite, asktool, new_context, Enter*/Submit*,
// ToolSearch) are added by the agent itself (see Agent.runtimeTools).
func ToolNames(mode string) []string {
	switch mode {
	case api.ModePlan, api.ModeGoal:
		return []string{ToolRead, ToolGlob, ToolGrep, ToolBash}
	default:
		return []string{ToolRead, ToolGlob, ToolGrep, ToolWrite, ToolEdit, ToolBash}
	}
}

// parallelSafe reports whether a tool may run in a parallel batch (spec §0:
// Read, Glob and Grep; anything else makes its batch sequential).
func parallelSafe(tool string) bool {
	return tool == ToolRead || tool == ToolGlob || tool == ToolGrep
}
