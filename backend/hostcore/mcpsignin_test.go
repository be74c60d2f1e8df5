package hostcore_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// oauthOnly is a remote MCP server that wants a sign-in: every MCP request
// is a 401 naming its protected-resource metadata, with an authorization
// server that registers clients. The sign-in then waits on the browser,
// which never answers here.
func oauthOnly(t *testing.T) string {
	t.Helper()
	var base string
	reply := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, _ *http.Request) {
		reply(w, 200, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, _ *http.Request) {
		reply(w, 200, map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "response_types_supported": []string{"code"},
			"grant_types_supported": []string{"authorization_code", "refresh_token"}, "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"}})
	})
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		var md map[string]any
		_ = json.NewDecoder(r.Body).Decode(&md)
		md["client_id"] = "client-1"
		reply(w, 201, md)
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q`, base+"/.well-known/oauth-protected-resource/mcp"))
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	base = srv.URL
	return base + "/mcp"
}

// signInCore is a host whose browser reports the pages it is asked to open.
func signInCore(t *testing.T) (*hostcore.Core, <-chan string) {
	t.Helper()
	opened := make(chan string, 4)
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: filepath.Join(t.TempDir(), "data"), RgPath: "-",
		OpenBrowser: func(u string) error { opened <- u; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	if _, err := core.SaveMCPServer(t.Context(), api.MCPServerInput{ID: "remote", Transport: "http", URL: oauthOnly(t), Enabled: true}); err != nil {
		t.Fatal(err)
	}
	return core, opened
}

// waitSignIn waits for the page the sign-in opened and returns the
// loopback address the browser would be sent back to.
func waitSignIn(t *testing.T, opened <-chan string, outcome <-chan error) string {
	t.Helper()
	select {
	case page := <-opened:
		u, err := url.Parse(page)
		if err != nil {
			t.Fatal(err)
		}
		redirect, err := url.Parse(u.Query().Get("redirect_uri"))
		if err != nil || !strings.HasPrefix(redirect.Host, "127.0.0.1:") {
			t.Fatalf("the sign-in page %q names no loopback redirect", page)
		}
		return redirect.Host
	case err := <-outcome:
		t.Fatalf("the sign-in ended before opening the browser: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the sign-in never opened the browser")
	}
	return ""
}

// ended checks a sign-in ended with MCP_AUTH_REQUIRED saying why, and its
// loopback listener is closed.
func ended(t *testing.T, outcome <-chan error, loopback, why string) {
	t.Helper()
	select {
	case err := <-outcome:
		if !errs.Is(err, errs.MCPAuthRequired) || !strings.Contains(errs.ToPayload(err).Message, why) {
			t.Errorf("the sign-in ended with %v, want MCP_AUTH_REQUIRED saying %q", err, why)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the sign-in still waits on the browser")
	}
	if c, err := net.DialTimeout("tcp", loopback, time.Second); err == nil {
		c.Close()
		t.Errorf("the sign-in's loopback listener %s still accepts connections", loopback)
	}
}

// A sign-in waiting on the browser ends when the app closes: the waiting
// call returns at once saying so, and its loopback listener is closed.
func TestMCPSignInEndsWhenTheAppCloses(t *testing.T) {
	core, opened := signInCore(t)
	outcome := make(chan error, 1)
	go func() { outcome <- core.SignInMCPServer(t.Context(), "", "remote") }()
	loopback := waitSignIn(t, opened, outcome)

	closed := make(chan struct{})
	go func() { core.Close(); close(closed) }()
	ended(t, outcome, loopback, "closing")
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not return")
	}
}

// The user cancels a sign-in waiting on the browser; another may start
// then, and cancelling when nothing waits is no error.
func TestMCPSignInCancel(t *testing.T) {
	core, opened := signInCore(t)
	if err := core.CancelMCPSignIn(t.Context(), "", "remote"); err != nil {
		t.Errorf("cancel with nothing waiting: %v", err)
	}
	outcome := make(chan error, 1)
	go func() { outcome <- core.SignInMCPServer(t.Context(), "", "remote") }()
	loopback := waitSignIn(t, opened, outcome)
	if !listedSigningIn(t, core) {
		t.Error("the list does not say the sign-in waits, so a reopened Settings could not cancel it")
	}
	if err := core.SignInMCPServer(t.Context(), "", "remote"); !errs.Is(err, errs.Conflict) {
		t.Errorf("a second sign-in while one waits: %v", err)
	}
	if err := core.CancelMCPSignIn(t.Context(), "", "remote"); err != nil {
		t.Fatal(err)
	}
	ended(t, outcome, loopback, "cancelled")
	if listedSigningIn(t, core) {
		t.Error("the list still says the sign-in waits after it was cancelled")
	}

	again := make(chan error, 1)
	go func() { again <- core.SignInMCPServer(t.Context(), "", "remote") }()
	loopback = waitSignIn(t, opened, again)
	if err := core.CancelMCPSignIn(t.Context(), "", "remote"); err != nil {
		t.Fatal(err)
	}
	ended(t, again, loopback, "cancelled")
}

// listedSigningIn is the listed "remote" server's SigningIn.
func listedSigningIn(t *testing.T, core *hostcore.Core) bool {
	t.Helper()
	list, err := core.ListMCPServers(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		if s.ID == "remote" {
			return s.SigningIn
		}
	}
	t.Fatal("server remote is not listed")
	return false
}
