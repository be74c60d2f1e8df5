package provider

import "strings"

// Limits are the token limits a config runs with: the context window
// (input and output together) and the output a response may use, which is
// sent as the request's maximum and kept free in the window.
type Limits struct {
	ContextWindow int  `json:"contextWindow"`
	MaxOutput     int  `json:"maxOutput"`
	Known         bool `json:"known"` // the model is in the built-in table
}

// anthropicOutputCap bounds the output asked of a Claude model when the
// profile does not say: Anthropic refuses a request whose input and
// max_tokens together exceed the window, so asking for a model's full 64k
// would take 64k from every request's history; 32k is what a coding turn
// needs at most (as Claude Code's default).
const anthropicOutputCap = 32_000

// LimitsFor returns cfg's limits: the profile's explicit values (above 0)
// win, each on its own; else the built-in table's for a known model (by
// the longest prefix of its id, dated and vendor-prefixed ids included);
// else the API's defaults (window 200k Anthropic, 128k OpenAI, 32k
// compatible servers; output 8192 for Anthropic, 0 elsewhere: the API's
// own default, nothing reserved).
func LimitsFor(cfg Config) Limits {
	api := strings.ToLower(strings.TrimSpace(cfg.API))
	var l Limits
	if m, ok := lookupModel(cfg.Model); ok {
		l = Limits{ContextWindow: m.contextWindow, MaxOutput: m.maxOutput, Known: true}
		// A model whose output may fill its window (gpt-4: 8k and 8k)
		// would leave no room for the conversation.
		l.MaxOutput = min(l.MaxOutput, l.ContextWindow/2)
		if api == APIAnthropic {
			l.MaxOutput = min(l.MaxOutput, anthropicOutputCap)
		}
	} else {
		switch api {
		case APIAnthropic:
			l = Limits{ContextWindow: DefaultContextWindow, MaxOutput: DefaultAnthropicMaxOutput}
		case APIOpenAI:
			l = Limits{ContextWindow: defaultOpenAIContextWindow}
		default:
			l = Limits{ContextWindow: defaultCompatibleContextWindow}
		}
	}
	if cfg.ContextWindow > 0 {
		l.ContextWindow = cfg.ContextWindow
	}
	if cfg.MaxOutputTokens > 0 {
		l.MaxOutput = cfg.MaxOutputTokens
	}
	return l
}

// modelKey is a model id as the table spells it: lower case, without a
// vendor or path prefix (openai/gpt-4o, anthropic/claude-…), dots as dashes
// (claude-sonnet-4.5 on gateways, gpt-4.1 at OpenAI).
func modelKey(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	return strings.ReplaceAll(m, ".", "-")
}

// lookupModel finds the longest known prefix of model that ends at the
// end of the id or at a separator, so gpt-4o never reads as gpt-4 and
// gpt-4-1106-preview never as gpt-4.1.
func lookupModel(model string) (knownModel, bool) {
	key := modelKey(model)
	var best knownModel
	found := false
	for _, m := range knownModels {
		if !strings.HasPrefix(key, m.prefix) || (found && len(m.prefix) <= len(best.prefix)) {
			continue
		}
		if rest := key[len(m.prefix):]; rest != "" && !strings.ContainsRune("-:@_", rune(rest[0])) {
			continue
		}
		best, found = m, true
	}
	return best, found
}
