// Package provider talks to language models through one streaming
// interface, implemented on the official Anthropic and OpenAI SDKs.
package provider

import (
	"context"
	"encoding/json"

	"github.com/pi-desktop/pi-desktop/backend/api"
)

// Role of a message in the conversation.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// BlockType is the kind of a content block.
type BlockType string

const (
	BlockText       BlockType = "text"
	BlockThinking   BlockType = "thinking"
	BlockToolUse    BlockType = "tool_use"
	BlockToolResult BlockType = "tool_result"
	// BlockRedactedThinking is an encrypted thinking block (Anthropic): its
	// opaque data travels in Signature and is sent back unchanged.
	BlockRedactedThinking BlockType = "redacted_thinking"
)

// Block is one piece of a message. Tool results travel in user messages,
// as both wire protocols model them (OpenAI's "tool" role is mapped).
type Block struct {
	Type BlockType `json:"type"`
	Text string    `json:"text,omitempty"` // text, thinking, and tool_result content
	// Signature is the opaque signature of a thinking block (Anthropic),
	// sent back unchanged.
	Signature string `json:"signature,omitempty"`
	// ReasoningID names an OpenAI reasoning item (Responses API): the
	// thinking block is its summary, Signature its encrypted content, and
	// both go back to OpenAI only.
	ReasoningID string `json:"reasoningId,omitempty"`
	// ToolUse: the call id, tool name and JSON input.
	ToolUseID string          `json:"toolUseId,omitempty"`
	ToolName  string          `json:"toolName,omitempty"`
	Input     json.RawMessage `json:"input,omitempty" ts_type:"unknown"`
	// ToolResult: IsError marks a failed call; ToolUseID names the call.
	IsError bool `json:"isError,omitempty"`
	// Images travel with a tool result (later a user's text) to a model
	// that accepts images; a provider whose model does not drops them. The
	// bytes are loaded for one request and never persisted.
	Images []Image `json:"-"`
	// ImageRefs are the stored images a tool result carries, which the
	// agent turns into Images or a note for each request (the model may
	// change between requests); providers ignore them.
	ImageRefs []ImageRef `json:"-"`
	// Attachments are the files the user attached to a prompt (stored
	// with its text): references the agent turns into @ paths and image
	// references for each request; providers ignore them.
	Attachments []api.Attachment `json:"attachments,omitempty"`
}

// Image is an image's bytes as a request sends them.
type Image struct {
	MediaType string // image/png | image/jpeg | image/gif | image/webp
	Data      []byte
}

// ImageRef names an image in the attachments store (as tools.ImageRef).
type ImageRef struct {
	SHA256    string
	MediaType string
	Width     int
	Height    int
	Bytes     int
}

// Message is one conversation turn.
type Message struct {
	Role    Role    `json:"role"`
	Content []Block `json:"content"`
}

// ToolDef is a tool the model may call.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
}

// Request is one model call.
type Request struct {
	System   string
	Messages []Message
	Tools    []ToolDef
	// CacheKey names the conversation the request continues (the session
	// id) so a server that routes by it finds the cached prefix: OpenAI's
	// prompt_cache_key. Empty sends none.
	CacheKey    string
	MaxTokens   int      // 0 = the config's MaxOutputTokens
	Temperature *float64 // nil = the config's (or the provider's default)
}

// StopReason says why a response ended.
type StopReason string

const (
	StopEndTurn   StopReason = "end_turn"
	StopToolUse   StopReason = "tool_use"
	StopMaxTokens StopReason = "max_tokens" // cut by the output limit: its tool calls must be re-issued
	StopOther     StopReason = "other"
)

// EventType is the kind of a streamed event.
type EventType string

const (
	EventText          EventType = "text"           // Text holds a delta
	EventThinking      EventType = "thinking"       // Text holds a delta
	EventToolUseStart  EventType = "tool_use_start" // ToolUseID, ToolName
	EventToolUseDelta  EventType = "tool_use_delta" // ToolUseID, Text holds a partial-JSON delta
	EventToolUseFinish EventType = "tool_use_done"  // ToolUseID, ToolName, Input complete
)

// Event is one streamed piece of a response, delivered in order.
type Event struct {
	Type      EventType       `json:"type"`
	Text      string          `json:"text,omitempty"`
	ToolUseID string          `json:"toolUseId,omitempty"`
	ToolName  string          `json:"toolName,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
}

// Usage counts tokens of one response. InputTokens is the whole prompt on
// every API, cached or not: Anthropic reports the uncached rest, cache
// reads and cache writes apart and the provider adds them up; OpenAI's
// prompt_tokens already includes its cached_tokens. CacheReadTokens and
// CacheWriteTokens are the parts of InputTokens read from and written to
// the prompt cache (OpenAI reports reads only: its cache is written
// without a charge).
type Usage struct {
	InputTokens      int `json:"inputTokens"`
	OutputTokens     int `json:"outputTokens"`
	CacheReadTokens  int `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int `json:"cacheWriteTokens,omitempty"`
}

// Plus is the sum of two usages (a turn's model calls).
func (u Usage) Plus(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens,
		CacheReadTokens: u.CacheReadTokens + v.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens}
}

// Response is a finished model response: the assistant message assembled
// from the stream (text, thinking and tool_use blocks in order).
type Response struct {
	Message    Message    `json:"message"`
	StopReason StopReason `json:"stopReason"`
	Usage      Usage      `json:"usage"`
}

// Provider streams one response. onEvent is called in order on the caller's
// goroutine; an error it returns aborts the stream. Failures carry stable
// codes (errs): MODEL_NOT_CONFIGURED, PROVIDER_UNAUTHORIZED,
// PROVIDER_RATE_LIMITED (after the silent retries), PROVIDER_ERROR,
// STREAM_FAILED (the stream broke mid-way; the caller may retry the turn
// once), CONTEXT_TOO_LARGE, TURN_ABORTED (ctx cancelled). A response with
// no content at all is EMPTY_MODEL_RESPONSE.
//
// Next to STREAM_FAILED, TURN_ABORTED, EMPTY_MODEL_RESPONSE or an onEvent
// error, the returned Response holds what arrived: text and thinking so far
// and the tool calls whose input was complete. An error from onEvent is
// returned unchanged.
type Provider interface {
	Stream(ctx context.Context, req Request, onEvent func(Event) error) (Response, error)
	// Info describes the configured model (for the system prompt and the
	// context budget).
	Info() ModelInfo
}

// ModelInfo describes the configured model.
type ModelInfo struct {
	API             string `json:"api"` // anthropic | openai | openai-compatible
	Model           string `json:"model"`
	ContextWindow   int    `json:"contextWindow"`
	MaxOutputTokens int    `json:"maxOutputTokens"`
	// SupportsImages is whether requests may carry images: the config's
	// explicit choice, else what ImagesByDefault knows of the model.
	SupportsImages bool `json:"supportsImages"`
	// Price prices the model's usage (nil = unknown); ProfileID is the
	// saved provider it came from ("" = the environment's).
	Price     *Price `json:"price,omitempty"`
	ProfileID string `json:"profileId,omitempty"`
}
