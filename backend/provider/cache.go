package provider

import (
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
)

// Prompt caching. The largest cost of a coding agent is sending the same
// context again on every request; both APIs can serve a prefix they saw
// recently from a cache, at a fraction of the price, if the prefix is
// byte-identical. The agent keeps it so (fixed tool order, a system
// prompt without per-request values, new tools appended, images cut in
// steps); here the Anthropic request marks where the cache may end.

// maxAnthropicBreakpoints is the Messages API's limit of cache_control
// blocks in one request.
const maxAnthropicBreakpoints = 4

// anthropicImageTokens is what an image counts towards the cacheable
// length: about what a full-size image costs (1568 px on the long side is
// ~1600 tokens). An overestimate only places a breakpoint the API then
// ignores.
const anthropicImageTokens = 1600

// AnthropicMinCacheTokens is the shortest prefix the Messages API caches
// for model: a breakpoint ending a shorter prefix creates no cache entry.
// Unknown models get the common 1024.
func AnthropicMinCacheTokens(model string) int {
	m := strings.ToLower(model)
	switch {
	case strings.Contains(m, "haiku-4"), strings.Contains(m, "opus-4-5"), strings.Contains(m, "opus-4-6"):
		return 4096
	case strings.Contains(m, "haiku"):
		return 2048
	}
	return 1024
}

// estimateTokens is the cheap estimate used to decide on breakpoints:
// about four characters a token.
func estimateTokens(chars int) int { return (chars + 3) / 4 }

// markAnthropicCache places the cache breakpoints, in the order the API
// reads the prompt (tools, system, messages), each only where the prefix
// it ends reaches min tokens: the last tool definition; the system
// prompt; the last block of the latest user message (the rolling
// breakpoint, which moves each request); and that of the user message
// before it, where the previous request's rolling breakpoint stood, so
// its entry is still found however many blocks the newest message added.
// sizes are the characters of params.Messages (toAnthropicMessages).
func markAnthropicCache(params *anthropic.MessageNewParams, req Request, sizes []int, min int) {
	left := maxAnthropicBreakpoints
	chars := 0 // of the prefix so far
	for _, t := range req.Tools {
		chars += len(t.Name) + len(t.Description) + len(t.Schema)
	}
	if n := len(params.Tools); n > 0 && estimateTokens(chars) >= min {
		if cc := params.Tools[n-1].GetCacheControl(); cc != nil {
			*cc = anthropic.NewCacheControlEphemeralParam()
			left--
		}
	}
	chars += len(req.System)
	if n := len(params.System); n > 0 && estimateTokens(chars) >= min {
		params.System[n-1].CacheControl = anthropic.NewCacheControlEphemeralParam()
		left--
	}
	ends := make([]int, len(params.Messages)) // characters up to and including message i
	for i := range params.Messages {
		chars += sizes[i]
		ends[i] = chars
	}
	for i, rolled := len(params.Messages)-1, 0; i >= 0 && rolled < 2 && left > 0; i-- {
		m := params.Messages[i].OfUser
		if m == nil {
			continue
		}
		rolled++
		if estimateTokens(ends[i]) < min {
			break // an earlier message's prefix is shorter still
		}
		for j := len(m.Content) - 1; j >= 0; j-- {
			if cc := m.Content[j].GetCacheControl(); cc != nil {
				*cc = anthropic.NewCacheControlEphemeralParam()
				left--
				break
			}
		}
	}
}

// blockChars is a block's length as a request spends it, images apart.
func blockChars(b Block) int {
	return len(b.Text) + len(b.Signature) + len(b.ToolUseID) + len(b.ToolName) + len(b.Input)
}
