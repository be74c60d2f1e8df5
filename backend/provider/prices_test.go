package provider_test

import (
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// usd is dollars per million tokens in the table's unit (micro-dollars
// per million tokens), written out so each want below is checkable by hand.
func usd(perMillion float64) int64 { return int64(perMillion*1_000_000 + 0.5) }

func TestBuiltinPriceByLongestPrefix(t *testing.T) {
	tests := []struct {
		baseURL, model string
		want           provider.Price
		ok             bool
	}{
		// Dated ids find their family; the longer family wins.
		{"", "claude-sonnet-4-5-20250929", provider.Price{Input: usd(3), Output: usd(15), CacheWrite: usd(3.75), CacheRead: usd(0.30)}, true},
		{"", "claude-opus-4-5-20251101", provider.Price{Input: usd(5), Output: usd(25), CacheWrite: usd(6.25), CacheRead: usd(0.50)}, true},
		{"", "claude-opus-4-20250514", provider.Price{Input: usd(15), Output: usd(75), CacheWrite: usd(18.75), CacheRead: usd(1.50)}, true},
		{"", "claude-opus-4-1", provider.Price{Input: usd(15), Output: usd(75), CacheWrite: usd(18.75), CacheRead: usd(1.50)}, true},
		{"", "claude-haiku-4-5", provider.Price{Input: usd(1), Output: usd(5), CacheWrite: usd(1.25), CacheRead: usd(0.10)}, true},
		{"", "claude-3-5-haiku-latest", provider.Price{Input: usd(0.80), Output: usd(4), CacheWrite: usd(1), CacheRead: usd(0.08)}, true},
		{"", "claude-3-haiku-20240307", provider.Price{Input: usd(0.25), Output: usd(1.25), CacheWrite: usd(0.3125), CacheRead: usd(0.025)}, true},
		{"https://api.anthropic.com", "Claude-3-7-Sonnet-Latest", provider.Price{Input: usd(3), Output: usd(15), CacheWrite: usd(3.75), CacheRead: usd(0.30)}, true},
		// OpenAI: the cache read has its own price, the write none beyond input.
		{"", "gpt-4o-2024-08-06", provider.Price{Input: usd(2.50), Output: usd(10), CacheWrite: usd(2.50), CacheRead: usd(1.25)}, true},
		{"", "gpt-4o-2024-05-13", provider.Price{Input: usd(5), Output: usd(15), CacheWrite: usd(5), CacheRead: usd(5)}, true},
		{"", "gpt-4o-mini", provider.Price{Input: usd(0.15), Output: usd(0.60), CacheWrite: usd(0.15), CacheRead: usd(0.075)}, true},
		{"", "gpt-4.1-nano-2025-04-14", provider.Price{Input: usd(0.10), Output: usd(0.40), CacheWrite: usd(0.10), CacheRead: usd(0.025)}, true},
		{"", "o3-mini", provider.Price{Input: usd(1.10), Output: usd(4.40), CacheWrite: usd(1.10), CacheRead: usd(0.55)}, true},
		{"", "o4-mini-2025-04-16", provider.Price{Input: usd(1.10), Output: usd(4.40), CacheWrite: usd(1.10), CacheRead: usd(0.275)}, true},
		{"https://api.openai.com/v1", "gpt-5", provider.Price{Input: usd(1.25), Output: usd(10), CacheWrite: usd(1.25), CacheRead: usd(0.125)}, true},
		{"", "gpt-5-codex", provider.Price{Input: usd(1.25), Output: usd(10), CacheWrite: usd(1.25), CacheRead: usd(0.125)}, true},
		{"", "gpt-5-nano", provider.Price{Input: usd(0.05), Output: usd(0.40), CacheWrite: usd(0.05), CacheRead: usd(0.005)}, true},
		// A prefix must end at a '-' of the id: o1 is not o1x, gpt-5 not gpt-50.
		{"", "o1x", provider.Price{}, false},
		{"", "gpt-50", provider.Price{}, false},
		{"", "gpt-4", provider.Price{}, false},
		{"", "llama3.1:8b", provider.Price{}, false},
		{"", "", provider.Price{}, false},
		// Served from this machine: no price, whatever the name.
		{"http://localhost:11434/v1", "gpt-4o", provider.Price{}, false},
		{"http://127.0.0.1:1234/v1", "claude-sonnet-4-5", provider.Price{}, false},
		{"http://[::1]:8080/v1", "gpt-5", provider.Price{}, false},
		{"http://api.localhost/v1", "gpt-5", provider.Price{}, false},
	}
	for _, tc := range tests {
		got, ok := provider.BuiltinPrice(tc.baseURL, tc.model)
		if ok != tc.ok || got != tc.want {
			t.Errorf("BuiltinPrice(%q, %q) = %+v, %v; want %+v, %v", tc.baseURL, tc.model, got, ok, tc.want, tc.ok)
		}
	}
}

func TestLocalBaseURL(t *testing.T) {
	for url, want := range map[string]bool{
		"http://localhost:11434/v1": true,
		"http://LOCALHOST:1234":     true,
		"http://127.0.0.1:1234/v1":  true,
		"http://127.1.2.3/v1":       true,
		"http://[::1]:8080":         true,
		"http://0.0.0.0:8000/v1":    true,
		"https://api.openai.com/v1": false,
		"http://192.168.1.20:11434": false,
		"http://localhost.evil.com": false,
		"":                          false,
		"not a url":                 false,
	} {
		if got := provider.LocalBaseURL(url); got != want {
			t.Errorf("LocalBaseURL(%q) = %v, want %v", url, got, want)
		}
	}
}

func TestPriceCostArithmetic(t *testing.T) {
	sonnet := provider.Price{Input: usd(3), Output: usd(15), CacheWrite: usd(3.75), CacheRead: usd(0.30)}
	gpt5 := provider.Price{Input: usd(1.25), Output: usd(10), CacheWrite: usd(1.25), CacheRead: usd(0.125)}
	tests := []struct {
		name  string
		price provider.Price
		usage provider.Usage
		want  provider.Cost // pico-dollars
	}{
		{"nothing", sonnet, provider.Usage{}, 0},
		// 1M uncached input at $3 and 1M output at $15.
		{"whole millions", sonnet, provider.Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000}, 18 * provider.PicoPerUSD},
		// InputTokens 3600 includes 3000 read and 500 written: 100 uncached.
		// 100×3 + 3000×0.30 + 500×3.75 + 7×15 = 300 + 900 + 1875 + 105 µ$ = 3180 µ$.
		{"anthropic read and write", sonnet, provider.Usage{InputTokens: 3600, CacheReadTokens: 3000, CacheWriteTokens: 500, OutputTokens: 7}, 3_180_000_000},
		// OpenAI: 3600 prompt tokens of which 3000 cached, no writes.
		// 600×1.25 + 3000×0.125 + 7×10 = 750 + 375 + 70 µ$ = 1195 µ$.
		{"openai cached", gpt5, provider.Usage{InputTokens: 3600, CacheReadTokens: 3000, OutputTokens: 7}, 1_195_000_000},
		// One token at $0.005 per million is 5 pico-dollars: exact, not rounded away.
		{"one cheap token", provider.Price{CacheRead: usd(0.005)}, provider.Usage{InputTokens: 1, CacheReadTokens: 1}, 5_000},
		// A provider that over-reports its cache parts never earns money back.
		{"cache parts above input", sonnet, provider.Usage{InputTokens: 10, CacheReadTokens: 20}, 20 * 300_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.price.Cost(tc.usage); got != tc.want {
				t.Errorf("Cost(%+v) = %d, want %d", tc.usage, got, tc.want)
			}
		})
	}
}

// Costs add exactly: the cost of a turn's summed usage is the sum of its
// calls' costs, to the pico-dollar, however many calls.
func TestPriceCostIsAdditive(t *testing.T) {
	p, _ := provider.BuiltinPrice("", "claude-3-haiku")
	var sum provider.Usage
	var costs provider.Cost
	for i := range 1000 {
		u := provider.Usage{InputTokens: 5000 + i, CacheReadTokens: 4000, CacheWriteTokens: i % 7, OutputTokens: 13 + i%11}
		sum = sum.Plus(u)
		costs += p.Cost(u)
	}
	if got := p.Cost(sum); got != costs {
		t.Errorf("Cost(sum) = %d, sum of costs = %d", got, costs)
	}
	if got, want := provider.Cost(1_234_567_000_000).USD(), 1.234567; got != want {
		t.Errorf("USD = %v, want %v", got, want)
	}
}

// Each wire's usage, as the provider reports it, priced: the cache
// semantics of Anthropic (input_tokens is only the uncached rest) and of
// both OpenAI APIs (prompt tokens include the cached ones) end in the
// same cost for the same split of the prompt.
func TestCostOfEachWiresUsage(t *testing.T) {
	price := provider.Price{Input: usd(2), Output: usd(8), CacheWrite: usd(2.50), CacheRead: usd(0.20)}
	tests := []struct {
		name string
		srv  func(t testing.TB, turns ...providertest.Turn) *providertest.Server
		turn providertest.Turn
		want provider.Cost
	}{
		// 100 uncached×2 + 3000 read×0.20 + 500 written×2.50 + 7 out×8 = 200+600+1250+56 µ$.
		{"anthropic", providertest.NewAnthropicServer,
			providertest.Turn{Text: "ok", InputTokens: 100, CacheReadTokens: 3000, CacheWriteTokens: 500, OutputTokens: 7}, 2_106_000_000},
		// 3600 prompt tokens with 3000 cached: 600×2 + 3000×0.20 + 7×8 = 1200+600+56 µ$.
		{"openai chat", providertest.NewOpenAIServer,
			providertest.Turn{Text: "ok", InputTokens: 3600, CacheReadTokens: 3000, OutputTokens: 7}, 1_856_000_000},
		{"openai responses", providertest.NewResponsesServer,
			providertest.Turn{Text: "ok", InputTokens: 3600, CacheReadTokens: 3000, OutputTokens: 7}, 1_856_000_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.srv(t, tc.turn)
			r := stream(t, newProvider(t, srv.Config()), provider.Request{Messages: userSays("hi")})
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := price.Cost(r.resp.Usage); got != tc.want {
				t.Errorf("cost of %+v = %d, want %d", r.resp.Usage, got, tc.want)
			}
		})
	}
}

// A model configured from the environment is priced from the table, and
// the provider's Info carries the price its responses are costed at.
func TestEnvConfigIsPriced(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cfg, _ := provider.ConfigFromEnv(env(map[string]string{"PI_DESKTOP_PROVIDER": "anthropic", "PI_DESKTOP_MODEL": "claude-sonnet-4-5", "ANTHROPIC_API_KEY": "k"}))
	want, _ := provider.BuiltinPrice("", "claude-sonnet-4-5")
	if cfg.Price == nil || *cfg.Price != want {
		t.Fatalf("price %+v, want %+v", cfg.Price, want)
	}
	if info := newProvider(t, cfg).Info(); info.Price == nil || *info.Price != want || info.ProfileID != "" {
		t.Errorf("Info %+v", info)
	}
	cfg, _ = provider.ConfigFromEnv(env(map[string]string{"PI_DESKTOP_PROVIDER": "openai-compatible", "PI_DESKTOP_MODEL": "gpt-4o",
		"PI_DESKTOP_BASE_URL": "http://localhost:1234/v1"}))
	if cfg.Price != nil {
		t.Errorf("a local server's model is priced: %+v", cfg.Price)
	}
}
