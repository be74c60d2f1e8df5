package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// SignIn outcomes other than success: each says what to do next.
func TestSignInFailures(t *testing.T) {
	t.Parallel()
	t.Run("server needs no sign-in", func(t *testing.T) {
		t.Parallel()
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: endpoint\ndata: /messages\n\n")
		}))
		defer hs.Close()
		s := Server{ID: "open", Transport: TransportSSE, URL: hs.URL}
		err := SignIn(t.Context(), s, SignInOptions{OpenBrowser: func(string) error { t.Error("browser opened"); return nil }, Tokens: &memTokens{}})
		if !errs.Is(err, errs.InvalidArgument) {
			t.Fatalf("err = %v, want INVALID_ARGUMENT", err)
		}
	})
	t.Run("user refuses", func(t *testing.T) {
		t.Parallel()
		as := newAuthServer(t, TransportHTTP, &fakeClock{})
		s := Server{ID: "secured", Transport: TransportHTTP, URL: as.resource}
		store := &memTokens{}
		refuse := func(authURL string) error {
			u, _ := url.Parse(authURL)
			q := u.Query()
			resp, err := http.Get(q.Get("redirect_uri") + "?" + url.Values{"error": {"access_denied"}, "state": {q.Get("state")}}.Encode())
			if err != nil {
				return err
			}
			resp.Body.Close()
			return nil
		}
		err := SignIn(t.Context(), s, SignInOptions{OpenBrowser: refuse, Tokens: store})
		e := errs.As(err)
		if e == nil || e.Code != errs.MCPAuthRequired || !strings.Contains(e.Message, "access_denied") {
			t.Fatalf("err = %v, want MCP_AUTH_REQUIRED naming access_denied", err)
		}
		if raw, _ := store.Load("secured"); raw != nil {
			t.Errorf("a refused sign-in saved %s", raw)
		}
	})
	t.Run("user walks away", func(t *testing.T) {
		t.Parallel()
		as := newAuthServer(t, TransportHTTP, &fakeClock{})
		s := Server{ID: "secured", Transport: TransportHTTP, URL: as.resource}
		var redirect string
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		err := SignIn(ctx, s, SignInOptions{Tokens: &memTokens{}, OpenBrowser: func(authURL string) error {
			u, _ := url.Parse(authURL)
			redirect = u.Query().Get("redirect_uri")
			return nil
		}})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the context's deadline", err)
		}
		// The loopback listener is gone with the sign-in.
		if resp, err := http.Get(redirect + "?code=late&state=late"); err == nil {
			resp.Body.Close()
			t.Errorf("the loopback still answers after the sign-in ended")
		}
	})
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		s := Server{ID: "local", Transport: TransportStdio, Command: "true"}
		if err := SignIn(t.Context(), s, SignInOptions{OpenBrowser: func(string) error { return nil }, Tokens: &memTokens{}}); !errs.Is(err, errs.InvalidArgument) {
			t.Fatalf("err = %v, want INVALID_ARGUMENT", err)
		}
	})
}

// The loopback takes exactly one callback: a second one, even with the
// right state, is refused.
func TestLoopbackOneCallback(t *testing.T) {
	t.Parallel()
	l, err := listenLoopback("srv")
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	authURL := "https://as.example/authorize?state=s1"
	var second int
	res, err := l.await(t.Context(), authURL, func(string) error {
		for i := range 2 {
			resp, err := http.Get(l.redirectURL + "?code=c1&state=s1")
			if err != nil {
				return err
			}
			resp.Body.Close()
			if i == 1 {
				second = resp.StatusCode
			}
		}
		return nil
	})
	if err != nil || res.Code != "c1" || res.State != "s1" {
		t.Fatalf("await = %+v, %v", res, err)
	}
	if second != http.StatusBadRequest {
		t.Errorf("second callback got %d, want 400", second)
	}
}

// A saved sign-in is used only for the URL it was made for, and a blob
// that cannot be read is no sign-in: never a crash, never a token sent
// elsewhere.
func FuzzLoadTokens(f *testing.F) {
	good, _ := json.Marshal(signInBlob{Version: signInVersion, Resource: "https://a.example/mcp", ClientID: "c",
		TokenURL: "https://a.example/token", Token: &oauth2.Token{AccessToken: "x", RefreshToken: "r"}})
	f.Add(good, "https://a.example/mcp")
	f.Add(good, "https://b.example/mcp")
	f.Add([]byte(`{"version":1,"resource":"https://a.example/mcp"}`), "https://a.example/mcp")
	f.Add([]byte(`not json`), "https://a.example/mcp")
	f.Fuzz(func(t *testing.T, blob []byte, serverURL string) {
		store := &memTokens{}
		_ = store.Save("k", blob)
		s := Server{ID: "s", Transport: TransportHTTP, URL: serverURL}
		got, err := loadTokens(s, store, "k", http.DefaultClient, nil)
		if err != nil {
			t.Fatalf("loadTokens: %v", err)
		}
		if got != nil && (got.blob.Resource != serverURL || got.blob.Token == nil) {
			t.Fatalf("a sign-in for %q (token %v) used for %q", got.blob.Resource, got.blob.Token, serverURL)
		}
	})
}

// Headers and tokens go only to the server's own origin: not to another
// host a redirect or an SSE endpoint event names.
func TestRemoteTransportOriginOnly(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]http.Header{}
	record := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen[name] = r.Header.Clone()
			mu.Unlock()
		})
	}
	other := httptest.NewServer(record("other"))
	defer other.Close()
	own := httptest.NewServer(record("own"))
	defer own.Close()

	s := Server{ID: "s", Transport: TransportHTTP, URL: own.URL + "/mcp", Headers: map[string]string{"X-Api-Key": "secret"}}
	tokens := &savedSignIn{serverID: "s", now: time.Now,
		blob: signInBlob{Token: &oauth2.Token{AccessToken: "tok", Expiry: time.Now().Add(time.Hour)}}}
	rt, err := newRemoteTransport(s, http.DefaultTransport, tokens)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: rt}
	for _, u := range []string{own.URL + "/mcp", other.URL + "/mcp"} {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if h := seen["own"]; h.Get("X-Api-Key") != "secret" || h.Get("Authorization") != "Bearer tok" {
		t.Errorf("own origin got %v, want the key and the token", h)
	}
	if h := seen["other"]; h.Get("X-Api-Key") != "" || h.Get("Authorization") != "" {
		t.Errorf("another origin got %v, want neither the key nor the token", h)
	}
}
