package providers_test

import (
	"context"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// The prompt_cache_key choice is kept as the user made it (unset, on,
// off) and decides what a request to the saved server carries: unset
// sends the key to the openai API only, not to a compatible server.
func TestPromptCacheKeyIsSavedAndDecidesTheRequest(t *testing.T) {
	f := newFixture(t, nil)
	on, off := true, false
	for _, tt := range []struct {
		name, api string
		choice    *bool
		wantKey   bool
	}{
		{"openai unset", provider.APIOpenAI, nil, true},
		{"openai off", provider.APIOpenAI, &off, false},
		{"compatible unset", provider.APIOpenAICompatible, nil, false},
		{"compatible on", provider.APIOpenAICompatible, &on, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewOpenAIServer(t, providertest.Turn{Text: "ok"})
			saved := f.save(t, providers.Profile{Name: tt.name, API: tt.api, Model: "m", BaseURL: srv.URL + "/v1", PromptCacheKey: tt.choice}, "sk-test")
			got, err := f.svc.Get(t.Context(), saved.ID)
			if err != nil {
				t.Fatal(err)
			}
			if (got.PromptCacheKey == nil) != (tt.choice == nil) || (tt.choice != nil && *got.PromptCacheKey != *tt.choice) {
				t.Fatalf("PromptCacheKey = %v, want %v", got.PromptCacheKey, tt.choice)
			}
			cfg, err := f.svc.Config(t.Context(), got)
			if err != nil {
				t.Fatal(err)
			}
			p, err := provider.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			msgs := []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "hi"}}}}
			if _, err := p.Stream(context.Background(), provider.Request{Messages: msgs, CacheKey: "session-1"}, nil); err != nil {
				t.Fatal(err)
			}
			key, has := srv.Requests()[0].JSON()["prompt_cache_key"]
			if has != tt.wantKey || (has && key != "session-1") {
				t.Errorf("prompt_cache_key = %v (sent %v), want sent %v", key, has, tt.wantKey)
			}
		})
	}
}
