package hostcore_test

import (
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// A turn through a saved provider with its own prices: the session header
// and the spend table read the stored cost, the context meter the last
// request's tokens against the provider's window.
func TestSessionCostAndSpend(t *testing.T) {
	core, _ := providerHost(t, nil)
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Text: "Hi.", InputTokens: 100, CacheReadTokens: 3000, CacheWriteTokens: 500, OutputTokens: 7})
	in, out := 3.0, 15.0
	p, err := core.SaveProvider(t.Context(), providers.Profile{Name: "Local Claude", API: "anthropic", BaseURL: srv.URL, Model: "claude-sonnet-4-5",
		ContextWindow: 36_000, PriceOverrides: providers.PriceOverrides{Input: &in, Output: &out}}, providertest.Key)
	if err != nil {
		t.Fatal(err)
	}
	s := tempSession(t, core)

	before, err := core.SessionCost(t.Context(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if before.Usage.CostUSD != nil || before.Usage.ContextTokens != 0 || before.ContextWindow != 36_000 {
		t.Errorf("before any turn: %+v", before)
	}
	if _, err := core.RunTurn(t.Context(), s.ID, "hello"); err != nil {
		t.Fatal(err)
	}
	got, err := core.SessionCost(t.Context(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	// A local server has no built-in price, so the cache prices are the
	// input price: 3600 in × $3 + 7 out × $15 per million = 10,905 µ$.
	if got.Usage.CostUSD == nil || *got.Usage.CostUSD != 0.010905 || got.Usage.ContextTokens != 3600 || got.Usage.Responses != 1 {
		t.Errorf("after a turn: %+v (cost %v)", got, got.Usage.CostUSD)
	}
	days, err := core.SpendPerDay(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(days) != 1 || days[0].ProviderID != p.ID || days[0].ProviderName != "Local Claude" || days[0].CostUSD == nil || *days[0].CostUSD != 0.010905 {
		t.Errorf("spend %+v", days)
	}
	if _, err := core.SessionCost(t.Context(), "no-such-session"); !errs.Is(err, errs.NotFound) && errs.CodeOf(err) != errs.SessionNotFound {
		t.Errorf("unknown session: %v", err)
	}
}

// A profile that leaves its window to the model: the meter divides by the
// window known for the model, the one compaction uses.
func TestSessionCostWindowFollowsTheModel(t *testing.T) {
	core, _ := providerHost(t, nil)
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Text: "Hi."})
	p, err := core.SaveProvider(t.Context(), providers.Profile{Name: "Claude", API: "anthropic", BaseURL: srv.URL, Model: "claude-sonnet-4-5"}, providertest.Key)
	if err != nil {
		t.Fatal(err)
	}
	s := tempSession(t, core)
	got, err := core.SessionCost(t.Context(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.ContextWindow != 0 || p.EffectiveContextWindow == 0 || got.ContextWindow != p.EffectiveContextWindow {
		t.Errorf("window = %d, want the model's %d (profile's own %d)", got.ContextWindow, p.EffectiveContextWindow, p.ContextWindow)
	}
}
