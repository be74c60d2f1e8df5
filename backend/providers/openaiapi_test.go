package providers_test

import (
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// The OpenAI API choice is saved as made (normalized) and decides which
// endpoint a turn of the saved provider calls: each fake server serves
// only its own API's path and fails the test on any other.
func TestOpenAIAPIIsSavedAndDecidesTheEndpoint(t *testing.T) {
	f := newFixture(t, nil)
	for _, tt := range []struct {
		name, api, choice, saved, want string
	}{
		{"openai default on another base URL", provider.APIOpenAI, "", "", provider.OpenAIChat},
		{"openai responses", provider.APIOpenAI, "responses", "responses", provider.OpenAIResponses},
		{"openai chat, spelled loosely", provider.APIOpenAI, " Chat ", "chat", provider.OpenAIChat},
		{"compatible default", provider.APIOpenAICompatible, "", "", provider.OpenAIChat},
		{"compatible responses", provider.APIOpenAICompatible, "responses", "responses", provider.OpenAIResponses},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewOpenAIServer(t, providertest.Turn{Text: "ok"})
			if tt.want == provider.OpenAIResponses {
				srv = providertest.NewResponsesServer(t, providertest.Turn{Text: "ok"})
			}
			saved := f.save(t, providers.Profile{Name: tt.name, API: tt.api, Model: "m", BaseURL: srv.URL + "/v1", OpenAIAPI: tt.choice}, "sk-test")
			got, err := f.svc.Get(t.Context(), saved.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.OpenAIAPI != tt.saved {
				t.Fatalf("OpenAIAPI = %q, want %q", got.OpenAIAPI, tt.saved)
			}
			cfg, err := f.svc.Config(t.Context(), got)
			if err != nil {
				t.Fatal(err)
			}
			if w := provider.OpenAIWireAPI(cfg); w != tt.want {
				t.Fatalf("OpenAIWireAPI = %q, want %q", w, tt.want)
			}
			p, err := provider.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			msgs := []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "hi"}}}}
			if _, err := p.Stream(t.Context(), provider.Request{Messages: msgs}, nil); err != nil {
				t.Fatal(err)
			}
			if srv.Count() != 1 {
				t.Errorf("%d requests reached the %s server", srv.Count(), tt.want)
			}
		})
	}
}

func TestOpenAIAPIValidation(t *testing.T) {
	f := newFixture(t, nil)
	_, err := f.svc.Save(t.Context(), providers.Profile{Name: "x", API: provider.APIOpenAICompatible, Model: "m", BaseURL: "http://localhost:11434/v1", OpenAIAPI: "soap"}, "")
	if e := errs.As(err); e == nil || e.Code != errs.InvalidArgument || e.Details["field"] != "openaiApi" {
		t.Fatalf("Save with openaiApi soap = %v, want INVALID_ARGUMENT on openaiApi", err)
	}
	// Anthropic has no such choice: whatever came is dropped.
	p := f.save(t, providers.Profile{Name: "c", API: provider.APIAnthropic, Model: "claude-sonnet-4-5", OpenAIAPI: "responses"}, "sk-ant")
	if p.OpenAIAPI != "" {
		t.Errorf("anthropic saved OpenAIAPI %q", p.OpenAIAPI)
	}
	// An edit back to the default clears the choice.
	q := f.save(t, providers.Profile{Name: "o", API: provider.APIOpenAI, Model: "gpt-5", OpenAIAPI: "chat"}, "sk-o")
	q.OpenAIAPI = ""
	if q = f.save(t, q, ""); q.OpenAIAPI != "" {
		t.Errorf("edited OpenAIAPI = %q, want the default", q.OpenAIAPI)
	}
}

// Every profile read carries the limits its turns run with.
func TestProfileCarriesItsEffectiveLimits(t *testing.T) {
	f := newFixture(t, nil)
	for _, tt := range []struct {
		name        string
		in          providers.Profile
		window, out int
		known       bool
	}{
		{"known model, nothing set", providers.Profile{API: provider.APIAnthropic, Model: "claude-sonnet-4-5-20250929"}, 200_000, 32_000, true},
		{"known model, window set", providers.Profile{API: provider.APIOpenAI, Model: "gpt-4o", ContextWindow: 64_000}, 64_000, 16_384, true},
		{"unknown model", providers.Profile{API: provider.APIOpenAICompatible, Model: "llama3.1:8b", BaseURL: "http://localhost:11434/v1"}, 32_768, 0, false},
		{"unknown model, both set", providers.Profile{API: provider.APIOpenAICompatible, Model: "qwen3:32b", BaseURL: "http://localhost:11434/v1", ContextWindow: 40_960, MaxOutputTokens: 8_192}, 40_960, 8_192, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Name = tt.name
			saved := f.save(t, tt.in, "sk-test")
			list, err := f.svc.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range append(list, saved) {
				if p.ID != saved.ID {
					continue
				}
				if p.EffectiveContextWindow != tt.window || p.EffectiveMaxOutput != tt.out || p.LimitsKnown != tt.known {
					t.Errorf("limits = %d / %d / known %v, want %d / %d / %v", p.EffectiveContextWindow, p.EffectiveMaxOutput, p.LimitsKnown, tt.window, tt.out, tt.known)
				}
				if p.ContextWindow != tt.in.ContextWindow || p.MaxOutputTokens != tt.in.MaxOutputTokens {
					t.Errorf("the saved values changed: %d / %d", p.ContextWindow, p.MaxOutputTokens)
				}
			}
		})
	}
}
