package provider

import (
	"net"
	"net/url"
	"strings"
)

// Price is what a model charges, per million tokens, in micro-dollars
// (USD 3.00 per million tokens is 3_000_000). Whole numbers, so a cost is
// exact and costs add up without drift.
type Price struct {
	Input      int64 `json:"input"`      // uncached prompt tokens
	Output     int64 `json:"output"`     // completion tokens, reasoning included
	CacheWrite int64 `json:"cacheWrite"` // prompt tokens written to the cache
	CacheRead  int64 `json:"cacheRead"`  // prompt tokens read from the cache
}

// Cost is an amount of money in pico-dollars (10⁻¹² USD): a token count
// times a price in micro-dollars per million tokens is exactly that.
type Cost int64

// PicoPerUSD is how many Cost units make one US dollar.
const PicoPerUSD = 1_000_000_000_000

// USD is the cost in dollars, for display only (sums stay in Cost).
func (c Cost) USD() float64 { return float64(c) / PicoPerUSD }

// Cost prices one usage. Usage.InputTokens is the whole prompt with its
// cache reads and writes included (see Usage), so the uncached part is
// what remains after both; a provider that over-reports its cache parts
// never makes it negative.
func (p Price) Cost(u Usage) Cost {
	uncached := max(int64(u.InputTokens)-int64(u.CacheReadTokens)-int64(u.CacheWriteTokens), 0)
	return Cost(uncached*p.Input + int64(u.CacheReadTokens)*p.CacheRead + int64(u.CacheWriteTokens)*p.CacheWrite +
		int64(u.OutputTokens)*p.Output)
}

// usdPerM turns dollars per million tokens, written as in a price list,
// into micro-dollars per million tokens.
func usdPerM(dollars, cents int64) int64 { return dollars*1_000_000 + cents*10_000 }

// claude is an Anthropic price: a cache write costs 1.25× the input
// price (the 5-minute cache), a cache read 0.1×.
func claude(input, output int64) Price {
	return Price{Input: input, Output: output, CacheWrite: input * 5 / 4, CacheRead: input / 10}
}

// openAI is an OpenAI price: cached input has its own price and writing
// the cache costs nothing beyond the ordinary input price.
func openAI(input, cached, output int64) Price {
	return Price{Input: input, Output: output, CacheWrite: input, CacheRead: cached}
}

// builtinPrices are the list prices of known models (USD per million
// tokens, December 2026), keyed by model id prefix; the longest prefix
// that ends at a '-' of the id (or is the whole id) wins, so dated ids
// (claude-sonnet-4-5-20250929, gpt-4o-2024-08-06) find their family.
// Long-context surcharges (Sonnet beyond 200k tokens) are not modelled.
// A function, not a package-level slice, so no caller can change it.
func builtinPrices() []pricedPrefix {
	return []pricedPrefix{
		// Anthropic Claude.
		{"claude-opus-4-5", claude(usdPerM(5, 0), usdPerM(25, 0))},
		{"claude-opus-4-1", claude(usdPerM(15, 0), usdPerM(75, 0))},
		{"claude-opus-4", claude(usdPerM(15, 0), usdPerM(75, 0))},
		{"claude-3-opus", claude(usdPerM(15, 0), usdPerM(75, 0))},
		{"claude-sonnet-4-5", claude(usdPerM(3, 0), usdPerM(15, 0))},
		{"claude-sonnet-4", claude(usdPerM(3, 0), usdPerM(15, 0))},
		{"claude-3-7-sonnet", claude(usdPerM(3, 0), usdPerM(15, 0))},
		{"claude-3-5-sonnet", claude(usdPerM(3, 0), usdPerM(15, 0))},
		{"claude-3-sonnet", claude(usdPerM(3, 0), usdPerM(15, 0))},
		{"claude-haiku-4-5", claude(usdPerM(1, 0), usdPerM(5, 0))},
		{"claude-3-5-haiku", claude(usdPerM(0, 80), usdPerM(4, 0))},
		{"claude-3-haiku", claude(usdPerM(0, 25), usdPerM(1, 25))},

		// OpenAI.
		{"gpt-4o", openAI(usdPerM(2, 50), usdPerM(1, 25), usdPerM(10, 0))},
		{"gpt-4o-2024-05-13", openAI(usdPerM(5, 0), usdPerM(5, 0), usdPerM(15, 0))}, // before caching and the price cut
		{"gpt-4o-mini", openAI(usdPerM(0, 15), 75_000, usdPerM(0, 60))},
		{"gpt-4.1", openAI(usdPerM(2, 0), usdPerM(0, 50), usdPerM(8, 0))},
		{"gpt-4.1-mini", openAI(usdPerM(0, 40), usdPerM(0, 10), usdPerM(1, 60))},
		{"gpt-4.1-nano", openAI(usdPerM(0, 10), 25_000, usdPerM(0, 40))},
		{"o1", openAI(usdPerM(15, 0), usdPerM(7, 50), usdPerM(60, 0))},
		{"o1-mini", openAI(usdPerM(1, 10), usdPerM(0, 55), usdPerM(4, 40))},
		{"o1-pro", openAI(usdPerM(150, 0), usdPerM(150, 0), usdPerM(600, 0))},
		{"o3", openAI(usdPerM(2, 0), usdPerM(0, 50), usdPerM(8, 0))},
		{"o3-mini", openAI(usdPerM(1, 10), usdPerM(0, 55), usdPerM(4, 40))},
		{"o3-pro", openAI(usdPerM(20, 0), usdPerM(20, 0), usdPerM(80, 0))},
		{"o4-mini", openAI(usdPerM(1, 10), 275_000, usdPerM(4, 40))},
		{"gpt-5", openAI(usdPerM(1, 25), 125_000, usdPerM(10, 0))},
		{"gpt-5-mini", openAI(usdPerM(0, 25), 25_000, usdPerM(2, 0))},
		{"gpt-5-nano", openAI(50_000, 5_000, usdPerM(0, 40))},
		{"gpt-5-pro", openAI(usdPerM(15, 0), usdPerM(15, 0), usdPerM(120, 0))},
		{"gpt-5.1", openAI(usdPerM(1, 25), 125_000, usdPerM(10, 0))},
		{"gpt-5.1-codex-mini", openAI(usdPerM(0, 25), 25_000, usdPerM(2, 0))},
	}
}

type pricedPrefix struct {
	prefix string
	price  Price
}

// BuiltinPrice is the list price of a model, by the longest known prefix
// of its id. ok is false for a model the table does not know and for any
// model served from this machine (Ollama, LM Studio, a local proxy): its
// cost is unknown, never a made-up zero.
func BuiltinPrice(baseURL, model string) (Price, bool) {
	if LocalBaseURL(baseURL) {
		return Price{}, false
	}
	m := strings.ToLower(strings.TrimSpace(model))
	table := builtinPrices()
	best := -1
	for i, e := range table {
		if !strings.HasPrefix(m, e.prefix) || (len(m) > len(e.prefix) && m[len(e.prefix)] != '-') {
			continue
		}
		if best < 0 || len(e.prefix) > len(table[best].prefix) {
			best = i
		}
	}
	if best < 0 {
		return Price{}, false
	}
	return table[best].price, true
}

// LocalBaseURL reports whether a base URL points at this machine
// (localhost, a loopback address): a model served there costs nothing we
// can know.
func LocalBaseURL(baseURL string) bool {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || u.Host == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}
