package providers_test

import (
	"math"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

func ptr(v float64) *float64 { return &v }

// Overrides replace the table's price field by field, survive a reload
// exactly, and reach the config a turn is priced with.
func TestPriceOverrides(t *testing.T) {
	sonnet, _ := provider.BuiltinPrice("", "claude-sonnet-4-5")
	tests := []struct {
		name      string
		in        providers.Profile
		builtin   bool
		want      *provider.Price
		wantShown *providers.ModelPrice
	}{
		{"built-in price", providers.Profile{API: "anthropic", Model: "claude-sonnet-4-5"}, true, &sonnet,
			&providers.ModelPrice{Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.3}},
		{"one field overridden", providers.Profile{API: "anthropic", Model: "claude-sonnet-4-5",
			PriceOverrides: providers.PriceOverrides{CacheRead: ptr(0.075)}}, true,
			&provider.Price{Input: sonnet.Input, Output: sonnet.Output, CacheWrite: sonnet.CacheWrite, CacheRead: 75_000},
			&providers.ModelPrice{Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.075}},
		{"local server: unknown", providers.Profile{API: "openai-compatible", BaseURL: "http://localhost:11434/v1", Model: "llama3.1:8b"}, false, nil, nil},
		{"local server with only an input price: still unknown", providers.Profile{API: "openai-compatible", BaseURL: "http://localhost:11434/v1", Model: "gpt-4o",
			PriceOverrides: providers.PriceOverrides{Input: ptr(1)}}, false, nil, nil},
		// The user prices a model the table lacks: its cache prices fall back to input.
		{"unknown model priced by the user", providers.Profile{API: "openai-compatible", BaseURL: "http://127.0.0.1:1234/v1", Model: "qwen3",
			PriceOverrides: providers.PriceOverrides{Input: ptr(0.2), Output: ptr(0.6)}}, false,
			&provider.Price{Input: 200_000, Output: 600_000, CacheWrite: 200_000, CacheRead: 200_000},
			&providers.ModelPrice{Input: 0.2, Output: 0.6, CacheWrite: 0.2, CacheRead: 0.2}},
		{"free on purpose", providers.Profile{API: "openai-compatible", BaseURL: "http://localhost:8000/v1", Model: "mine",
			PriceOverrides: providers.PriceOverrides{Input: ptr(0), Output: ptr(0), CacheWrite: ptr(0), CacheRead: ptr(0)}}, false,
			&provider.Price{}, &providers.ModelPrice{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			saved := f.save(t, tc.in, "sk-x")
			got, err := f.svc.Get(t.Context(), saved.ID)
			if err != nil {
				t.Fatal(err)
			}
			if (got.BuiltinPrice != nil) != tc.builtin {
				t.Errorf("builtin %+v, want known=%v", got.BuiltinPrice, tc.builtin)
			}
			if !samePrice(got.Price, tc.wantShown) {
				t.Errorf("shown price %+v, want %+v", got.Price, tc.wantShown)
			}
			if eff := got.EffectivePrice(); !sameInts(eff, tc.want) {
				t.Errorf("effective %+v, want %+v", eff, tc.want)
			}
			cfg := got.Config()
			if !sameInts(cfg.Price, tc.want) || cfg.ProfileID != saved.ID {
				t.Errorf("config price %+v profile %q; want %+v, %q", cfg.Price, cfg.ProfileID, tc.want, saved.ID)
			}
			if !sameOverrides(got.PriceOverrides, tc.in.PriceOverrides) {
				t.Errorf("overrides %+v, want %+v", got.PriceOverrides, tc.in.PriceOverrides)
			}
		})
	}
}

// Clearing an override on update goes back to the table's price.
func TestPriceOverrideCleared(t *testing.T) {
	f := newFixture(t, nil)
	p := f.save(t, providers.Profile{API: "openai", Model: "gpt-5", PriceOverrides: providers.PriceOverrides{Output: ptr(12.5)}}, "sk-x")
	if p.Price == nil || p.Price.Output != 12.5 {
		t.Fatalf("price %+v", p.Price)
	}
	p.PriceOverrides = providers.PriceOverrides{}
	p = f.save(t, p, "")
	if p.Price == nil || p.Price.Output != 10 || p.PriceOverrides.Output != nil {
		t.Errorf("after clearing: price %+v overrides %+v", p.Price, p.PriceOverrides)
	}
}

func TestPriceOverrideRefused(t *testing.T) {
	for name, o := range map[string]providers.PriceOverrides{
		"negative":  {Input: ptr(-1)},
		"NaN":       {Output: ptr(math.NaN())},
		"too large": {CacheRead: ptr(10_001)},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, nil)
			_, err := f.svc.Save(t.Context(), providers.Profile{API: "openai", Model: "gpt-5", PriceOverrides: o}, "sk-x")
			if !errs.Is(err, errs.InvalidArgument) {
				t.Fatalf("err = %v, want INVALID_ARGUMENT", err)
			}
			if list, _ := f.svc.List(t.Context()); len(list) != 0 {
				t.Errorf("a refused provider was saved: %+v", list)
			}
		})
	}
}

func samePrice(a, b *providers.ModelPrice) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameInts(a, b *provider.Price) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameOverrides(a, b providers.PriceOverrides) bool {
	eq := func(x, y *float64) bool { return (x == nil && y == nil) || (x != nil && y != nil && *x == *y) }
	return eq(a.Input, b.Input) && eq(a.Output, b.Output) && eq(a.CacheWrite, b.CacheWrite) && eq(a.CacheRead, b.CacheRead)
}
