package mcp

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// connectRemote connects to a streamable HTTP or SSE server through a
// remoteTransport, which adds the headers and the saved sign-in and
// remembers what went wrong so a failed handshake gets its stable code.
func connectRemote(ctx context.Context, s Server, o ConnectOptions) (*Conn, error) {
	base, owned := baseClient(o.HTTPClient)
	tokens, err := loadTokens(s, o.Tokens, tokenKey(s, o.TokenKey), base, o.now)
	if err != nil {
		return nil, err
	}
	rt, err := newRemoteTransport(s, base.Transport, tokens)
	if err != nil {
		return nil, err
	}
	client := *base
	client.Transport = rt

	c := &Conn{exited: make(chan struct{})}
	if owned {
		c.closers = append(c.closers, base.CloseIdleConnections)
	}
	var t sdk.Transport
	switch s.Transport {
	case TransportSSE:
		sse := &detachedSSE{inner: &sdk.SSEClientTransport{Endpoint: s.URL, HTTPClient: &client}}
		c.closers = append(c.closers, sse.stop)
		t = sse
	default:
		t = &sdk.StreamableClientTransport{Endpoint: s.URL, HTTPClient: &client}
	}
	// Requests still in flight when the handshake gives up are cut: the
	// SDK would otherwise wait for them (its cancellation notice, for one)
	// for seconds past the connect timeout. Close cuts them too.
	c.closers = append(c.closers, rt.abort)
	hsCtx, hsCancel := context.WithTimeout(ctx, s.EffectiveConnectTimeout())
	defer hsCancel()
	var mu sync.Mutex
	handshaking := true
	stop := context.AfterFunc(hsCtx, func() {
		mu.Lock()
		defer mu.Unlock()
		if handshaking {
			rt.abort()
		}
	})
	defer stop()
	// hsCtx may expire a moment before the SDK's own connect deadline, and
	// its abort then fails the handshake first: still a timeout.
	explain := func() error {
		if e := rt.explain(s); e != nil {
			return e
		}
		if errors.Is(hsCtx.Err(), context.DeadlineExceeded) {
			return remoteTimeout(s)
		}
		return nil
	}
	conn, err := connectSession(ctx, s, t, o.Hooks, c, explain)
	mu.Lock()
	handshaking = false
	aborted := rt.aborted.Err() != nil
	mu.Unlock()
	if err == nil && aborted { // the deadline struck as the handshake ended
		_ = conn.Close()
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, remoteTimeout(s)
	}
	return conn, err
}

func remoteTimeout(s Server) error {
	return errs.New(errs.MCPConnectTimeout,
		"MCP server %q at %s did not complete the MCP handshake within its connect timeout (%s); check that the server is up, or raise its connect timeout",
		s.ID, displayURL(s.URL), s.EffectiveConnectTimeout()).With("server", s.ID).With("url", displayURL(s.URL))
}

// baseClient is the caller's client, or one of the connection's own (its
// own pool, no shared state), which owned says Close must release.
func baseClient(c *http.Client) (client *http.Client, owned bool) {
	if c != nil {
		if c.Transport == nil {
			cc := *c
			cc.Transport = http.DefaultTransport
			return &cc, false
		}
		return c, false
	}
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}, true
}

// detachedSSE runs the SDK's SSE client transport on a context of its own:
// the SDK ties the hanging GET to the context Connect gets, which the
// handshake's timeout cancels once the session is up. stop ends the stream.
type detachedSSE struct {
	inner *sdk.SSEClientTransport

	mu     sync.Mutex
	cancel context.CancelFunc
}

func (d *detachedSSE) Connect(ctx context.Context) (sdk.Connection, error) {
	streamCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	d.mu.Lock()
	d.cancel = cancel
	d.mu.Unlock()
	// Until the stream is open, giving up on the handshake ends it.
	stopWatch := context.AfterFunc(ctx, cancel)
	conn, err := d.inner.Connect(streamCtx)
	if !stopWatch() || err != nil {
		cancel()
		if err == nil {
			_ = conn.Close()
			err = context.Cause(ctx)
		}
		return nil, err
	}
	return conn, nil
}

func (d *detachedSSE) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cancel != nil {
		d.cancel()
	}
}

// remoteTransport puts the server's headers and the saved sign-in on every
// request to the server's own origin (never to another host a redirect or
// an SSE endpoint names), and keeps the first failure it sees.
type remoteTransport struct {
	base    http.RoundTripper
	origin  *url.URL
	headers map[string]string
	tokens  *savedSignIn // nil: not signed in

	// aborted ends every request made through the transport when abort is
	// called.
	aborted context.Context
	abort   context.CancelFunc

	mu    sync.Mutex
	first *failure
}

// failure is the first thing that went wrong on the wire.
type failure struct {
	url       string
	status    int
	challenge bool  // 401/403 with a Bearer challenge: OAuth can fix it
	netErr    error // the request did not reach the server
	authErr   error // the saved sign-in could not be refreshed
}

func newRemoteTransport(s Server, base http.RoundTripper, tokens *savedSignIn) (*remoteTransport, error) {
	u, err := url.Parse(s.URL)
	if err != nil { // Validate parsed it already
		return nil, errs.Wrap(err, errs.InvalidArgument, "MCP server %q: %q is not a URL", s.ID, s.URL).With("server", s.ID)
	}
	aborted, abort := context.WithCancel(context.Background())
	return &remoteTransport{base: base, origin: u, headers: s.Headers, tokens: tokens, aborted: aborted, abort: abort}, nil
}

// bodyCloser runs done once the response body is closed.
type bodyCloser struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *bodyCloser) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.done)
	return err
}

func (rt *remoteTransport) sameOrigin(u *url.URL) bool {
	return u.Scheme == rt.origin.Scheme && u.Host == rt.origin.Host
}

func (rt *remoteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	stop := context.AfterFunc(rt.aborted, cancel)
	release := func() { stop(); cancel() }
	// A RoundTripper must not change the request it was given.
	req = req.Clone(ctx)
	var bearer string // the saved sign-in's access token this request carries
	if rt.sameOrigin(req.URL) {
		for k, v := range rt.headers {
			req.Header.Set(k, v)
		}
		// A configured Authorization header is the user's explicit choice.
		if rt.tokens != nil && req.Header.Get("Authorization") == "" {
			tok, err := rt.tokens.token(ctx)
			if err != nil {
				release()
				rt.note(&failure{url: req.URL.String(), authErr: err})
				return nil, err
			}
			tok.SetAuthHeader(req)
			bearer = tok.AccessToken
		}
	}
	resp, err := rt.base.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusUnauthorized && bearer != "" {
		resp, err = rt.retryRenewed(req, resp, bearer)
	}
	if err != nil {
		release()
	} else {
		resp.Body = &bodyCloser{ReadCloser: resp.Body, done: release}
	}
	switch {
	case err != nil:
		if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			rt.note(&failure{url: req.URL.String(), netErr: err})
		}
	case resp.StatusCode == http.StatusMethodNotAllowed && req.Method == http.MethodGet:
		// A streamable server without the optional standalone stream.
	case resp.StatusCode >= 400:
		rt.note(&failure{url: req.URL.String(), status: resp.StatusCode, challenge: bearerChallenge(resp.Header)})
	}
	return resp, err
}

// retryRenewed answers a 401 to a token that had not expired yet (the
// server revoked or forgot it) by renewing the token and sending the
// request once more, so a sign-in is asked for only when renewal fails.
func (rt *remoteTransport) retryRenewed(req *http.Request, refused *http.Response, bearer string) (*http.Response, error) {
	replayable := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
	if !replayable {
		return refused, nil
	}
	fresh, err := rt.tokens.renew(req.Context(), bearer)
	if err != nil {
		// The renewal's verdict (sign in again) says more than the 401.
		refused.Body.Close()
		rt.note(&failure{url: req.URL.String(), authErr: err})
		return nil, err
	}
	retry := req.Clone(req.Context())
	if req.GetBody != nil {
		if retry.Body, err = req.GetBody(); err != nil {
			return refused, nil
		}
	}
	fresh.SetAuthHeader(retry)
	_, _ = io.Copy(io.Discard, io.LimitReader(refused.Body, 4<<10))
	refused.Body.Close()
	return rt.base.RoundTrip(retry)
}

func (rt *remoteTransport) note(f *failure) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.first == nil {
		rt.first = f
	}
}

func bearerChallenge(h http.Header) bool {
	cs, err := oauthex.ParseWWWAuthenticate(h.Values("WWW-Authenticate"))
	if err != nil {
		return false
	}
	for _, c := range cs {
		if c.Scheme == "bearer" {
			return true
		}
	}
	return false
}

// explain names the first failure with its stable code, or returns nil
// when the wire showed none (a timeout, or a server that is not MCP).
func (rt *remoteTransport) explain(s Server) error {
	rt.mu.Lock()
	f := rt.first
	rt.mu.Unlock()
	if f == nil {
		return nil
	}
	return remoteError(s, f, rt.tokens != nil)
}

func remoteError(s Server, f *failure, signedIn bool) error {
	withServer := func(e *errs.Error) *errs.Error { return e.With("server", s.ID).With("url", displayURL(s.URL)) }
	switch {
	case f.authErr != nil:
		var e *errs.Error
		if errors.As(f.authErr, &e) {
			return e
		}
		return withServer(errs.Wrap(f.authErr, errs.MCPAuthRequired, "the sign-in to MCP server %q could not be refreshed; press \"Sign in\" for %q in Settings → MCP servers", s.ID, s.ID)).With("signIn", true)
	case f.status == http.StatusUnauthorized || f.status == http.StatusForbidden:
		switch {
		case signedIn:
			return withServer(errs.New(errs.MCPAuthRequired, "MCP server %q refused the saved sign-in (HTTP %d); press \"Sign in\" for %q in Settings → MCP servers", s.ID, f.status, s.ID)).With("status", f.status).With("signIn", true)
		case f.challenge:
			return withServer(errs.New(errs.MCPAuthRequired, "MCP server %q asks you to sign in (HTTP %d); press \"Sign in\" for %q in Settings → MCP servers", s.ID, f.status, s.ID)).With("status", f.status).With("signIn", true)
		}
		return withServer(errs.New(errs.MCPAuthRequired, "MCP server %q refused the request (HTTP %d %s); check its headers (API key or token) in Settings → MCP servers", s.ID, f.status, http.StatusText(f.status))).With("status", f.status)
	case f.netErr != nil:
		return withServer(errs.Wrap(f.netErr, errs.MCPServerUnavailable, "could not reach MCP server %q at %s (%s); check the URL and that the server is running", s.ID, displayURL(s.URL), netReason(f.netErr)))
	case f.status == http.StatusNotFound:
		return withServer(errs.New(errs.MCPServerUnavailable, "MCP server %q answered 404 Not Found at %s; check the URL's path (the MCP endpoint is often /mcp, or /sse for an SSE server)", s.ID, displayURL(f.url))).With("status", f.status)
	case f.status >= 500 || f.status == http.StatusTooManyRequests:
		return withServer(errs.New(errs.MCPServerUnavailable, "MCP server %q answered HTTP %d %s at %s; the server failed or is overloaded: check it, then retry", s.ID, f.status, http.StatusText(f.status), displayURL(f.url))).With("status", f.status)
	}
	return withServer(errs.New(errs.MCPProtocolError, "MCP server %q answered HTTP %d %s at %s, not MCP; check that the URL is its MCP endpoint and that its type (http or sse) is right", s.ID, f.status, http.StatusText(f.status), displayURL(f.url))).With("status", f.status)
}

// netReason says in a few words why a request did not reach the server.
func netReason(err error) string {
	var dnsErr *net.DNSError
	var netErr net.Error
	var certErr *tls.CertificateVerificationError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dnsErr):
		return "host not found"
	case errors.As(err, &certErr):
		return "its TLS certificate is not trusted"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "the network timed out"
	}
	return "network error"
}

// displayURL is a URL as errors, logs and the model may show it: without
// user info and with query values masked, since a definition may carry a
// key there (often from a ${VAR}).
func displayURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unparsable URL)"
	}
	u.User = nil
	q := u.Query()
	u.RawQuery, u.Fragment = "", ""
	out := u.String()
	for i, k := range slices.Sorted(maps.Keys(q)) {
		out += string("?&"[min(i, 1)]) + url.QueryEscape(k) + "=…"
	}
	return out
}
