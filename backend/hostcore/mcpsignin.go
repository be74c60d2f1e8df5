package hostcore

import (
	"context"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// signIns are the OAuth sign-ins waiting on the user's browser, one per
// server, so the user can cancel one and the app's shutdown ends them all:
// a sign-in left waiting would hold its loopback listener and the bridge
// call until its own timeout.
type signIns struct {
	mu      sync.Mutex
	closed  bool
	running map[mcp.Key]context.CancelCauseFunc
}

// begin registers k's sign-in; its context ends on cancel or close with a
// cause saying which. done unregisters it.
func (s *signIns) begin(ctx context.Context, k mcp.Key) (_ context.Context, done func(), _ error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, nil, errClosing(k.ID)
	case s.running[k] != nil:
		return nil, nil, errs.New(errs.Conflict, "a sign-in to MCP server %q is already waiting in the browser; finish it there or cancel it", k.ID).With("server", k.ID)
	}
	if s.running == nil {
		s.running = map[mcp.Key]context.CancelCauseFunc{}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	s.running[k] = cancel
	return ctx, func() {
		s.mu.Lock()
		delete(s.running, k)
		s.mu.Unlock()
		cancel(nil)
	}, nil
}

// waiting reports whether k's sign-in waits on the browser.
func (s *signIns) waiting(k mcp.Key) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running[k] != nil
}

// cancel ends k's sign-in if one is waiting; no sign-in is not an error
// (it may have finished as the user pressed Cancel).
func (s *signIns) cancel(k mcp.Key) {
	s.mu.Lock()
	stop := s.running[k]
	s.mu.Unlock()
	if stop != nil {
		stop(errs.New(errs.MCPAuthRequired, "the sign-in to MCP server %q was cancelled; press \"Sign in\" to start again", k.ID).
			With("server", k.ID).With("signIn", true))
	}
}

// closeAll ends every sign-in (the app is closing) and refuses new ones.
func (s *signIns) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for k, stop := range s.running {
		stop(errClosing(k.ID))
	}
}

func errClosing(id string) error {
	return errs.New(errs.MCPAuthRequired, "PI-Desktop is closing, so the sign-in to MCP server %q was ended; sign in again after it restarts", id).
		With("server", id).With("signIn", true)
}

// CancelMCPSignIn ends a server's sign-in waiting in the browser: the
// waiting SignInMCPServer returns MCP_AUTH_REQUIRED and its loopback
// listener closes. Nothing waiting is not an error.
func (c *Core) CancelMCPSignIn(ctx context.Context, projectID, serverID string) error {
	k, err := c.mcpKey(ctx, projectID, serverID)
	if err != nil {
		return err
	}
	c.mcp.signIns.cancel(k)
	return nil
}

// mcpKey is the manager's key of a server by its project's id.
func (c *Core) mcpKey(ctx context.Context, projectID, serverID string) (mcp.Key, error) {
	if projectID == "" {
		return keyOf("", serverID), nil
	}
	p, err := c.sessions.Project(ctx, projectID)
	if err != nil {
		return mcp.Key{}, err
	}
	return keyOf(p.Path, serverID), nil
}
