package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// What a failed renewal means depends on who failed: a refused refresh
// token asks for a sign-in, an authorization server that is down does not.
func TestSignInRenewal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   string
		code   errs.Code // "" = renewed
	}{
		{"renewed", 200, `{"access_token":"new","token_type":"Bearer","expires_in":3600,"refresh_token":"r2"}`, ""},
		{"refresh token revoked", 400, `{"error":"invalid_grant"}`, errs.MCPAuthRequired},
		{"authorization server down", 503, `busy`, errs.MCPServerUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				time.Sleep(20 * time.Millisecond) // long enough for every caller to queue
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			}))
			defer as.Close()
			store := &memTokens{}
			tokens := &savedSignIn{serverID: "srv", key: "k", store: store, client: http.DefaultClient, now: time.Now,
				blob: signInBlob{Version: signInVersion, ClientID: "c", TokenURL: as.URL,
					Token: &oauth2.Token{AccessToken: "old", RefreshToken: "r1", Expiry: time.Now().Add(30 * time.Second)}}}

			// Concurrent requests share one renewal.
			var wg sync.WaitGroup
			toks := make([]*oauth2.Token, 8)
			errsOut := make([]error, 8)
			for i := range toks {
				wg.Go(func() { toks[i], errsOut[i] = tokens.token(context.Background()) })
			}
			wg.Wait()
			if tt.code == "" {
				for i := range toks {
					if errsOut[i] != nil || toks[i].AccessToken != "new" {
						t.Fatalf("token %d = %v, %v; want the renewed one", i, toks[i], errsOut[i])
					}
				}
				if b := store.blob(t, "k"); b.Token.RefreshToken != "r2" {
					t.Errorf("saved refresh token %q, want the rotated r2", b.Token.RefreshToken)
				}
			} else if got := errs.CodeOf(errsOut[0]); got != tt.code {
				t.Fatalf("code = %s (%v), want %s", got, errsOut[0], tt.code)
			}
			if tt.code == "" && calls.Load() != 1 {
				t.Errorf("%d renewals for 8 concurrent requests, want 1", calls.Load())
			}
		})
	}
}
