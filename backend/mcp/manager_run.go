package mcp

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// crashTailLines is how many stderr lines the error of a server that keeps
// crashing quotes (the status carries more).
const crashTailLines = 5

// run is one run of a server: connect, serve, and after an exit of the
// server's own restart with backoff, until ctx ends or it gives up. It
// starts only after the previous run of the server ended (prev), and closes
// done when its connection is closed.
//
// A first connect that fails is not retried: a wrong command or URL stays
// wrong, and the user sees why at once. Once the server was ready, each exit
// and each failed reconnect counts one attempt of a series; MaxRestarts
// attempts later it is failed. A server that stayed up StableAfter starts a
// new series when it exits.
func (m *Manager) run(ctx context.Context, e *liveServer, gen int, s Server, prev <-chan struct{}, done chan struct{}) {
	defer m.loops.Done()
	defer close(done)
	select {
	case <-prev:
	case <-ctx.Done():
		// Done must still mean "nothing of this server runs": the run
		// before may be closing its connection right now.
		<-prev
		return
	}
	refresh := make(chan struct{}, 1)
	env := DialEnv{Key: e.key, Stderr: e.log, Hooks: Hooks{ToolsChanged: func() {
		// Called on the SDK's reading goroutine: hand over, never block.
		select {
		case refresh <- struct{}{}:
		default:
		}
	}}}
	attempt := 0
	for {
		conn, tools, err := m.connect(ctx, s, env, &m.dials)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			switch {
			case needsSignIn(err):
				m.update(e, gen, func() { e.setLocked(StateNeedsAuth, err) })
				return
			case attempt == 0:
				m.update(e, gen, func() { e.setLocked(StateFailed, err) })
				return
			case attempt >= m.o.MaxRestarts:
				m.update(e, gen, func() { e.setLocked(StateFailed, m.gaveUp(s, e.log, attempt, err)) })
				return
			}
		} else {
			cat := newCatalog(tools, m.o.MaxTools)
			if !m.update(e, gen, func() {
				e.conn, e.cat = conn, cat
				e.setLocked(StateReady, nil)
			}) {
				_ = conn.Close()
				return
			}
			up := time.Now()
			m.serve(ctx, e, gen, s, conn, refresh)
			_ = conn.Close()
			if ctx.Err() != nil {
				return
			}
			if time.Since(up) >= m.o.StableAfter {
				attempt = 0
			}
			err = exitError(s, conn)
			if attempt >= m.o.MaxRestarts {
				m.update(e, gen, func() {
					e.conn, e.cat = nil, catalog{}
					e.setLocked(StateFailed, m.gaveUp(s, e.log, attempt, err))
				})
				return
			}
		}
		attempt++
		wait := m.o.Backoff(attempt)
		m.update(e, gen, func() {
			e.restarts++
			e.conn, e.cat = nil, catalog{}
			e.setLocked(StateConnecting, errs.Wrap(err, errs.MCPServerUnavailable,
				"MCP server %q stopped; restarting in %s (attempt %d of %d)", s.ID, wait, attempt, m.o.MaxRestarts).With("server", s.ID))
		})
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// update runs f under the lock if gen is still e's current run, then tells
// OnChange. It reports whether f ran.
func (m *Manager) update(e *liveServer, gen int, f func()) bool {
	m.mu.Lock()
	ok := !m.closed && e.gen == gen && m.entries[e.key] == e
	if ok {
		f()
	}
	m.mu.Unlock()
	if ok {
		m.o.OnChange(e.key)
	}
	return ok
}

// serve waits for the server to exit or the run to end, and refreshes the
// catalog after tools/list_changed, RefreshDelay after the first of a burst.
func (m *Manager) serve(ctx context.Context, e *liveServer, gen int, s Server, conn *Conn, refresh <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-conn.Exited():
			return
		case <-refresh:
		}
		t := time.NewTimer(m.o.RefreshDelay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-conn.Exited():
			t.Stop()
			return
		case <-t.C:
		}
		select { // this listing covers what came during the delay
		case <-refresh:
		default:
		}
		lctx, cancel := context.WithTimeout(ctx, s.EffectiveConnectTimeout())
		tools, err := conn.Tools(lctx)
		cancel()
		if err != nil {
			// Keep the last catalog: an exit shows in the next round, and a
			// server that answers again refreshes on its next change.
			continue
		}
		cat := newCatalog(tools, m.o.MaxTools)
		m.update(e, gen, func() {
			e.cat = cat
			e.bumpLocked()
		})
	}
}

// connect dials s and lists its tools within s's connect timeout, whether
// or not Dial honours its context: a Dial still running at the deadline is
// left to finish in the background (tracked by dials, nil = untracked) and
// its late connection closed.
func (m *Manager) connect(ctx context.Context, s Server, env DialEnv, dials *sync.WaitGroup) (*Conn, []*sdk.Tool, error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	dctx, cancel := context.WithTimeout(ctx, s.EffectiveConnectTimeout())
	defer cancel()
	type dialed struct {
		c   *Conn
		err error
	}
	ch := make(chan dialed, 1)
	spawn := func(f func()) {
		if dials != nil {
			dials.Go(f)
		} else {
			go f()
		}
	}
	spawn(func() {
		c, err := m.o.Dial(dctx, s, env)
		ch <- dialed{c, err}
	})
	var conn *Conn
	select {
	case r := <-ch:
		if r.err == nil && r.c == nil {
			r.err = errors.New("dial returned no connection and no error")
		}
		if r.err != nil {
			return nil, nil, connectError(ctx, dctx, s, r.err)
		}
		conn = r.c
	case <-dctx.Done():
		spawn(func() {
			if r := <-ch; r.c != nil {
				_ = r.c.Close()
			}
		})
		return nil, nil, connectError(ctx, dctx, s, dctx.Err())
	}
	tools, err := conn.Tools(dctx)
	if err != nil {
		_ = conn.Close()
		return nil, nil, connectError(ctx, dctx, s, err)
	}
	return conn, tools, nil
}

// connectError names why a connect failed: the run was stopped (ctx's
// cause), the dial's own coded error, the deadline, or an uncoded failure.
func connectError(ctx, dctx context.Context, s Server, err error) error {
	switch {
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case errs.As(err) != nil:
		return err
	case errors.Is(dctx.Err(), context.DeadlineExceeded):
		return errs.Wrap(err, errs.MCPConnectTimeout,
			"MCP server %q did not connect and list its tools within %s; check its log, or raise its connect timeout", s.ID, s.EffectiveConnectTimeout()).With("server", s.ID)
	default:
		return errs.Wrap(err, errs.MCPServerUnavailable,
			"MCP server %q could not be reached; check its definition and its log, then restart it", s.ID).With("server", s.ID)
	}
}

// exitError describes a server that went away by itself.
func exitError(s Server, c *Conn) error {
	if c.proc != nil {
		code, _ := c.proc.Wait()
		return errs.New(errs.MCPServerUnavailable, "MCP server %q exited with status %d", s.ID, code).With("server", s.ID).With("exitCode", code)
	}
	return errs.New(errs.MCPServerUnavailable, "MCP server %q closed the connection", s.ID).With("server", s.ID)
}

// gaveUp is the error of a server that keeps failing after restarts,
// quoting its last stderr lines: usually the reason.
func (m *Manager) gaveUp(s Server, log *serverLog, attempts int, last error) error {
	tail := log.Tail(crashTailLines)
	said := "it wrote nothing to stderr"
	if len(tail) > 0 {
		said = "its last stderr lines: " + strings.Join(tail, " | ")
	}
	msg := "the last attempt failed"
	if x := errs.As(last); x != nil {
		msg = x.Message
	}
	return errs.Wrap(last, errs.MCPServerUnavailable,
		"MCP server %q keeps stopping and was not restarted after %d attempts (%s); %s. Fix the cause, then restart it",
		s.ID, attempts, msg, said).With("server", s.ID).With("logTail", tail)
}

// Test connects to s once, lists its tools and disconnects, outside the
// live set (its process does not count against MaxServers). It returns
// every listed tool sorted by name, and the last stderr lines, which also
// come with an error.
func (m *Manager) Test(ctx context.Context, key Key, s Server) (tools []*sdk.Tool, logTail []string, err error) {
	log := newServerLog(m.o.LogSize)
	conn, listed, err := m.connect(ctx, s, DialEnv{Key: key, Stderr: log}, nil)
	if err != nil {
		return nil, log.Tail(LogTailLines), err
	}
	_ = conn.Close()
	// Every tool, sorted and without repeats: the limit is the live set's.
	return newCatalog(listed, len(listed)).kept, log.Tail(LogTailLines), nil
}

// needsSignIn tells a refusal that a sign-in can cure (Connect marks it
// "signIn") from a rejected static header, which only an edit fixes.
func needsSignIn(err error) bool {
	if !errs.Is(err, errs.MCPAuthRequired) {
		return false
	}
	signIn, _ := errs.ToPayload(err).Details["signIn"].(bool)
	return signIn
}
