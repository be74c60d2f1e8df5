package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// fakeClock is real time plus an offset the test moves: oauth2 stamps a
// token's expiry from the real clock, so both sides must start from it.
type fakeClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}

// memTokens is a TokenStore in memory, as the keychain holds blobs.
type memTokens struct {
	mu    sync.Mutex
	blobs map[string][]byte
}

func (m *memTokens) Load(key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.blobs[key], nil
}

func (m *memTokens) Save(key string, blob []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.blobs == nil {
		m.blobs = map[string][]byte{}
	}
	m.blobs[key] = blob
	return nil
}

func (m *memTokens) blob(t *testing.T, key string) signInBlob {
	t.Helper()
	var b signInBlob
	raw, _ := m.Load(key)
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatalf("saved sign-in %q: %v", raw, err)
	}
	return b
}

// authServer is a local OAuth authorization server in front of an MCP
// server: protected-resource and authorization-server metadata, dynamic
// registration, /authorize that redirects straight back with a code (no
// login page), /token with PKCE, short-lived access tokens and rotating,
// revocable refresh tokens.
type authServer struct {
	t         *testing.T
	hs        *httptest.Server
	clock     *fakeClock
	accessTTL time.Duration
	resource  string // the MCP endpoint URL

	mu            sync.Mutex
	clients       map[string]string // client id → redirect URI
	codes         map[string]grant
	access        map[string]time.Time // access token → expiry
	refresh       map[string]string    // refresh token → client id
	registrations int
	refreshes     int
	seq           int
}

type grant struct{ clientID, redirect, challenge, resource string }

func newAuthServer(t *testing.T, transport Transport, clock *fakeClock) *authServer {
	a := &authServer{t: t, clock: clock, accessTTL: 10 * time.Minute,
		clients: map[string]string{}, codes: map[string]grant{}, access: map[string]time.Time{}, refresh: map[string]string{}}
	srv := sdk.NewServer(&sdk.Implementation{Name: "pi-oauth-test", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "whoami", Description: "Say hello."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello"}}}, nil, nil
		})
	var mcpHandler http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	if transport == TransportSSE {
		mcpHandler = sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", a.resourceMetadata)
	mux.HandleFunc("/.well-known/oauth-authorization-server", a.serverMetadata)
	mux.HandleFunc("POST /register", a.register)
	mux.HandleFunc("GET /authorize", a.authorize)
	mux.HandleFunc("POST /token", a.token)
	mux.Handle("/mcp", a.protect(mcpHandler))
	a.hs = httptest.NewServer(mux)
	t.Cleanup(a.hs.Close)
	a.resource = a.hs.URL + "/mcp"
	return a
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (a *authServer) resourceMetadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, map[string]any{"resource": a.resource, "authorization_servers": []string{a.hs.URL}})
}

func (a *authServer) serverMetadata(w http.ResponseWriter, _ *http.Request) {
	u := a.hs.URL
	writeJSON(w, 200, map[string]any{
		"issuer": u, "authorization_endpoint": u + "/authorize", "token_endpoint": u + "/token",
		"registration_endpoint": u + "/register", "response_types_supported": []string{"code"},
		"grant_types_supported":            []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"},
	})
}

func (a *authServer) register(w http.ResponseWriter, r *http.Request) {
	var md map[string]any
	if err := json.NewDecoder(r.Body).Decode(&md); err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	uris, _ := md["redirect_uris"].([]any)
	if len(uris) != 1 || !strings.HasPrefix(fmt.Sprint(uris[0]), "http://127.0.0.1:") {
		writeJSON(w, 400, map[string]string{"error": "invalid_redirect_uri"})
		return
	}
	a.mu.Lock()
	a.seq++
	a.registrations++
	id := fmt.Sprintf("client-%d", a.seq)
	a.clients[id] = fmt.Sprint(uris[0])
	a.mu.Unlock()
	md["client_id"] = id
	writeJSON(w, 201, md)
}

func (a *authServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a.mu.Lock()
	defer a.mu.Unlock()
	redirect, ok := a.clients[q.Get("client_id")]
	if !ok || q.Get("redirect_uri") != redirect || q.Get("response_type") != "code" ||
		q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("resource") != a.resource {
		http.Error(w, "bad authorization request: "+r.URL.RawQuery, 400)
		return
	}
	a.seq++
	code := fmt.Sprintf("code-%d", a.seq)
	a.codes[code] = grant{clientID: q.Get("client_id"), redirect: redirect, challenge: q.Get("code_challenge"), resource: q.Get("resource")}
	http.Redirect(w, r, redirect+"?"+url.Values{"code": {code}, "state": {q.Get("state")}}.Encode(), http.StatusFound)
}

// issue makes a token pair; the caller holds a.mu.
func (a *authServer) issue(w http.ResponseWriter, clientID string) {
	a.seq++
	access, refresh := fmt.Sprintf("access-%d", a.seq), fmt.Sprintf("refresh-%d", a.seq)
	a.access[access] = a.clock.now().Add(a.accessTTL)
	a.refresh[refresh] = clientID
	writeJSON(w, 200, map[string]any{"access_token": access, "token_type": "Bearer",
		"expires_in": int(a.accessTTL.Seconds()), "refresh_token": refresh})
}

func (a *authServer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_request"})
		return
	}
	f := r.PostForm
	a.mu.Lock()
	defer a.mu.Unlock()
	switch f.Get("grant_type") {
	case "authorization_code":
		g, ok := a.codes[f.Get("code")]
		delete(a.codes, f.Get("code"))
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if !ok || g.clientID != f.Get("client_id") || g.redirect != f.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		a.issue(w, g.clientID)
	case "refresh_token":
		clientID, ok := a.refresh[f.Get("refresh_token")]
		if !ok || clientID != f.Get("client_id") {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "refresh token expired or revoked"})
			return
		}
		delete(a.refresh, f.Get("refresh_token")) // rotation: each refresh token works once
		a.refreshes++
		a.issue(w, clientID)
	default:
		writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
	}
}

func (a *authServer) protect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		a.mu.Lock()
		expiry, ok := a.access[tok]
		a.mu.Unlock()
		if !ok || !a.clock.now().Before(expiry) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q`, a.hs.URL+"/.well-known/oauth-protected-resource/mcp"))
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (a *authServer) forgetAccessTokens() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.access)
}

func (a *authServer) revokeRefreshTokens() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.refresh)
}

func (a *authServer) counts() (registrations, refreshes int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.registrations, a.refreshes
}

// followBrowser is the test's "browser": it first tries the loopback with
// a forged state (which must be refused), then follows the authorization
// URL, whose redirect lands on the loopback.
func followBrowser(t *testing.T, opened *int) func(string) error {
	return func(authURL string) error {
		*opened++
		u, err := url.Parse(authURL)
		if err != nil {
			return err
		}
		forged := u.Query().Get("redirect_uri") + "?code=stolen&state=forged"
		resp, err := http.Get(forged)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("a callback with a forged state got %d, want 400", resp.StatusCode)
		}
		resp, err = http.Get(authURL)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("the redirect to the loopback got %s", resp.Status)
		}
		return nil
	}
}

func wantSignIn(t *testing.T, err error, what string) {
	t.Helper()
	e := errs.As(err)
	if e == nil || e.Code != errs.MCPAuthRequired || e.Details["signIn"] != true || !strings.Contains(e.Message, `press "Sign in"`) {
		t.Fatalf("%s: %v; want MCP_AUTH_REQUIRED telling to press \"Sign in\"", what, err)
	}
}

// 401 → MCP_AUTH_REQUIRED → SignIn → token saved → Connect → the access
// token nears its expiry and is renewed on the way → the refresh token is
// revoked → MCP_AUTH_REQUIRED again, until a new SignIn.
func TestOAuthSignInRefreshRevoke(t *testing.T) {
	t.Parallel()
	for _, transport := range []Transport{TransportHTTP, TransportSSE} {
		t.Run(string(transport), func(t *testing.T) {
			t.Parallel()
			clock := &fakeClock{}
			as := newAuthServer(t, transport, clock)
			s := Server{ID: "secured", Transport: transport, URL: as.resource}
			store := &memTokens{}
			opts := ConnectOptions{Tokens: store, TokenKey: "user/secured", now: clock.now}
			call := func(c *Conn) error {
				res, err := c.CallTool(t.Context(), "whoami", nil, nil)
				if err == nil && res.IsError {
					err = fmt.Errorf("whoami failed: %+v", res.Content)
				}
				return err
			}

			_, err := Connect(t.Context(), s, opts)
			wantSignIn(t, err, "Connect before signing in")

			opened := 0
			if err := SignIn(t.Context(), s, SignInOptions{OpenBrowser: followBrowser(t, &opened), Tokens: store, TokenKey: "user/secured"}); err != nil {
				t.Fatalf("SignIn: %v", err)
			}
			first := store.blob(t, "user/secured")
			if opened != 1 || first.Resource != as.resource || first.ClientID == "" || first.Token.RefreshToken == "" {
				t.Fatalf("after SignIn: browser opened %d times, saved %+v", opened, first)
			}

			c, err := Connect(t.Context(), s, opts)
			if err != nil {
				t.Fatalf("Connect after SignIn: %v", err)
			}
			defer c.Close()
			if err := call(c); err != nil {
				t.Fatal(err)
			}
			if _, n := as.counts(); n != 0 {
				t.Errorf("%d refreshes with a fresh token", n)
			}

			// Half a minute before expiry (the margin is a minute): the
			// next request renews the token first, and the rotated refresh
			// token is saved.
			clock.advance(as.accessTTL - 30*time.Second)
			if err := call(c); err != nil {
				t.Fatalf("call as the token expires: %v", err)
			}
			if _, n := as.counts(); n != 1 {
				t.Errorf("%d refreshes, want 1", n)
			}
			renewed := store.blob(t, "user/secured")
			if renewed.Token.RefreshToken == first.Token.RefreshToken || renewed.Token.AccessToken == first.Token.AccessToken {
				t.Error("the renewed token was not saved")
			}
			c.Close()

			// A new connection starts from the saved (rotated) sign-in.
			clock.advance(as.accessTTL)
			c, err = Connect(t.Context(), s, opts)
			if err != nil {
				t.Fatalf("Connect with an expired access token: %v", err)
			}
			if err := call(c); err != nil {
				t.Fatal(err)
			}
			if _, n := as.counts(); n != 2 {
				t.Errorf("%d refreshes, want 2", n)
			}

			// The server forgets its access tokens (a restart): the next
			// request renews the token and goes through.
			as.forgetAccessTokens()
			if err := call(c); err != nil {
				t.Fatalf("call after the server forgot the access token: %v", err)
			}
			if _, n := as.counts(); n != 3 {
				t.Errorf("%d refreshes, want 3", n)
			}

			// The refresh token is revoked: the live session and new
			// connections ask for a sign-in, and never open a browser.
			// (A refused write ends a legacy SSE session, so only the first
			// call is asked; a new Connect says the same.)
			as.revokeRefreshTokens()
			as.forgetAccessTokens()
			err = call(c)
			wantSignIn(t, err, "call refused with the refresh token revoked")
			c.Close()
			clock.advance(as.accessTTL)
			_, err = Connect(t.Context(), s, opts)
			wantSignIn(t, err, "Connect after the refresh token was revoked")
			if opened != 1 {
				t.Errorf("the browser opened %d times; only SignIn may open it", opened)
			}

			if err := SignIn(t.Context(), s, SignInOptions{OpenBrowser: followBrowser(t, &opened), Tokens: store, TokenKey: "user/secured"}); err != nil {
				t.Fatalf("second SignIn: %v", err)
			}
			c, err = Connect(t.Context(), s, opts)
			if err != nil {
				t.Fatalf("Connect after signing in again: %v", err)
			}
			defer c.Close()
			if err := call(c); err != nil {
				t.Fatal(err)
			}
			if reg, _ := as.counts(); reg != 2 {
				t.Errorf("%d registrations, want one per sign-in", reg)
			}
		})
	}
}
