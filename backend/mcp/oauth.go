package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// TokenStore keeps each remote server's OAuth sign-in (tokens and the
// registered client) as an opaque blob; the host keeps it in the OS
// keychain. Both methods may be called from the connection's goroutines.
type TokenStore interface {
	// Load returns the blob saved under key, or nil and no error when
	// there is none.
	Load(key string) ([]byte, error)
	// Save replaces the blob under key.
	Save(key string, blob []byte) error
}

// refreshMargin is how long before its expiry an access token is renewed,
// so a request never leaves with a token that dies on the way.
const refreshMargin = time.Minute

// signInVersion is the blob's format; another version reads as no sign-in.
const signInVersion = 1

// signInBlob is what a TokenStore holds for one server: enough to refresh
// the token without the browser.
type signInBlob struct {
	Version int `json:"version"`
	// Resource is the server URL the sign-in was made for: a token never
	// goes to another URL, even under the same key.
	Resource     string           `json:"resource"`
	ClientID     string           `json:"clientId"`
	ClientSecret string           `json:"clientSecret,omitempty"`
	TokenURL     string           `json:"tokenUrl"`
	AuthStyle    oauth2.AuthStyle `json:"authStyle"`
	Scopes       []string         `json:"scopes,omitempty"`
	Token        *oauth2.Token    `json:"token"`
}

func (b *signInBlob) config() *oauth2.Config {
	return &oauth2.Config{
		ClientID: b.ClientID, ClientSecret: b.ClientSecret, Scopes: b.Scopes,
		Endpoint: oauth2.Endpoint{TokenURL: b.TokenURL, AuthStyle: b.AuthStyle},
	}
}

// savedSignIn is a server's sign-in in use: it hands out the access token,
// renews it with the refresh token before it expires (oauth2.TokenSource
// semantics) and saves each renewal, since servers rotate refresh tokens.
type savedSignIn struct {
	serverID string
	key      string
	store    TokenStore
	client   *http.Client // for the token endpoint: the base client, without the server's headers
	now      func() time.Time

	mu   sync.Mutex
	blob signInBlob
}

// loadTokens reads the sign-in saved for s; nil when there is none, or
// when it was made for another URL.
func loadTokens(s Server, store TokenStore, key string, client *http.Client, now func() time.Time) (*savedSignIn, error) {
	if store == nil {
		return nil, nil
	}
	raw, err := store.Load(key)
	if err != nil {
		return nil, errs.Wrap(err, errs.MCPAuthRequired,
			"could not read the saved sign-in of MCP server %q; unlock the keychain, or press \"Sign in\" for it in Settings → MCP servers", s.ID).
			With("server", s.ID).With("signIn", true)
	}
	if raw == nil {
		return nil, nil
	}
	var b signInBlob
	if json.Unmarshal(raw, &b) != nil || b.Version != signInVersion || b.Resource != s.URL || b.Token == nil {
		return nil, nil
	}
	if now == nil {
		now = time.Now
	}
	return &savedSignIn{serverID: s.ID, key: key, store: store, client: client, now: now, blob: b}, nil
}

// token returns a usable access token, renewing it first when it expires
// within refreshMargin. The lock makes concurrent requests share one
// renewal.
func (t *savedSignIn) token(ctx context.Context) (*oauth2.Token, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tok := t.blob.Token
	if tok.AccessToken != "" && (tok.Expiry.IsZero() || tok.Expiry.Sub(t.now()) > refreshMargin) {
		return tok, nil
	}
	return t.renewLocked(ctx)
}

// renew replaces an access token the server refused before its expiry
// (revoked, or forgotten by a restarted server), unless another request
// renewed it meanwhile.
func (t *savedSignIn) renew(ctx context.Context, refused string) (*oauth2.Token, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.blob.Token.AccessToken != refused {
		return t.blob.Token, nil
	}
	return t.renewLocked(ctx)
}

func (t *savedSignIn) renewLocked(ctx context.Context) (*oauth2.Token, error) {
	tok := t.blob.Token
	if tok.RefreshToken == "" {
		return nil, t.expired(nil)
	}
	// A source over a token with no access token renews at once.
	rctx := context.WithValue(ctx, oauth2.HTTPClient, t.client)
	fresh, err := t.blob.config().TokenSource(rctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		var re *oauth2.RetrieveError
		switch {
		case ctx.Err() != nil:
			return nil, context.Cause(ctx)
		case errors.As(err, &re) && re.Response != nil && re.Response.StatusCode < 500:
			// invalid_grant and its kin: the refresh token expired or was revoked.
			return nil, t.expired(err)
		}
		return nil, errs.Wrap(err, errs.MCPServerUnavailable,
			"could not reach the authorization server of MCP server %q to renew its sign-in; check the network, then retry", t.serverID).With("server", t.serverID)
	}
	if fresh.ExpiresIn > 0 {
		// Dated by the clock that judges it (oauth2 dates it by its own).
		fresh.Expiry = t.now().Add(time.Duration(fresh.ExpiresIn) * time.Second)
	}
	t.blob.Token = fresh
	if raw, err := json.Marshal(t.blob); err == nil {
		// A failed save keeps the session working on the token in memory;
		// the next connect may then ask to sign in again, which is safe.
		_ = t.store.Save(t.key, raw)
	}
	return fresh, nil
}

func (t *savedSignIn) expired(cause error) error {
	return errs.Wrap(cause, errs.MCPAuthRequired,
		"the sign-in to MCP server %q has expired or was revoked; press \"Sign in\" for %q in Settings → MCP servers", t.serverID, t.serverID).
		With("server", t.serverID).With("signIn", true)
}
