package agent

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// SessionUsage is where a session's money and context went: the sum of
// its model responses (its delegates' included) and the size of the last
// request its own turns sent.
type SessionUsage struct {
	SessionID string `json:"sessionId"`
	// CostUSD sums the responses whose cost is known; nil when none is.
	// Unpriced counts the responses it leaves out (cost unknown).
	CostUSD   *float64       `json:"costUsd"`
	Unpriced  int            `json:"unpriced"`
	Responses int            `json:"responses"`
	Usage     provider.Usage `json:"usage"`
	// ContextTokens is the whole prompt of the session's last model
	// request (its input tokens, cache included): the context in use.
	ContextTokens int `json:"contextTokens"`
}

// DaySpend is one provider's model responses on one local day.
type DaySpend struct {
	Day        string `json:"day"`        // YYYY-MM-DD in the user's time zone
	ProviderID string `json:"providerId"` // "" for a model from the environment
	// ProviderName is filled by the caller that knows the saved providers
	// ("" when the provider was removed since).
	ProviderName string         `json:"providerName"`
	Model        string         `json:"model"` // the model of the day's last response
	CostUSD      *float64       `json:"costUsd"`
	Unpriced     int            `json:"unpriced"`
	Responses    int            `json:"responses"`
	Usage        provider.Usage `json:"usage"`
}

// costSum adds stored costs exactly; known is false until one is known.
type costSum struct {
	total    provider.Cost
	known    bool
	unpriced int
}

func (s *costSum) add(c sql.NullInt64) {
	if !c.Valid {
		s.unpriced++
		return
	}
	s.total += provider.Cost(c.Int64)
	s.known = true
}

func (s costSum) usd() *float64 {
	if !s.known {
		return nil
	}
	v := s.total.USD()
	return &v
}

// answered is the filter for model responses that used tokens or were
// priced: a stream that failed before its usage arrived cost nothing we
// know of and is left out.
const answered = `role = 'assistant' AND (input_tokens > 0 OR output_tokens > 0 OR cost IS NOT NULL)`

// SessionUsage sums a session's model responses.
func (a *Agent) SessionUsage(ctx context.Context, sessionID string) (SessionUsage, error) {
	out := SessionUsage{SessionID: sessionID}
	rows, err := a.st.db.QueryContext(ctx, `SELECT cost, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens
		FROM agent_messages WHERE session_id = ? AND `+answered, sessionID)
	if err != nil {
		return out, storageErr(err, "read the session's usage")
	}
	defer rows.Close()
	var sum costSum
	for rows.Next() {
		var c sql.NullInt64
		var u provider.Usage
		if err := rows.Scan(&c, &u.InputTokens, &u.OutputTokens, &u.CacheReadTokens, &u.CacheWriteTokens); err != nil {
			return out, storageErr(err, "read the session's usage")
		}
		sum.add(c)
		out.Usage = out.Usage.Plus(u)
		out.Responses++
	}
	if err := rows.Err(); err != nil {
		return out, storageErr(err, "read the session's usage")
	}
	out.CostUSD, out.Unpriced = sum.usd(), sum.unpriced
	// The session's own last request: a delegate's context is its own.
	err = a.st.db.QueryRowContext(ctx, `SELECT input_tokens FROM agent_messages
		WHERE session_id = ? AND kind = 'model' AND input_tokens > 0
		AND turn_id NOT IN (SELECT id FROM agent_turns WHERE delegation_id != '')
		ORDER BY seq DESC LIMIT 1`, sessionID).Scan(&out.ContextTokens)
	if err != nil && err != sql.ErrNoRows {
		return out, storageErr(err, "read the session's usage")
	}
	return out, nil
}

// Spend sums the model responses made since from, by day in loc and by
// provider, newest day first. Costs are summed exactly as stored (at the
// price of their time); sessions deleted since take their spend with them.
func (a *Agent) Spend(ctx context.Context, from time.Time, loc *time.Location) ([]DaySpend, error) {
	rows, err := a.st.db.QueryContext(ctx, `SELECT created_at, cost_profile_id, cost_model, cost,
		input_tokens, output_tokens, cache_read_tokens, cache_write_tokens
		FROM agent_messages WHERE created_at >= ? AND `+answered+` ORDER BY created_at, seq`, from.UnixMilli())
	if err != nil {
		return nil, storageErr(err, "read the spend per day")
	}
	defer rows.Close()
	type key struct{ day, provider string }
	days := map[key]*DaySpend{}
	sums := map[key]*costSum{}
	for rows.Next() {
		var at int64
		var profile, model string
		var c sql.NullInt64
		var u provider.Usage
		if err := rows.Scan(&at, &profile, &model, &c, &u.InputTokens, &u.OutputTokens, &u.CacheReadTokens, &u.CacheWriteTokens); err != nil {
			return nil, storageErr(err, "read the spend per day")
		}
		k := key{time.UnixMilli(at).In(loc).Format(time.DateOnly), profile}
		d := days[k]
		if d == nil {
			d = &DaySpend{Day: k.day, ProviderID: profile}
			days[k], sums[k] = d, &costSum{}
		}
		d.Model = model
		d.Responses++
		d.Usage = d.Usage.Plus(u)
		sums[k].add(c)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "read the spend per day")
	}
	out := make([]DaySpend, 0, len(days))
	for k, d := range days {
		d.CostUSD, d.Unpriced = sums[k].usd(), sums[k].unpriced
		out = append(out, *d)
	}
	slices.SortFunc(out, func(x, y DaySpend) int {
		if x.Day != y.Day {
			return strings.Compare(y.Day, x.Day) // newest first
		}
		return strings.Compare(x.ProviderID, y.ProviderID)
	})
	return out, nil
}
