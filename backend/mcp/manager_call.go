package mcp

import (
	"context"
	"errors"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Call calls tool (the server's own name) on key's server with the
// server's call timeout; onProgress (may be nil) receives its progress.
//
// A server still connecting is waited for, up to its connect timeout.
// Errors: MCP_SERVER_UNAVAILABLE (unknown, disabled or failed server, or it
// went away during the call), MCP_CONNECT_TIMEOUT (still connecting),
// MCP_AUTH_REQUIRED (needs_auth), TOOL_NOT_FOUND (a tool the server does
// not list, omitted past MaxTools, or switched off), TOOL_TIMEOUT, and
// ctx's cause when ctx ends: the SDK then sends notifications/cancelled
// and Call returns at once, the call retired. A result with IsError set is
// a result, not an error.
func (m *Manager) Call(ctx context.Context, key Key, tool string, args any, onProgress func(Progress)) (*sdk.CallToolResult, error) {
	conn, s, err := m.readyConn(ctx, key, tool)
	if err != nil {
		return nil, err
	}
	timeout := s.EffectiveCallTimeout()
	// A caller whose own deadline comes first (the host's pipeline puts the
	// same call timeout on the tool) needs no second timer: each context
	// layer costs the SDK's call a little (issue #15). Its deadline then
	// ends the call as ctx's cause.
	callCtx, cancel := ctx, context.CancelFunc(func() {})
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > timeout {
		callCtx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	res, err := conn.CallTool(callCtx, tool, args, onProgress)
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		return nil, context.Cause(ctx)
	case errors.Is(callCtx.Err(), context.DeadlineExceeded):
		return nil, errs.Wrap(err, errs.ToolTimeout,
			"MCP tool %q of server %q did not finish within %s and was cancelled; raise the server's call timeout (up to %s) in Settings → MCP servers if it needs longer",
			tool, key.ID, timeout, MaxCallTimeout).With("server", key.ID).With("tool", tool).With("timeoutMs", timeout.Milliseconds())
	}
	if x := errs.As(err); x != nil {
		return nil, x.With("server", key.ID).With("tool", tool)
	}
	return nil, err
}

// readyConn waits while key's server is connecting (up to its connect
// timeout), then returns its connection if it is ready and lists tool as an
// enabled, kept tool.
func (m *Manager) readyConn(ctx context.Context, key Key, tool string) (*Conn, Server, error) {
	var timer <-chan time.Time
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, Server{}, errClosed()
		}
		e := m.entries[key]
		if e == nil {
			m.mu.Unlock()
			return nil, Server{}, errUnknownServer(key)
		}
		if e.state != StateConnecting {
			conn, s, err := e.readyLocked(tool, m.o.MaxTools)
			m.mu.Unlock()
			return conn, s, err
		}
		changed, wait := e.changed, e.def.EffectiveConnectTimeout()
		m.mu.Unlock()
		if timer == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timer = t.C
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, Server{}, context.Cause(ctx)
		case <-timer:
			return nil, Server{}, errs.New(errs.MCPConnectTimeout,
				"MCP server %q is still connecting after %s; check its log in Settings → MCP servers, or raise its connect timeout", key.ID, wait).With("server", key.ID)
		}
	}
}

// readyLocked is e's connection for a call of tool, or why there is none.
func (e *liveServer) readyLocked(tool string, maxTools int) (*Conn, Server, error) {
	id := e.key.ID
	switch e.state {
	case StateReady:
	case StateDisabled:
		return nil, Server{}, errs.New(errs.MCPServerUnavailable, "MCP server %q is disabled; enable it in Settings → MCP servers", id).With("server", id)
	case StateNeedsAuth:
		return nil, Server{}, errs.New(errs.MCPAuthRequired, "MCP server %q needs you to sign in; use Sign in in Settings → MCP servers", id).With("server", id)
	default:
		// The model reads this: the code, never the failure's own message,
		// which may quote the server's stderr or its URL (the user sees
		// both in Settings).
		why := "it failed to start"
		if x := errs.As(e.err); x != nil {
			why = "it failed with " + string(x.Code)
		}
		return nil, Server{}, errs.New(errs.MCPServerUnavailable, "MCP server %q is not running (%s); ask the user to check its log and restart it in Settings → MCP servers", id, why).With("server", id)
	}
	kept, omitted := e.cat.find(tool)
	switch {
	case omitted:
		return nil, Server{}, errs.New(errs.ToolNotFound, "tool %q of MCP server %q is omitted: only the first %d of a server's tools by name are kept; use one of its kept tools", tool, id, maxTools).With("server", id).With("tool", tool)
	case !kept:
		return nil, Server{}, errs.New(errs.ToolNotFound, "MCP server %q has no tool %q; use ToolSearch to find the tools it offers", id, tool).With("server", id).With("tool", tool)
	case !e.def.ToolEnabled(tool):
		return nil, Server{}, errs.New(errs.ToolNotFound, "tool %q of MCP server %q is switched off; the user can turn it on in Settings → MCP servers", tool, id).With("server", id).With("tool", tool)
	}
	return e.conn, e.def, nil
}
