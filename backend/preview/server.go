package preview

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// DefaultFrameAncestors are the origins allowed to frame a preview page:
// the app's own (wails:// in production on Linux and macOS, wails.localhost
// on Windows, a loopback dev server in dev builds and end-to-end tests).
const DefaultFrameAncestors = "wails: http://wails.localhost https://wails.localhost http://127.0.0.1:* http://localhost:*"

// Options configure a Server. The zero value serves nothing from a data
// folder check; the host always sets DataDir.
type Options struct {
	// DataDir is the host's data folder: refused even when it lies inside a
	// workspace.
	DataDir string
	// FrameAncestors is the CSP frame-ancestors source list ("" = the
	// default above).
	FrameAncestors string
}

// Server serves previews. The listener starts with the first Open.
type Server struct {
	opts Options

	mu        sync.Mutex
	ln        net.Listener
	srv       *http.Server
	origin    string           // http://127.0.0.1:PORT once listening
	pages     map[string]*page // by token
	bySession map[string]string
	closed    bool
	// awaiting, when set (tests), is told that a caller of Await or
	// AwaitLoad holds its page and is about to wait on it.
	awaiting func(token string)
}

// New returns a server that is not yet listening.
func New(opts Options) *Server {
	if opts.FrameAncestors == "" {
		opts.FrameAncestors = DefaultFrameAncestors
	}
	return &Server{opts: opts, pages: map[string]*page{}, bySession: map[string]string{}}
}

// Page is one opened preview: its token and where it is served.
type Page struct {
	SessionID string
	Token     string
	// Base is the origin and token prefix, ending in "/".
	Base string
	// Root is the workspace folder it serves.
	Root string
}

// URL is where rel (a workspace-relative path with / separators) is
// served.
func (p Page) URL(rel string) string { return p.Base + escapePath(rel) }

// Open starts a preview of the workspace root for a session, replacing the
// session's previous one (its token stops working at once, so a stale pane
// can neither load files nor report).
func (s *Server) Open(sessionID, root string) (Page, error) {
	resolver, err := pathguard.New(pathguard.Roots{Workspace: root, Data: s.opts.DataDir}, pathguard.Options{})
	if err != nil {
		return Page{}, err
	}
	token, err := newToken()
	if err != nil {
		return Page{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Page{}, errs.New(errs.ToolAborted, "PI-Desktop is shutting down; the preview was not opened")
	}
	if err := s.listenLocked(); err != nil {
		return Page{}, err
	}
	if old, ok := s.bySession[sessionID]; ok {
		s.dropLocked(old)
	}
	p := &page{session: sessionID, token: token, resolver: resolver, root: root,
		reported: make(chan struct{}), loaded: make(chan struct{}), gone: make(chan struct{})}
	s.pages[token] = p
	s.bySession[sessionID] = token
	return Page{SessionID: sessionID, Token: token, Base: s.origin + "/" + token + "/", Root: root}, nil
}

// Current is the session's open preview, if any.
func (s *Server) Current(sessionID string) (Page, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok, ok := s.bySession[sessionID]
	if !ok {
		return Page{}, false
	}
	p := s.pages[tok]
	return Page{SessionID: sessionID, Token: tok, Base: s.origin + "/" + tok + "/", Root: p.root}, true
}

// Close ends the session's preview; its token answers 404 from now on.
func (s *Server) Close(sessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok, ok := s.bySession[sessionID]; ok {
		s.dropLocked(tok)
		delete(s.bySession, sessionID)
	}
}

// dropLocked forgets a page and wakes whoever waits on it.
func (s *Server) dropLocked(token string) {
	if p := s.pages[token]; p != nil {
		close(p.gone)
		delete(s.pages, token)
	}
}

// Live reports whether token is still a session's open preview (false once
// a later Open replaced it, or it was closed).
func (s *Server) Live(token string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pages[token] != nil
}

// Await waits for the first report of the page opened with token, until
// ctx ends or the page is replaced or closed. ok is false when none came.
func (s *Server) Await(ctx context.Context, token string) (Report, bool) {
	p := s.waitOn(token)
	if p == nil {
		return Report{}, false
	}
	select {
	case <-p.reported:
		return p.firstReport(), true
	case <-p.gone:
		return Report{}, false
	case <-ctx.Done():
		return Report{}, false
	}
}

// AwaitLoad waits until something (the pane) first asked for a file of the
// page opened with token, until ctx ends or the page is replaced or
// closed; false when nothing did.
func (s *Server) AwaitLoad(ctx context.Context, token string) bool {
	p := s.waitOn(token)
	if p == nil {
		return false
	}
	select {
	case <-p.loaded:
		return true
	case <-p.gone:
		return false
	case <-ctx.Done():
		return false
	}
}

// waitOn is the open page of token, or nil, for a caller about to wait on
// it (its gone channel wakes the caller once it is replaced or closed).
func (s *Server) waitOn(token string) *page {
	s.mu.Lock()
	p, hook := s.pages[token], s.awaiting
	s.mu.Unlock()
	if p != nil && hook != nil {
		hook(token)
	}
	return p
}

// Shutdown stops the listener and forgets every preview.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	srv := s.srv
	for tok := range s.pages {
		s.dropLocked(tok)
	}
	s.bySession = map[string]string{}
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Shutdown(ctx)
}

// ServesURL reports whether a loopback URL names this server's port
// (under any loopback spelling): a URL preview of it would reach other
// previews' paths, so the host refuses it.
func (s *Server) ServesURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	origin := s.Origin()
	if origin == "" {
		return false
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(origin, "http://"))
	return u.Port() == port
}

// Origin is http://127.0.0.1:PORT once the server listens, else "".
func (s *Server) Origin() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.origin
}

func (s *Server) listenLocked() error {
	if s.ln != nil {
		return nil
	}
	// Loopback only, on a port the kernel picks: nothing off this machine
	// can reach a preview, and nothing guesses the port in advance.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return errs.Wrap(err, errs.ToolFailed, "the preview server could not listen on 127.0.0.1: %v; check the machine's loopback interface", err)
	}
	s.ln = ln
	s.origin = "http://127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the next Open reports a dead server by its failed requests
		}
	}()
	return nil
}

func (s *Server) lookup(token string) *page {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pages[token]
}

// newToken is 128 random bits, hex: the path prefix a request must carry.
func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", errs.Wrap(err, errs.Internal, "no randomness for a preview token: %v", err)
	}
	return hex.EncodeToString(b[:]), nil
}
