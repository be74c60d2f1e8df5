package providers

import (
	"database/sql"
	"math"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// PriceOverrides are a provider's own prices in USD per million tokens;
// a nil field keeps the built-in table's price.
type PriceOverrides struct {
	Input      *float64 `json:"input,omitempty"`
	Output     *float64 `json:"output,omitempty"`
	CacheWrite *float64 `json:"cacheWrite,omitempty"`
	CacheRead  *float64 `json:"cacheRead,omitempty"`
}

// ModelPrice is a price in USD per million tokens, for display.
type ModelPrice struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheWrite float64 `json:"cacheWrite"`
	CacheRead  float64 `json:"cacheRead"`
}

// maxPricePerM bounds an override: no model costs more than this per
// million tokens, and it keeps a turn's cost far from int64's range.
const maxPricePerM = 10_000.0

const microPerUSD = 1_000_000

func (o PriceOverrides) fields() [4]*float64 {
	return [4]*float64{o.Input, o.Output, o.CacheWrite, o.CacheRead}
}

// check refuses a price that is not a number of dollars in range.
func (o PriceOverrides) check() error {
	names := [4]string{"priceOverrides.input", "priceOverrides.output", "priceOverrides.cacheWrite", "priceOverrides.cacheRead"}
	for i, v := range o.fields() {
		if v != nil && (math.IsNaN(*v) || *v < 0 || *v > maxPricePerM) {
			return errs.New(errs.InvalidArgument, "a price is in US dollars per million tokens, from 0 to %g; leave it empty for the built-in price",
				maxPricePerM).With("field", names[i])
		}
	}
	return nil
}

// columns are the overrides as stored: micro-dollars per million tokens,
// NULL where the built-in price applies.
func (o PriceOverrides) columns() [4]any {
	var out [4]any
	for i, v := range o.fields() {
		if v != nil {
			out[i] = int64(math.Round(*v * microPerUSD))
		}
	}
	return out
}

func overridesFromColumns(c [4]sql.NullInt64) PriceOverrides {
	usd := func(n sql.NullInt64) *float64 {
		if !n.Valid {
			return nil
		}
		v := float64(n.Int64) / microPerUSD
		return &v
	}
	return PriceOverrides{Input: usd(c[0]), Output: usd(c[1]), CacheWrite: usd(c[2]), CacheRead: usd(c[3])}
}

// EffectivePrice is what this provider's usage costs: each override over
// the built-in price of the model. nil when the input or output price is
// unknown (a server on this machine, a model the table lacks, without
// both overrides): the cost is then unknown, never zero. A cache price
// neither set nor known is the input price (no discount assumed).
func (p Profile) EffectivePrice() *provider.Price {
	builtin, known := provider.BuiltinPrice(p.BaseURL, p.Model)
	var out [4]int64
	var set [4]bool
	table := [4]int64{builtin.Input, builtin.Output, builtin.CacheWrite, builtin.CacheRead}
	for i, c := range p.PriceOverrides.columns() {
		switch {
		case c != nil:
			out[i], set[i] = c.(int64), true
		case known:
			out[i], set[i] = table[i], true
		}
	}
	if !set[0] || !set[1] {
		return nil
	}
	for i := 2; i < 4; i++ {
		if !set[i] {
			out[i] = out[0]
		}
	}
	return &provider.Price{Input: out[0], Output: out[1], CacheWrite: out[2], CacheRead: out[3]}
}

// prices are the built-in and the effective price, for display.
func (p Profile) prices() (builtin, effective *ModelPrice) {
	if b, ok := provider.BuiltinPrice(p.BaseURL, p.Model); ok {
		builtin = displayPrice(b)
	}
	if e := p.EffectivePrice(); e != nil {
		effective = displayPrice(*e)
	}
	return builtin, effective
}

func displayPrice(p provider.Price) *ModelPrice {
	usd := func(micro int64) float64 { return float64(micro) / microPerUSD }
	return &ModelPrice{Input: usd(p.Input), Output: usd(p.Output), CacheWrite: usd(p.CacheWrite), CacheRead: usd(p.CacheRead)}
}
