package toolcli

import (
	"encoding/json"
	"fmt"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// EventResult is the last line of `pi-desktop run --json`: how the turn
// ended, so a consumer need not join the agent:text deltas itself.
const EventResult = "result"

// Result is the payload of the result event.
type Result struct {
	SessionID string `json:"sessionId"`
	// TurnID is empty when the turn never started (no model configured,
	// the session busy or unknown).
	TurnID string `json:"turnId"`
	State  string `json:"state"` // done | failed | aborted
	// Text is the final assistant message's text, in full.
	Text       string              `json:"text"`
	StopReason provider.StopReason `json:"stopReason"`
	Usage      ResultUsage         `json:"usage"`
	ModelCalls int                 `json:"modelCalls"`
	// Cost is what the turn's model calls cost in US dollars, at the
	// price of the model's provider (null: unknown, e.g. a local model).
	Cost *float64 `json:"cost"`
	// Error says why a turn that did not end done ended (nil when done).
	Error *ResultError `json:"error"`
}

// ResultUsage is the turn's tokens over all its model calls. InputTokens
// is the whole prompt on every API; the cache figures are parts of it.
type ResultUsage struct {
	InputTokens      int `json:"inputTokens"`
	OutputTokens     int `json:"outputTokens"`
	CacheReadTokens  int `json:"cacheReadTokens"`
	CacheWriteTokens int `json:"cacheWriteTokens"`
}

// ResultError is a failed turn's stable code and message.
type ResultError struct {
	Code    errs.Code `json:"code"`
	Message string    `json:"message"`
}

func resultOf(sessionID string, res agent.TurnResult) Result {
	u := res.Usage
	return Result{SessionID: sessionID, TurnID: res.TurnID, State: res.State, Text: res.Text, StopReason: res.StopReason,
		Usage:      ResultUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens},
		ModelCalls: res.ModelCalls, Cost: usd(res.Cost)}
}

func usd(c *provider.Cost) *float64 {
	if c == nil {
		return nil
	}
	v := c.USD()
	return &v
}

// result prints the result event; err (the turn's failure, or what kept
// it from starting) fills its error.
func (p *printer) result(r Result, err error) {
	if err != nil {
		pl := errs.ToPayload(err)
		r.Error = &ResultError{Code: pl.Code, Message: pl.Message}
		if r.State == "" || r.State == agent.TurnDone {
			r.State = agent.TurnFailed
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"event": EventResult, "payload": r})
	fmt.Fprintln(p.out, string(b))
}

// summaryLine closes the human-readable output: how the turn ended, its
// tokens with the share the prompt cache served, its cost, and how to
// open the session in the window.
func summaryLine(r Result) string {
	stop := string(r.StopReason)
	if stop == "" {
		stop = "none"
	}
	share := 0
	if r.Usage.InputTokens > 0 {
		share = r.Usage.CacheReadTokens * 100 / r.Usage.InputTokens
	}
	cache := fmt.Sprintf("%d%% from cache: %d read", share, r.Usage.CacheReadTokens)
	if r.Usage.CacheWriteTokens > 0 {
		cache += fmt.Sprintf(", %d written", r.Usage.CacheWriteTokens)
	}
	return fmt.Sprintf("[turn %s: %s · stop %s · %d tokens in (%s), %d out · %s · session %s; see it in the app: pi-desktop --session %s]",
		r.TurnID, r.State, stop, r.Usage.InputTokens, cache, r.Usage.OutputTokens, FormatCost(r.Cost), r.SessionID, r.SessionID)
}

// FormatCost writes a cost in US dollars for people: cents for a dollar
// or more, four decimals below (a turn often costs a fraction of a cent),
// "cost unknown" when there is no price.
func FormatCost(usd *float64) string {
	switch {
	case usd == nil:
		return "cost unknown"
	case *usd >= 1:
		return fmt.Sprintf("$%.2f", *usd)
	default:
		return fmt.Sprintf("$%.4f", *usd)
	}
}
