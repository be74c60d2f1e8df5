package mcp

import (
	"slices"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// State is where a server is in its lifecycle. The values are the wire
// values of api.MCPState*.
type State string

const (
	StateDisabled   State = "disabled"   // the user switched it off; never started
	StateConnecting State = "connecting" // starting, handshaking, or waiting to restart after a crash
	StateReady      State = "ready"      // connected, tools listed
	StateFailed     State = "failed"     // gave up: see Status.Error; Restart tries again
	StateNeedsAuth  State = "needs_auth" // the server wants the user to sign in; Restart after signing in
)

// Status is a snapshot of one server: its state, why it is not ready, its
// stderr tail and its tool catalog.
type Status struct {
	Key   Key
	State State
	// ErrorCode and Error explain failed and needs_auth (and, while
	// connecting after a crash, why it restarts). Error is the message meant
	// for the user, never an internal cause.
	ErrorCode errs.Code
	Error     string
	// LogTail is the last lines of the server's stderr (LogTailLines).
	LogTail []string
	// Restarts counts the automatic restarts after the server exited by
	// itself, since Sync or Restart last started it.
	Restarts int
	// DefinitionHash is the hash of the definition the server runs with.
	DefinitionHash string
	// Pid is a running stdio server's process id (0 otherwise).
	Pid int
	// Tools are the kept tools, sorted by name (at most MaxTools); Omitted
	// names, sorted, the ones past the limit.
	Tools   []ToolInfo
	Omitted []string
	// SchemaTokens is the sum of the enabled kept tools' SchemaTokens: what
	// loading every tool of the server would cost.
	SchemaTokens int
	// CallTimeout is the server's effective call timeout, which Call
	// applies.
	CallTimeout time.Duration
}

// Status is a snapshot of key's server; false when the manager does not
// know it.
func (m *Manager) Status(key Key) (Status, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entries[key]
	if e == nil {
		return Status{}, false
	}
	return e.statusLocked(), true
}

// Statuses are the snapshots of scope's servers, sorted by id.
func (m *Manager) Statuses(scope string) []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Status
	for k, e := range m.entries {
		if k.Scope == scope {
			out = append(out, e.statusLocked())
		}
	}
	slices.SortFunc(out, func(a, b Status) int { return compareKeys(a.Key, b.Key) })
	return out
}

// Log is key's whole kept stderr log ("" for an unknown server).
func (m *Manager) Log(key Key) string {
	m.mu.Lock()
	e := m.entries[key]
	m.mu.Unlock()
	if e == nil {
		return ""
	}
	return e.log.String()
}

func (e *liveServer) statusLocked() Status {
	s := Status{Key: e.key, State: e.state, Restarts: e.restarts, DefinitionHash: e.hash,
		LogTail: e.log.Tail(LogTailLines), Omitted: slices.Clone(e.cat.omitted), CallTimeout: e.def.EffectiveCallTimeout()}
	if x := errs.As(e.err); x != nil {
		s.ErrorCode, s.Error = x.Code, x.Message
	} else if e.err != nil {
		s.ErrorCode, s.Error = errs.Internal, "the MCP server failed; see its log"
	}
	if e.conn != nil {
		s.Pid = e.conn.Pid()
	}
	s.Tools, s.SchemaTokens = e.cat.tools(e.def)
	return s
}
