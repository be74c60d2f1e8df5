package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	anthropicsse "github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"
)

type anthropicProvider struct {
	base
	client anthropic.Client
}

func newAnthropic(b base) *anthropicProvider {
	opts := []option.RequestOption{
		// Nothing from the environment or the SDK's profile files: the
		// config is the only source of the endpoint and the credential.
		option.WithoutEnvironmentDefaults(),
		option.WithHTTPClient(b.opts.httpClient),
		option.WithMaxRetries(0), // retries are ours (injectable sleeper, retry-after)
		option.WithAPIKey(b.cfg.APIKey),
	}
	if b.cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(b.cfg.BaseURL))
	}
	return &anthropicProvider{base: b, client: anthropic.NewClient(opts...)}
}

// thinkingAdaptive lists models on which budget-based thinking is deprecated
// in favour of adaptive thinking (as the SDK warns).
var thinkingAdaptive = map[string]bool{"claude-opus-4-6": true, "claude-mythos-preview": true}

func (p *anthropicProvider) params(req Request) (anthropic.MessageNewParams, []option.RequestOption) {
	maxTokens := p.maxTokens(req)
	params := anthropic.MessageNewParams{
		Model: anthropic.Model(p.cfg.Model),
	}
	var sizes []int
	params.Messages, sizes = toAnthropicMessages(req.Messages, p.cfg.imagesOn())
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	for _, t := range req.Tools {
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: anthropicTool(t)})
	}
	markAnthropicCache(&params, req, sizes, AnthropicMinCacheTokens(p.cfg.Model))
	var reqOpts []option.RequestOption
	if p.cfg.Thinking {
		if thinkingAdaptive[p.cfg.Model] {
			params.Thinking = anthropic.ThinkingConfigParamUnion{OfAdaptive: &anthropic.ThinkingConfigAdaptiveParam{}}
		} else {
			budget := p.cfg.ThinkingBudget
			if budget <= 0 {
				budget = DefaultThinkingBudget
			}
			budget = max(budget, minAnthropicThinkingBudget)
			if maxTokens <= budget {
				maxTokens = budget + minAnthropicThinkingBudget
			}
			params.Thinking = anthropic.ThinkingConfigParamOfEnabled(int64(budget))
		}
	} else if t := p.temperature(req); t != nil {
		// The Messages params no longer model temperature; it is still
		// accepted on the wire (and rejected together with thinking).
		reqOpts = append(reqOpts, option.WithJSONSet("temperature", *t))
	}
	params.MaxTokens = int64(maxTokens)
	return params, reqOpts
}

func anthropicTool(t ToolDef) *anthropic.ToolParam {
	schema := anthropic.ToolInputSchemaParam{}
	var m map[string]any
	if len(t.Schema) > 0 && json.Unmarshal(t.Schema, &m) == nil {
		schema.Properties = m["properties"]
		if req, ok := m["required"].([]any); ok {
			for _, r := range req {
				if s, ok := r.(string); ok {
					schema.Required = append(schema.Required, s)
				}
			}
		}
		delete(m, "type")
		delete(m, "properties")
		delete(m, "required")
		if len(m) > 0 {
			schema.ExtraFields = m
		}
	}
	if schema.Properties == nil {
		schema.Properties = map[string]any{}
	}
	tp := &anthropic.ToolParam{Name: t.Name, InputSchema: schema}
	if t.Description != "" {
		tp.Description = anthropic.String(t.Description)
	}
	return tp
}

// toAnthropicMessages maps the conversation onto the Messages API. Images
// go only to a model that accepts them (images); otherwise they are
// dropped here, whatever the caller sent. sizes estimates each message's
// length in characters, for the cache breakpoints (an image counts as
// anthropicImageTokens, whatever its bytes).
func toAnthropicMessages(msgs []Message, images bool) (out []anthropic.MessageParam, sizes []int) {
	out = make([]anthropic.MessageParam, 0, len(msgs))
	sizes = make([]int, 0, len(msgs))
	for _, m := range msgs {
		var results, rest []anthropic.ContentBlockParamUnion
		size := 0
		for _, b := range m.Content {
			size += blockChars(b)
			if images {
				size += len(b.Images) * anthropicImageTokens * 4
			}
			switch b.Type {
			case BlockText:
				if b.Text != "" { // the API rejects empty text blocks
					rest = append(rest, anthropic.NewTextBlock(b.Text))
				}
				if images && m.Role == RoleUser {
					for _, img := range b.Images {
						rest = append(rest, anthropic.ContentBlockParamUnion{OfImage: anthropicImage(img)})
					}
				}
			case BlockThinking:
				// Only signed thinking can go back; thinking from another
				// provider (no signature, or an OpenAI reasoning item) is
				// dropped.
				if m.Role == RoleAssistant && b.Signature != "" && b.ReasoningID == "" {
					rest = append(rest, anthropic.NewThinkingBlock(b.Signature, b.Text))
				}
			case BlockRedactedThinking:
				if m.Role == RoleAssistant && b.Signature != "" {
					rest = append(rest, anthropic.NewRedactedThinkingBlock(b.Signature))
				}
			case BlockToolUse:
				rest = append(rest, anthropic.NewToolUseBlock(b.ToolUseID, inputObject(b.Input), b.ToolName))
			case BlockToolResult:
				tr := anthropic.ToolResultBlockParam{ToolUseID: b.ToolUseID}
				if b.Text != "" {
					tr.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: b.Text}}}
				}
				if images {
					for _, img := range b.Images {
						tr.Content = append(tr.Content, anthropic.ToolResultBlockParamContentUnion{OfImage: anthropicImage(img)})
					}
				}
				if b.IsError {
					tr.IsError = anthropic.Bool(true)
				}
				results = append(results, anthropic.ContentBlockParamUnion{OfToolResult: &tr})
			}
		}
		// Tool results must open the user message that answers the calls.
		blocks := append(results, rest...)
		if len(blocks) == 0 {
			continue
		}
		if m.Role == RoleAssistant {
			out = append(out, anthropic.NewAssistantMessage(blocks...))
		} else {
			out = append(out, anthropic.NewUserMessage(blocks...))
		}
		sizes = append(sizes, size)
	}
	return out, sizes
}

// anthropicImage is an image inline (base64) in a request.
func anthropicImage(img Image) *anthropic.ImageBlockParam {
	return &anthropic.ImageBlockParam{Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
		Data: base64.StdEncoding.EncodeToString(img.Data), MediaType: anthropic.Base64ImageSourceMediaType(img.MediaType),
	}}}
}

// inputObject is a tool input as the wire wants it: a JSON object.
func inputObject(in json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if len(in) == 0 || json.Unmarshal(in, &m) != nil || m == nil {
		return json.RawMessage(`{}`)
	}
	return in
}

func (p *anthropicProvider) Stream(ctx context.Context, req Request, onEvent func(Event) error) (Response, error) {
	return callerResult(p.stream(ctx, req, onEvent))
}

func (p *anthropicProvider) stream(ctx context.Context, req Request, onEvent func(Event) error) (Response, error) {
	params, reqOpts := p.params(req)
	stream, err := openStream(ctx, p.base, func(c *capture) *anthropicsse.Stream[anthropic.MessageStreamEventUnion] {
		mw := option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			return c.do(r, next)
		})
		return p.client.Messages.NewStreaming(ctx, params, append(slices.Clip(reqOpts), mw)...)
	})
	if err != nil {
		return Response{}, err
	}
	defer stream.Close()

	acc := newAccumulator(onEvent)
	type toolState struct {
		json    strings.Builder
		initial any
	}
	tools := map[int]*toolState{}
	blocks := map[int]*Block{}
	stopped := false
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "message_start":
			u := ev.Message.Usage
			acc.resp.Usage = anthropicUsage(u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens)
			acc.resp.Usage.OutputTokens = int(u.OutputTokens)
		case "content_block_start":
			i := int(ev.Index)
			cb := ev.ContentBlock
			var b *Block
			switch cb.Type {
			case "text":
				b = &Block{Type: BlockText}
				if cb.Text != "" {
					if err := acc.text(b, cb.Text); err != nil {
						return acc.partial(), err
					}
				}
			case "thinking":
				b = &Block{Type: BlockThinking, Signature: cb.Signature}
				if cb.Thinking != "" {
					if err := acc.thinking(b, cb.Thinking); err != nil {
						return acc.partial(), err
					}
				}
			case "redacted_thinking":
				b = &Block{Type: BlockRedactedThinking, Signature: cb.Data}
			case "tool_use":
				b = &Block{Type: BlockToolUse, ToolUseID: cb.ID, ToolName: cb.Name}
				tools[i] = &toolState{initial: cb.Input}
				if err := acc.emit(Event{Type: EventToolUseStart, ToolUseID: cb.ID, ToolName: cb.Name}); err != nil {
					return acc.partial(), err
				}
			default:
				continue // server tools and other blocks are not ours
			}
			blocks[i] = b
			acc.add(b)
		case "content_block_delta":
			i := int(ev.Index)
			b := blocks[i]
			if b == nil {
				continue
			}
			d := ev.Delta
			var err error
			switch d.Type {
			case "text_delta":
				err = acc.text(b, d.Text)
			case "thinking_delta":
				err = acc.thinking(b, d.Thinking)
			case "signature_delta":
				b.Signature += d.Signature
			case "input_json_delta":
				if ts := tools[i]; ts != nil && d.PartialJSON != "" {
					ts.json.WriteString(d.PartialJSON)
					err = acc.emit(Event{Type: EventToolUseDelta, ToolUseID: b.ToolUseID, Text: d.PartialJSON})
				}
			}
			if err != nil {
				return acc.partial(), err
			}
		case "content_block_stop":
			i := int(ev.Index)
			b := blocks[i]
			if b == nil || b.Type != BlockToolUse {
				continue
			}
			ts := tools[i]
			raw := ts.json.String()
			if raw == "" && ts.initial != nil {
				if enc, err := json.Marshal(ts.initial); err == nil {
					raw = string(enc)
				}
			}
			b.Input = toolInput(raw)
			acc.finishTool(b)
			if err := acc.emit(Event{Type: EventToolUseFinish, ToolUseID: b.ToolUseID, ToolName: b.ToolName, Input: b.Input}); err != nil {
				return acc.partial(), err
			}
		case "message_delta":
			if ev.Delta.StopReason != "" {
				acc.resp.StopReason = anthropicStop(string(ev.Delta.StopReason))
			}
			if ev.Usage.OutputTokens > 0 {
				acc.resp.Usage.OutputTokens = int(ev.Usage.OutputTokens)
			}
			if u := ev.Usage; u.InputTokens+u.CacheCreationInputTokens+u.CacheReadInputTokens > 0 {
				out := acc.resp.Usage.OutputTokens
				acc.resp.Usage = anthropicUsage(u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens)
				acc.resp.Usage.OutputTokens = out
			}
		case "message_stop":
			stopped = true
		}
		if stopped {
			break
		}
	}
	if err := stream.Err(); err != nil {
		return acc.partial(), p.streamFailure(ctx, err)
	}
	if !stopped {
		return acc.partial(), p.streamFailure(ctx, errStreamEnded)
	}
	return acc.finish()
}

// anthropicUsage normalises the input figures: Anthropic's input_tokens
// are only what came after the last cache breakpoint, so the whole prompt
// is their sum with the cache reads and writes.
func anthropicUsage(uncached, cacheRead, cacheWrite int64) Usage {
	return Usage{InputTokens: int(uncached + cacheRead + cacheWrite), CacheReadTokens: int(cacheRead), CacheWriteTokens: int(cacheWrite)}
}

func anthropicStop(s string) StopReason {
	switch s {
	case "end_turn", "stop_sequence":
		return StopEndTurn
	case "tool_use":
		return StopToolUse
	case "max_tokens", "model_context_window_exceeded":
		return StopMaxTokens
	}
	return StopOther
}
