package hostcore

import (
	"context"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// SessionCost is what the session header shows: the session's cost so
// far and how full its context was at its last request.
type SessionCost struct {
	// Usage is the session's sums (see agent.SessionUsage).
	Usage agent.SessionUsage `json:"usage"`
	// ContextWindow is the session's model's window in tokens (0 =
	// unknown: the header shows the tokens without a share).
	ContextWindow int `json:"contextWindow"`
}

// spendDays is how far back Settings' spend table reaches.
const spendDays = 30

// contextWindowOf is the window the context meter divides by: the
// profile's own, else the one known for its model (provider.LimitsFor),
// the same window compaction uses.
func contextWindowOf(p providers.Profile) int { return p.EffectiveContextWindow }

// SessionCost returns the session's cost so far and its context in use.
func (c *Core) SessionCost(ctx context.Context, sessionID string) (SessionCost, error) {
	if _, err := c.sessions.Get(ctx, sessionID); err != nil {
		return SessionCost{}, err
	}
	u, err := c.agent.SessionUsage(ctx, sessionID)
	if err != nil {
		return SessionCost{}, err
	}
	out := SessionCost{Usage: u}
	p, ok, err := c.providers.ForSession(ctx, sessionID)
	if err != nil {
		return SessionCost{}, err
	}
	if ok {
		out.ContextWindow = contextWindowOf(p)
	}
	return out, nil
}

// SpendPerDay sums the model responses of the last 30 days (today
// included) by day in the user's time zone and by provider, newest day
// first, each provider named as it is saved now.
func (c *Core) SpendPerDay(ctx context.Context) ([]agent.DaySpend, error) {
	now := c.cfg.Now().In(time.Local)
	y, m, d := now.Date()
	from := time.Date(y, m, d-(spendDays-1), 0, 0, 0, 0, time.Local)
	days, err := c.agent.Spend(ctx, from, time.Local)
	if err != nil {
		return nil, err
	}
	list, err := c.providers.List(ctx)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, p := range list {
		names[p.ID] = p.Name
	}
	for i := range days {
		days[i].ProviderName = names[days[i].ProviderID]
	}
	return days, nil
}
