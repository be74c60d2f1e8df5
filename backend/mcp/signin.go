package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// DefaultSignInTimeout bounds a sign-in whose context has no deadline: the
// user may walk away from the browser.
const DefaultSignInTimeout = 5 * time.Minute

// SignInOptions is what an interactive sign-in needs beside the server.
type SignInOptions struct {
	// OpenBrowser shows the authorization page to the user (the host
	// passes the system browser). Required.
	OpenBrowser func(url string) error
	// Tokens receives the sign-in, under TokenKey ("" = the server's id).
	Tokens   TokenStore
	TokenKey string
	// HTTPClient is the base client, as in ConnectOptions.
	HTTPClient *http.Client
}

// SignIn runs the OAuth authorization-code flow with PKCE for a remote
// server that answers 401 with protected-resource metadata, on the SDK's
// auth.AuthorizationCodeHandler: discovery, dynamic client registration,
// the browser, a loopback redirect on 127.0.0.1 that accepts exactly one
// callback with the flow's state, and the code exchange. The token and the
// registered client are saved in o.Tokens for Connect. A server that does
// not ask for a sign-in is INVALID_ARGUMENT; a refused or failed flow is
// MCP_AUTH_REQUIRED.
func SignIn(ctx context.Context, s Server, o SignInOptions) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if s.Transport != TransportHTTP && s.Transport != TransportSSE {
		return errs.New(errs.InvalidArgument, "MCP server %q is a stdio server: only http and sse servers sign in", s.ID).With("server", s.ID)
	}
	if o.OpenBrowser == nil || o.Tokens == nil {
		return errs.New(errs.InvalidArgument, "signing in to MCP server %q needs a browser and a token store", s.ID).With("server", s.ID)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultSignInTimeout)
		defer cancel()
	}
	base, owned := baseClient(o.HTTPClient)
	if owned {
		defer base.CloseIdleConnections()
	}
	cb, err := listenLoopback(s.ID)
	if err != nil {
		return errs.Wrap(err, errs.Internal, "could not listen on 127.0.0.1 for the sign-in's redirect; retry").With("server", s.ID)
	}
	defer cb.close()

	var got struct {
		cfg *oauth2.Config
		tok *oauth2.Token
	}
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				RedirectURIs:            []string{cb.redirectURL},
				ClientName:              "PI-Desktop",
				GrantTypes:              []string{"authorization_code", "refresh_token"},
				ResponseTypes:           []string{"code"},
				TokenEndpointAuthMethod: "none", // a desktop app keeps no secret
			},
		},
		RedirectURL: cb.redirectURL,
		AuthorizationCodeFetcher: func(ctx context.Context, a *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			return cb.await(ctx, a.URL, o.OpenBrowser)
		},
		RequestRefreshToken: true,
		Client:              base,
		NewTokenSource: func(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			got.cfg, got.tok = cfg, tok
			return cfg.TokenSource(ctx, tok), nil
		},
	})
	if err != nil {
		return errs.Wrap(err, errs.Internal, "could not prepare the sign-in to MCP server %q", s.ID).With("server", s.ID)
	}

	rt, err := newRemoteTransport(s, base.Transport, nil)
	if err != nil {
		return err
	}
	defer rt.abort()
	client := *base
	client.Transport = rt
	err = authorize(ctx, s, &client, handler)
	if got.tok == nil {
		switch {
		case ctx.Err() != nil:
			return context.Cause(ctx)
		case err == nil:
			return errs.New(errs.InvalidArgument, "MCP server %q did not ask for a sign-in; connect to it as it is", s.ID).With("server", s.ID)
		}
		var e *errs.Error
		if errors.As(err, &e) {
			return e
		}
		if f := rt.firstFailure(); f != nil && f.status != http.StatusUnauthorized && f.status != http.StatusForbidden {
			return remoteError(s, f, false)
		}
		return errs.Wrap(err, errs.MCPAuthRequired, "the sign-in to MCP server %q failed (%v); press \"Sign in\" to try again", s.ID, err).
			With("server", s.ID).With("signIn", true)
	}
	blob, err := json.Marshal(signInBlob{
		Version: signInVersion, Resource: s.URL,
		ClientID: got.cfg.ClientID, ClientSecret: got.cfg.ClientSecret,
		TokenURL: got.cfg.Endpoint.TokenURL, AuthStyle: got.cfg.Endpoint.AuthStyle, Scopes: got.cfg.Scopes,
		Token: got.tok,
	})
	if err != nil {
		return errs.Wrap(err, errs.Internal, "could not encode the sign-in of MCP server %q", s.ID)
	}
	if err := o.Tokens.Save(tokenKey(s, o.TokenKey), blob); err != nil {
		if e := errs.As(err); e != nil {
			return e
		}
		return errs.Wrap(err, errs.Internal, "could not save the sign-in of MCP server %q in the keychain; retry", s.ID).With("server", s.ID)
	}
	return nil
}

// authorize asks the server for what a client asks first and lets the
// handler run the flow when it answers 401: the SDK's streamable client
// does that itself (and retries), the legacy SSE one has no OAuth, so its
// first GET is made here.
func authorize(ctx context.Context, s Server, client *http.Client, h *auth.AuthorizationCodeHandler) error {
	if s.Transport == TransportHTTP {
		t := &sdk.StreamableClientTransport{Endpoint: s.URL, HTTPClient: client, OAuthHandler: h, DisableStandaloneSSE: true}
		session, err := sdk.NewClient(clientInfo(), nil).Connect(ctx, t, nil)
		if err != nil {
			return err
		}
		return session.Close()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		resp.Body.Close()
		return nil
	}
	return h.Authorize(ctx, req, resp) // closes the body
}

func (rt *remoteTransport) firstFailure() *failure {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.first
}

// loopback is the sign-in's redirect target: an HTTP server on 127.0.0.1
// at a port the OS picks, which takes exactly one callback carrying the
// flow's state and ignores any other.
type loopback struct {
	serverID    string
	redirectURL string
	srv         *http.Server
	result      chan callbackResult

	mu    sync.Mutex
	state string // "" until the flow has begun
	taken bool
	// ended is set once await has its answer: the SDK may ask again (it
	// retries its first request after a failed authorization), and the
	// user must not see a second browser tab for one sign-in.
	ended    bool
	endedErr error
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

func listenLoopback(serverID string) (*loopback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	l := &loopback{
		serverID:    serverID,
		redirectURL: fmt.Sprintf("http://%s/callback", ln.Addr()),
		result:      make(chan callbackResult, 1),
	}
	l.srv = &http.Server{Handler: http.HandlerFunc(l.callback), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

func (l *loopback) close() { _ = l.srv.Close() }

func (l *loopback) callback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	l.mu.Lock()
	ok := r.URL.Path == "/callback" && !l.taken && l.state != "" && q.Get("state") == l.state
	l.taken = l.taken || ok
	l.mu.Unlock()
	if !ok {
		http.Error(w, "This is not the sign-in PI-Desktop is waiting for.", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var res callbackResult
	if e := q.Get("error"); e != "" {
		res.err = fmt.Errorf("the authorization server answered %s: %s", e, q.Get("error_description"))
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, "<!doctype html><title>Sign-in failed</title><p>The sign-in to %s failed: %s. You can close this tab.</p>", html.EscapeString(l.serverID), html.EscapeString(e))
	} else {
		res.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		fmt.Fprintf(w, "<!doctype html><title>Signed in</title><p>Signed in to %s. You can close this tab and return to PI-Desktop.</p>", html.EscapeString(l.serverID))
	}
	// Out before await closes the server.
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	l.result <- res
}

// await opens the authorization page and waits for its one callback.
func (l *loopback) await(ctx context.Context, authURL string, open func(string) error) (*auth.AuthorizationResult, error) {
	u, err := url.Parse(authURL)
	if err != nil || u.Query().Get("state") == "" {
		return nil, fmt.Errorf("authorization URL without a state")
	}
	l.mu.Lock()
	if l.ended {
		err := l.endedErr
		l.mu.Unlock()
		if err == nil {
			err = fmt.Errorf("MCP server %q refused the token it just granted", l.serverID)
		}
		return nil, err
	}
	l.state = u.Query().Get("state")
	l.mu.Unlock()
	res, err := l.answer(ctx, authURL, open)
	l.mu.Lock()
	l.ended, l.endedErr = true, err
	l.mu.Unlock()
	return res, err
}

func (l *loopback) answer(ctx context.Context, authURL string, open func(string) error) (*auth.AuthorizationResult, error) {
	if err := open(authURL); err != nil {
		return nil, errs.Wrap(err, errs.MCPAuthRequired, "could not open the browser to sign in to MCP server %q; retry", l.serverID).With("server", l.serverID)
	}
	select {
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	case r := <-l.result:
		l.close()
		return r.res, r.err
	}
}
