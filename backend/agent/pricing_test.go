package agent

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// withUsage is s answering with usage u.
func withUsage(s step, u provider.Usage) step {
	return func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
		resp, err := s(ctx, req, emit)
		resp.Usage = u
		return resp, err
	}
}

type storedCost struct {
	kind           string
	cost           sql.NullInt64
	profile, model string
}

func (f *fixture) storedCosts() []storedCost {
	f.t.Helper()
	rows, err := f.db.QueryContext(f.t.Context(), `SELECT kind, cost, cost_profile_id, cost_model FROM agent_messages WHERE role = 'assistant' ORDER BY seq`)
	if err != nil {
		f.t.Fatal(err)
	}
	defer rows.Close()
	var out []storedCost
	for rows.Next() {
		var c storedCost
		if err := rows.Scan(&c.kind, &c.cost, &c.profile, &c.model); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// Each response is priced when it is made, at the price in effect then,
// and stored with the provider and model that made it; a later price
// change prices later turns only.
func TestCostRecordedPerResponse(t *testing.T) {
	u1 := provider.Usage{InputTokens: 3600, CacheReadTokens: 3000, CacheWriteTokens: 500, OutputTokens: 40}
	u2 := provider.Usage{InputTokens: 3700, CacheReadTokens: 3500, CacheWriteTokens: 150, OutputTokens: 12}
	u3 := provider.Usage{InputTokens: 4000, CacheReadTokens: 3650, OutputTokens: 9}
	f := newFixture(t,
		withUsage(callTools(provider.StopToolUse, use{"tu1", "Read", `{"path":"a.go"}`}), u1),
		withUsage(say("Done."), u2),
		withUsage(say("Again."), u3))
	sonnet, _ := provider.BuiltinPrice("", "claude-sonnet-4-5")
	f.prov.info.Price, f.prov.info.ProfileID, f.prov.info.Model = &sonnet, "prof-a", "claude-sonnet-4-5"

	res, err := f.run("check a.go")
	if err != nil {
		t.Fatal(err)
	}
	c1, c2 := sonnet.Cost(u1), sonnet.Cost(u2)
	if res.Cost == nil || *res.Cost != c1+c2 {
		t.Fatalf("turn cost %v, want %d", res.Cost, c1+c2)
	}
	var evCosts []float64
	for _, p := range f.rec.named(EventMessage) {
		if e := p.(MessageEvent); e.Kind == KindModel && e.State != "streaming" {
			if e.CostUSD == nil {
				t.Fatalf("message event without a cost: %+v", e)
			}
			evCosts = append(evCosts, *e.CostUSD)
		}
	}
	if len(evCosts) != 2 || evCosts[0] != c1.USD() || evCosts[1] != c2.USD() {
		t.Errorf("message events' costs %v, want %v and %v", evCosts, c1.USD(), c2.USD())
	}

	// The price changes (an edit in Settings): the next turn uses it,
	// what was stored stays.
	dearer := provider.Price{Input: 2 * sonnet.Input, Output: 2 * sonnet.Output, CacheWrite: 2 * sonnet.CacheWrite, CacheRead: 2 * sonnet.CacheRead}
	f.prov.info.Price = &dearer
	if _, err := f.run("again"); err != nil {
		t.Fatal(err)
	}
	want := []storedCost{
		{KindModel, sql.NullInt64{Int64: int64(c1), Valid: true}, "prof-a", "claude-sonnet-4-5"},
		{KindModel, sql.NullInt64{Int64: int64(c2), Valid: true}, "prof-a", "claude-sonnet-4-5"},
		{KindModel, sql.NullInt64{Int64: int64(dearer.Cost(u3)), Valid: true}, "prof-a", "claude-sonnet-4-5"},
	}
	if got := f.storedCosts(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("stored %+v, want %+v", got, want)
	}
	// A reload shows the stored cost with each response.
	var loaded []float64
	for _, m := range f.load().Messages {
		if m.Kind == KindModel && m.CostUSD != nil {
			loaded = append(loaded, *m.CostUSD)
		}
	}
	if len(loaded) != 3 || loaded[0] != c1.USD() || loaded[2] != dearer.Cost(u3).USD() {
		t.Errorf("loaded costs %v", loaded)
	}

	su, err := f.a.SessionUsage(t.Context(), sid)
	if err != nil {
		t.Fatal(err)
	}
	total := c1 + c2 + dearer.Cost(u3)
	if su.CostUSD == nil || *su.CostUSD != total.USD() || su.Unpriced != 0 || su.Responses != 3 {
		t.Errorf("session usage %+v, want cost %v over 3 responses", su, total.USD())
	}
	if su.ContextTokens != u3.InputTokens || su.Usage != u1.Plus(u2).Plus(u3) {
		t.Errorf("context %d usage %+v", su.ContextTokens, su.Usage)
	}
}

// A model without a price leaves every cost unknown (NULL), never zero.
func TestUnknownCostStaysUnknown(t *testing.T) {
	f := newFixture(t, say("Hello there."))
	f.prov.info.ProfileID = "local"
	res, err := f.run("hi")
	if err != nil {
		t.Fatal(err)
	}
	if res.Cost != nil {
		t.Errorf("turn cost %v, want unknown", *res.Cost)
	}
	got := f.storedCosts()
	if len(got) != 1 || got[0].cost.Valid || got[0].profile != "local" || got[0].model != "fake-1" {
		t.Errorf("stored %+v", got)
	}
	su, err := f.a.SessionUsage(t.Context(), sid)
	if err != nil {
		t.Fatal(err)
	}
	if su.CostUSD != nil || su.Unpriced != 1 || su.ContextTokens != 10 {
		t.Errorf("session usage %+v", su)
	}
	for _, m := range f.load().Messages {
		if m.CostUSD != nil {
			t.Errorf("message %s has cost %v", m.ID, *m.CostUSD)
		}
	}
}

// Through a real wire: Anthropic's cache figures, normalised by the
// provider, are priced with the uncached rest at the input price.
func TestWireCostWithCache(t *testing.T) {
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Text: "ok", InputTokens: 100, CacheReadTokens: 3000, CacheWriteTokens: 500, OutputTokens: 7})
	cfg := srv.Config()
	price, _ := provider.BuiltinPrice("", "claude-sonnet-4-5")
	cfg.Price, cfg.ProfileID = &price, "prof-w"
	p, err := provider.New(cfg, provider.WithSleeper(providertest.NoSleep))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	f.a = New(f.db, f.host, func(string) (provider.Provider, error) { return p, nil }, f.rec.emit, nil)
	res, err := f.run("hi")
	if err != nil {
		t.Fatal(err)
	}
	// 100×3 + 3000×0.30 + 500×3.75 + 7×15 micro-dollars = 3180 µ$.
	if res.Cost == nil || *res.Cost != 3_180_000_000 {
		t.Errorf("cost %v, want 3180 µ$", res.Cost)
	}
}

// Spend per local day and provider: a response at 03:00 UTC belongs to
// the day before in New York; other providers and days are apart; the
// window's start leaves older days out; unknown costs are counted, not
// summed as zero.
func TestSpendPerLocalDayAndProvider(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.db.ExecContext(ctx, `INSERT INTO agent_turns (id, session_id, prompt, state, created_at, updated_at) VALUES ('t1', ?, 'p', 'done', 0, 0)`, sid); err != nil {
		t.Fatal(err)
	}
	at := func(s string) int64 {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMilli()
	}
	insert := func(id string, created int64, profile string, cost any, in, out int) {
		if _, err := f.db.ExecContext(ctx, `INSERT INTO agent_messages (id, session_id, turn_id, role, kind, input_tokens, output_tokens,
			created_at, updated_at, cost, cost_profile_id, cost_model) VALUES (?, ?, 't1', 'assistant', 'model', ?, ?, ?, ?, ?, ?, 'm')`,
			id, sid, in, out, created, created, cost, profile); err != nil {
			t.Fatal(err)
		}
	}
	insert("old", at("2026-04-01T12:00:00Z"), "a", 1_000_000, 10, 1)
	insert("m1", at("2026-05-04T03:00:00Z"), "a", 250_000_000_000, 100, 10) // May 3rd, 23:00 in New York
	insert("m2", at("2026-05-04T10:00:00Z"), "a", 500_000_000_000, 200, 20)
	insert("m3", at("2026-05-04T11:00:00Z"), "a", 125_000_000_000, 300, 30)
	insert("m4", at("2026-05-04T12:00:00Z"), "b", nil, 400, 40)
	insert("m5", at("2026-05-04T13:00:00Z"), "a", nil, 50, 5)
	insert("failed", at("2026-05-04T14:00:00Z"), "a", nil, 0, 0) // no usage, no cost: not a response that counts

	ny := time.FixedZone("EDT", -4*3600)
	got, err := f.a.Spend(ctx, time.Date(2026, 5, 1, 0, 0, 0, 0, ny), ny)
	if err != nil {
		t.Fatal(err)
	}
	usd := func(v float64) *float64 { return &v }
	want := []DaySpend{
		{Day: "2026-05-04", ProviderID: "a", Model: "m", CostUSD: usd(0.625), Unpriced: 1, Responses: 3, Usage: provider.Usage{InputTokens: 550, OutputTokens: 55}},
		{Day: "2026-05-04", ProviderID: "b", Model: "m", CostUSD: nil, Unpriced: 1, Responses: 1, Usage: provider.Usage{InputTokens: 400, OutputTokens: 40}},
		{Day: "2026-05-03", ProviderID: "a", Model: "m", CostUSD: usd(0.25), Responses: 1, Usage: provider.Usage{InputTokens: 100, OutputTokens: 10}},
	}
	if !jsonEqual(got, want) {
		t.Errorf("spend\n got %s\nwant %s", mustJSON(got), mustJSON(want))
	}
}
