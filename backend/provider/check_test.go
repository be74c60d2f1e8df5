package provider_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

func TestCheckSucceedsWithOneMinimalRequest(t *testing.T) {
	for _, tc := range []struct {
		name string
		srv  func(t testing.TB, turns ...providertest.Turn) *providertest.Server
		api  string
	}{
		{"anthropic", providertest.NewAnthropicServer, provider.APIAnthropic},
		{"openai", providertest.NewOpenAIServer, provider.APIOpenAI},
		{"openai-compatible", providertest.NewOpenAIServer, provider.APIOpenAICompatible},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.srv(t, providertest.Turn{Text: "pong and a lot more words the test does not wait for"})
			cfg := srv.Config()
			cfg.API = tc.api
			cfg.Thinking = true // turned off for the test request
			temp := 0.3
			cfg.Temperature = &temp
			if err := provider.Check(t.Context(), cfg, 5*time.Second); err != nil {
				t.Fatalf("Check = %v", err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			body := reqs[0].JSON()
			if body["model"] != providertest.Model || body["stream"] != true {
				t.Errorf("request body %s", reqs[0].Body)
			}
			if _, ok := body["thinking"]; ok {
				t.Errorf("a connection test asked for thinking: %s", reqs[0].Body)
			}
			if _, ok := body["temperature"]; ok {
				t.Errorf("a connection test sent a temperature: %s", reqs[0].Body)
			}
			limit := body["max_tokens"]
			if tc.api == provider.APIOpenAI {
				limit = body["max_completion_tokens"]
			}
			if limit != float64(16) {
				t.Errorf("output limit %v, want 16", limit)
			}
			if strings.Contains(string(reqs[0].Body), providertest.Key) {
				t.Error("the key is in the request body")
			}
		})
	}
}

func TestCheckAcceptsAnEmptyAnswer(t *testing.T) {
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Stop: "max_tokens"})
	if err := provider.Check(t.Context(), srv.Config(), 5*time.Second); err != nil {
		t.Errorf("an empty but well-formed answer = %v", err)
	}
}

func TestCheckMapsFailuresToStableCodes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		openai   bool
		turn     providertest.Turn
		code     errs.Code
		contains string
	}{
		{"anthropic key rejected", false, providertest.Turn{Status: 401}, errs.ProviderUnauthorized, "rejected the API key"},
		{"openai key rejected", true, providertest.Turn{Status: 401}, errs.ProviderUnauthorized, "rejected the API key"},
		{"forbidden", false, providertest.Turn{Status: 403}, errs.ProviderUnauthorized, "HTTP 403"},
		{"unknown model", true, providertest.Turn{Status: 404, ErrorMessage: "The model `nope` does not exist"}, errs.ProviderError, "404"},
		{"server error, no retry", false, providertest.Turn{Status: 500}, errs.ProviderError, "HTTP 500"},
		{"rate limited, no retry", true, providertest.Turn{Status: 429, Header: map[string]string{"retry-after": "1"}}, errs.ProviderRateLimited, "rate limiting"},
		{"stream broke", false, providertest.Turn{StreamError: "overloaded"}, errs.StreamFailed, "overloaded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var srv *providertest.Server
			if tc.openai {
				srv = providertest.NewOpenAIServer(t, tc.turn)
			} else {
				srv = providertest.NewAnthropicServer(t, tc.turn)
			}
			err := provider.Check(t.Context(), srv.Config(), 5*time.Second)
			if !errs.Is(err, tc.code) {
				t.Fatalf("Check = %v, want %s", err, tc.code)
			}
			msg := errs.ToPayload(err).Message
			if !strings.Contains(msg, tc.contains) || strings.Contains(msg, providertest.Key) {
				t.Errorf("message %q", msg)
			}
			if n := srv.Count(); n != 1 {
				t.Errorf("%d requests: a connection test never retries", n)
			}
		})
	}
}

func TestCheckTimesOut(t *testing.T) {
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Hang: true})
	start := time.Now()
	err := provider.Check(t.Context(), srv.Config(), 200*time.Millisecond)
	if !errs.Is(err, errs.ProviderError) || errs.As(err).Details["timeout"] != true {
		t.Fatalf("Check = %v, want PROVIDER_ERROR with details.timeout", err)
	}
	if !strings.Contains(errs.ToPayload(err).Message, "did not answer within 200ms") {
		t.Errorf("message %q", errs.ToPayload(err).Message)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestCheckUnreachableServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	cfg := provider.Config{API: provider.APIOpenAICompatible, BaseURL: "http://" + addr + "/v1", Model: "m"}
	err = provider.Check(t.Context(), cfg, 5*time.Second)
	if !errs.Is(err, errs.ProviderError) || !strings.Contains(errs.ToPayload(err).Message, "Could not reach") {
		t.Errorf("Check = %v", err)
	}
}

func TestCheckNeedsAConfiguredModel(t *testing.T) {
	srv := providertest.NewAnthropicServer(t)
	cfg := srv.Config()
	cfg.APIKey = ""
	if err := provider.Check(t.Context(), cfg, time.Second); !errs.Is(err, errs.ModelNotConfigured) {
		t.Errorf("Check without a key = %v", err)
	}
	if srv.Count() != 0 {
		t.Error("a request was sent without a key")
	}
}
