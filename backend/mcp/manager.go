package mcp

import (
	"cmp"
	"context"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Defaults of ManagerOptions (issue 15).
const (
	DefaultMaxServers  = 16
	DefaultMaxRestarts = 3
	// DefaultStableAfter is how long a server must stay up for its next exit
	// to count as a new crash rather than one more of a series: a server
	// that crashes once a day restarts every time, one that crashes at every
	// start gives up after MaxRestarts.
	DefaultStableAfter = time.Minute
	// DefaultRefreshDelay folds a burst of tools/list_changed (a server
	// registering its tools one by one) into one listing.
	DefaultRefreshDelay = 100 * time.Millisecond
	// closeGrace bounds how long Close waits for a Dial that ignored its
	// context, so quitting never hangs on a broken transport.
	closeGrace = 5 * time.Second
)

// Key identifies a server: Scope "" is the app's own list, any other Scope
// is a project's canonical root path.
type Key struct {
	Scope string
	ID    string
}

func compareKeys(a, b Key) int {
	return cmp.Or(cmp.Compare(a.Scope, b.Scope), cmp.Compare(a.ID, b.ID))
}

// DialEnv is what the manager gives Dial for one connection.
type DialEnv struct {
	// Key is the server's key: its scope says which project a server's
	// cwd and saved sign-in belong to.
	Key Key
	// Hooks must be passed to the connection (ConnectStdio, ConnectTransport).
	Hooks Hooks
	// Stderr is the server's log (stdio servers); safe for concurrent use.
	Stderr io.Writer
}

// DialFunc connects to s within ctx (whose deadline is s's connect
// timeout), for any transport: the host passes its transport dispatcher.
// An MCP_AUTH_REQUIRED error with the detail "signIn" (Connect's, when a
// sign-in would cure it) puts the server in needs_auth; any other error
// fails it.
type DialFunc func(ctx context.Context, s Server, env DialEnv) (*Conn, error)

// ManagerOptions configure a Manager; zero fields take the defaults.
type ManagerOptions struct {
	Dial DialFunc
	// OnChange is called after a server's state, settings or tools changed
	// (also when it was removed). It runs on the manager's goroutines,
	// without the manager's lock, possibly for several keys at once; it must
	// not block for long, nor call Stop or Close (they wait for the
	// goroutine calling it). Read the new state with Status.
	OnChange func(Key)

	MaxServers  int // live servers at once (16)
	MaxTools    int // kept tools per server (64)
	MaxRestarts int // automatic restarts in a series before failed (3)
	// Backoff is the wait before the attempt-th restart (1-based); default
	// 1 s, 2 s, 4 s, ….
	Backoff      func(attempt int) time.Duration
	StableAfter  time.Duration // DefaultStableAfter
	RefreshDelay time.Duration // DefaultRefreshDelay
	LogSize      int           // bytes of stderr kept per server (DefaultLogSize)
}

// DefaultBackoff doubles from one second: 1 s, 2 s, 4 s, … (capped at a
// minute).
func DefaultBackoff(attempt int) time.Duration {
	if attempt < 1 {
		attempt = 1
	}
	return min(time.Second<<min(attempt-1, 6), time.Minute)
}

// Manager is the live set of MCP servers: it starts the servers it is told
// about, restarts the ones that crash, refreshes their tools and routes
// calls to them. Nothing blocks on a server starting: Sync returns at once
// and servers come up in the background.
//
// Trust is the caller's business: pass Sync only the servers that may run
// (app servers, and project servers trusted with their DefinitionHash).
// Every key gets its own server, so an app server and a project server of
// the same id both run; which one a session sees is the catalog's choice.
type Manager struct {
	o ManagerOptions

	mu      sync.Mutex
	entries map[Key]*liveServer
	closed  bool

	loops  sync.WaitGroup // run loops
	dials  sync.WaitGroup // dials a loop gave up on, still to be closed
	closeC chan struct{}  // closed once Close has finished
}

// liveServer is one known server. Fields are guarded by Manager.mu.
type liveServer struct {
	key  Key
	def  Server
	hash string
	log  *serverLog

	state    State
	err      error
	restarts int
	conn     *Conn
	cat      catalog

	// gen numbers the server's runs: a run loop only writes while its gen is
	// current, so a stopped run's late results are dropped.
	gen    int
	cancel context.CancelFunc // ends the current run; nil when none
	done   chan struct{}      // closed when the current (or last) run ended

	// pending: (re)start at the next rebalance; overLimit: failed because
	// MaxServers servers came first.
	pending, overLimit bool
	// changed is closed (and replaced) at every change, to wake Call.
	changed chan struct{}
}

// NewManager returns an empty manager; Close ends it.
func NewManager(o ManagerOptions) *Manager {
	if o.MaxServers <= 0 {
		o.MaxServers = DefaultMaxServers
	}
	if o.MaxTools <= 0 {
		o.MaxTools = DefaultMaxTools
	}
	if o.MaxRestarts <= 0 {
		o.MaxRestarts = DefaultMaxRestarts
	}
	if o.Backoff == nil {
		o.Backoff = DefaultBackoff
	}
	if o.StableAfter <= 0 {
		o.StableAfter = DefaultStableAfter
	}
	if o.RefreshDelay <= 0 {
		o.RefreshDelay = DefaultRefreshDelay
	}
	if o.LogSize <= 0 {
		o.LogSize = DefaultLogSize
	}
	if o.OnChange == nil {
		o.OnChange = func(Key) {}
	}
	return &Manager{o: o, entries: map[Key]*liveServer{}, closeC: make(chan struct{})}
}

// Sync makes servers the whole list of scope: a new server starts, one whose
// DefinitionHash changed restarts, one with Enabled false stops and shows
// as disabled, one no longer listed stops and is forgotten; changes of tool
// toggles and timeouts apply without a restart (a connect timeout at the
// next connect). It returns at once: starting and stopping happen in the
// background (use Stop to wait for a server's end). Of several servers
// with one id the first counts. After Close it does nothing.
func (m *Manager) Sync(scope string, servers []Server) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	want := make(map[string]Server, len(servers))
	for _, s := range servers {
		if _, dup := want[s.ID]; !dup {
			want[s.ID] = s
		}
	}
	var changed []Key
	for k, e := range m.entries {
		if _, ok := want[k.ID]; k.Scope == scope && !ok {
			m.removeLocked(e)
			changed = append(changed, k)
		}
	}
	for id, s := range want {
		k := Key{scope, id}
		if m.syncLocked(k, s) {
			changed = append(changed, k)
		}
	}
	changed = append(changed, m.rebalanceLocked()...)
	m.mu.Unlock()
	m.notify(changed)
}

// syncLocked applies one listed server; it reports whether its status
// changed.
func (m *Manager) syncLocked(k Key, s Server) bool {
	hash := s.DefinitionHash()
	e := m.entries[k]
	if e == nil {
		e = &liveServer{key: k, def: s, hash: hash, log: newServerLog(m.o.LogSize), state: StateDisabled,
			changed: make(chan struct{}), done: closedChan()}
		m.entries[k] = e
		e.pending = s.Enabled
		return true
	}
	old, oldHash := e.def, e.hash
	e.def, e.hash = s, hash
	switch {
	case !s.Enabled:
		if e.state == StateDisabled && !e.overLimit && !e.pending {
			return false
		}
		m.stopLocked(e, StateDisabled, nil)
		e.pending, e.overLimit = false, false
		return true
	case !old.Enabled || oldHash != hash:
		e.restarts = 0
		e.pending = true
		return true
	}
	return !maps.Equal(old.DisabledTools, s.DisabledTools) ||
		old.ConnectTimeout != s.ConnectTimeout || old.CallTimeout != s.CallTimeout
}

// rebalanceLocked gives the first MaxServers enabled servers (by scope,
// app servers first, then id) their slot: pending ones start, the rest
// fail naming the limit. It returns the keys whose status changed.
func (m *Manager) rebalanceLocked() []Key {
	if m.closed {
		return nil
	}
	var keys []Key
	for k, e := range m.entries {
		if e.def.Enabled {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, compareKeys)
	var changed []Key
	for i, k := range keys {
		e := m.entries[k]
		switch {
		case i < m.o.MaxServers && (e.pending || e.overLimit):
			m.startLocked(e)
			changed = append(changed, k)
		case i >= m.o.MaxServers && !e.overLimit:
			m.stopLocked(e, StateFailed, errs.New(errs.MCPServerUnavailable,
				"MCP server %q was not started: at most %d MCP servers run at once; disable one you do not need and this one starts",
				k.ID, m.o.MaxServers).With("server", k.ID).With("limit", m.o.MaxServers))
			e.overLimit = true
			changed = append(changed, k)
		}
	}
	return changed
}

// startLocked ends e's current run (if any) and starts a new one, which
// waits for the old one's end first: two processes of one server never
// overlap.
func (m *Manager) startLocked(e *liveServer) {
	prev := e.done
	if e.cancel != nil {
		e.cancel()
	}
	e.gen++
	e.pending, e.overLimit = false, false
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	done := make(chan struct{})
	e.done = done
	e.setLocked(StateConnecting, nil)
	e.conn, e.cat = nil, catalog{}
	m.loops.Add(1)
	go m.run(ctx, e, e.gen, e.def, prev, done)
}

// stopLocked ends e's current run (in the background) and leaves e in
// state with err.
func (m *Manager) stopLocked(e *liveServer, state State, err error) {
	if e.cancel != nil {
		e.cancel()
		e.cancel = nil
	}
	e.gen++
	e.conn, e.cat = nil, catalog{}
	e.setLocked(state, err)
}

// removeLocked stops e and forgets it.
func (m *Manager) removeLocked(e *liveServer) {
	m.stopLocked(e, StateDisabled, nil)
	delete(m.entries, e.key)
}

// setLocked changes e's state and wakes whoever waits on it.
func (e *liveServer) setLocked(state State, err error) {
	e.state, e.err = state, err
	e.bumpLocked()
}

func (e *liveServer) bumpLocked() {
	close(e.changed)
	e.changed = make(chan struct{})
}

// Stop ends key's server and forgets it, as a Sync of its scope without it
// would, but returns only once the server (for stdio, its whole process
// tree) is gone. A later Sync that lists it starts it again.
func (m *Manager) Stop(key Key) {
	m.mu.Lock()
	e := m.entries[key]
	if e == nil {
		m.mu.Unlock()
		return
	}
	m.removeLocked(e)
	done := e.done
	changed := append([]Key{key}, m.rebalanceLocked()...)
	m.mu.Unlock()
	m.notify(changed)
	<-done
}

// Restart reconnects key's server from scratch (a fix, a sign-in, a failed
// state), with a fresh restart count. It fails with MCP_SERVER_UNAVAILABLE
// for an unknown or disabled server, or one past the server limit.
func (m *Manager) Restart(key Key) error {
	m.mu.Lock()
	e := m.entries[key]
	switch {
	case m.closed:
		m.mu.Unlock()
		return errClosed()
	case e == nil:
		m.mu.Unlock()
		return errUnknownServer(key)
	case !e.def.Enabled:
		m.mu.Unlock()
		return errs.New(errs.MCPServerUnavailable, "MCP server %q is disabled; enable it in Settings → MCP servers, then it starts", key.ID).With("server", key.ID)
	}
	e.restarts = 0
	e.pending = true
	changed := m.rebalanceLocked()
	var err error
	if e.overLimit {
		err = e.err
	}
	m.mu.Unlock()
	m.notify(changed)
	return err
}

// Close ends every server and its process tree, and returns once they are
// all gone (a Dial that ignores its context is given closeGrace). Calls
// fail from then on. It is idempotent.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		<-m.closeC
		return
	}
	m.closed = true
	for _, e := range m.entries {
		if e.cancel != nil {
			e.cancel()
			e.cancel = nil
		}
		e.gen++
		e.bumpLocked()
	}
	m.mu.Unlock()
	m.loops.Wait()
	dialsDone := make(chan struct{})
	go func() {
		m.dials.Wait()
		close(dialsDone)
	}()
	t := time.NewTimer(closeGrace)
	select {
	case <-dialsDone:
	case <-t.C:
	}
	t.Stop()
	close(m.closeC)
}

// notify reports keys (each once) to OnChange.
func (m *Manager) notify(keys []Key) {
	slices.SortFunc(keys, compareKeys)
	for _, k := range slices.Compact(keys) {
		m.o.OnChange(k)
	}
}

func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

func errClosed() error {
	return errs.New(errs.MCPServerUnavailable, "MCP servers are shut down because the app is quitting")
}

func errUnknownServer(k Key) error {
	return errs.New(errs.MCPServerUnavailable, "no MCP server %q is configured here; add it in Settings → MCP servers or check the name", k.ID).With("server", k.ID)
}
