package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

type openaiProvider struct {
	base
	chat openai.ChatCompletionService
}

func newOpenAI(b base) *openaiProvider {
	return &openaiProvider{base: b, chat: openai.NewChatCompletionService(openaiOptions(b)...)}
}

// openaiOptions are the request options of both OpenAI wire APIs.
func openaiOptions(b base) []option.RequestOption {
	// The service is built from our options only: openai.NewClient would add
	// OPENAI_* settings from the environment (a key or organisation that must
	// not reach a third-party compatible server).
	baseURL := b.cfg.BaseURL
	if baseURL == "" {
		baseURL = "https://api.openai.com/v1/"
	}
	if !strings.HasSuffix(baseURL, "/") {
		baseURL += "/"
	}
	opts := []option.RequestOption{
		option.WithHTTPClient(b.opts.httpClient),
		option.WithBaseURL(baseURL),
		option.WithMaxRetries(0), // retries are ours (injectable sleeper, retry-after)
	}
	if b.cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(b.cfg.APIKey))
	}
	return opts
}

func (p *openaiProvider) params(req Request) openai.ChatCompletionNewParams {
	params := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(p.cfg.Model),
		Messages:      toOpenAIMessages(req.System, req.Messages, p.cfg.imagesOn()),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if n := p.maxTokens(req); n > 0 {
		if p.cfg.API == APIOpenAI {
			params.MaxCompletionTokens = openai.Int(int64(n))
		} else {
			// Compatible servers (Ollama, LM Studio, vLLM, relays) know
			// max_tokens; not all know max_completion_tokens.
			params.MaxTokens = openai.Int(int64(n))
		}
	}
	if t := p.temperature(req); t != nil {
		params.Temperature = openai.Float(*t)
	}
	if req.CacheKey != "" && p.cfg.cacheKeyOn() {
		// Requests with one key go to the same cache shard, so a session's
		// prefix is found again; the prefix itself is kept stable by the
		// caller (system first, then the history as it was sent).
		params.PromptCacheKey = openai.String(req.CacheKey)
	}
	for _, t := range req.Tools {
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(openaiFunction(t)))
	}
	return params
}

func openaiFunction(t ToolDef) shared.FunctionDefinitionParam {
	var schema map[string]any
	if len(t.Schema) == 0 || json.Unmarshal(t.Schema, &schema) != nil || schema == nil {
		schema = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	fd := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
	if t.Description != "" {
		fd.Description = openai.String(t.Description)
	}
	return fd
}

// toolErrorPrefix marks a failed tool result on the OpenAI wire, which has
// no is_error flag.
const toolErrorPrefix = "[tool error] "

// toOpenAIMessages maps the conversation onto Chat Completions. A tool
// message carries text only, so a result's images (for a model that
// accepts them: images) follow the run of tool messages in one user
// message, each result's introduced by a line naming its call.
func toOpenAIMessages(system string, msgs []Message, images bool) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	if system != "" {
		out = append(out, openai.SystemMessage(system))
	}
	for _, m := range msgs {
		var texts []string
		if m.Role == RoleAssistant {
			var calls []openai.ChatCompletionMessageToolCallUnionParam
			for _, b := range m.Content {
				switch b.Type {
				case BlockText:
					if b.Text != "" {
						texts = append(texts, b.Text)
					}
				case BlockToolUse:
					calls = append(calls, openai.ChatCompletionMessageToolCallUnionParam{
						OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
							ID: b.ToolUseID,
							Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
								Name: b.ToolName, Arguments: string(inputObject(b.Input)),
							},
						},
					})
				}
				// Thinking stays local: Chat Completions takes none back.
			}
			if len(texts) == 0 && len(calls) == 0 {
				continue
			}
			a := openai.ChatCompletionAssistantMessageParam{ToolCalls: calls}
			if len(texts) > 0 {
				a.Content.OfString = openai.String(strings.Join(texts, "\n\n"))
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
			continue
		}
		// User: tool results become "tool" messages, which must directly
		// follow the assistant message that made the calls.
		var shown, parts []openai.ChatCompletionContentPartUnionParam
		withImages := false
		for _, b := range m.Content {
			switch b.Type {
			case BlockToolResult:
				content := b.Text
				if b.IsError {
					content = toolErrorPrefix + content
				}
				if n := len(b.Images); images && n > 0 {
					if content != "" {
						content += "\n"
					}
					content += fmt.Sprintf("[%d image(s) from this result follow in the next user message]", n)
					shown = append(shown, openai.TextContentPart("Images from tool call "+b.ToolUseID+":"))
					shown = append(shown, imageParts(b.Images)...)
				}
				out = append(out, openai.ToolMessage(content, b.ToolUseID))
			case BlockText:
				if b.Text != "" {
					texts = append(texts, b.Text)
					parts = append(parts, openai.TextContentPart(b.Text))
				}
				if images && len(b.Images) > 0 {
					withImages = true
					parts = append(parts, imageParts(b.Images)...)
				}
			}
		}
		if len(shown) > 0 {
			out = append(out, openai.UserMessage(shown))
		}
		switch {
		case withImages:
			out = append(out, openai.UserMessage(parts))
		case len(texts) > 0:
			out = append(out, openai.UserMessage(strings.Join(texts, "\n\n")))
		}
	}
	return out
}

func imageParts(imgs []Image) []openai.ChatCompletionContentPartUnionParam {
	out := make([]openai.ChatCompletionContentPartUnionParam, 0, len(imgs))
	for _, img := range imgs {
		out = append(out, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: dataURL(img)}))
	}
	return out
}

// reasoningFields are the delta fields compatible servers use for
// reasoning text (DeepSeek, vLLM, Ollama, OpenRouter, LM Studio).
var reasoningFields = []string{"reasoning_content", "reasoning"}

// openaiCapture routes a request of either OpenAI API through c, which
// keeps what retry needs to classify a failure.
func openaiCapture(c *capture) option.RequestOption {
	return option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		return c.do(r, next)
	})
}

func (p *openaiProvider) Stream(ctx context.Context, req Request, onEvent func(Event) error) (Response, error) {
	return callerResult(p.stream(ctx, req, onEvent))
}

func (p *openaiProvider) stream(ctx context.Context, req Request, onEvent func(Event) error) (Response, error) {
	params := p.params(req)
	stream, err := openStream(ctx, p.base, func(c *capture) *ssestream.Stream[openai.ChatCompletionChunk] {
		return p.chat.NewStreaming(ctx, params, openaiCapture(c))
	})
	if err != nil {
		return Response{}, err
	}
	defer stream.Close()

	acc := newAccumulator(onEvent)
	var text, thinking *Block
	type call struct {
		block *Block
		args  strings.Builder
	}
	var calls []*call            // in order of appearance
	byIndex := map[int64]*call{} // the open call at each index
	finished := false
	finishCalls := func() error {
		for _, c := range calls {
			if acc.finished[c.block] {
				continue
			}
			c.block.Input = toolInput(c.args.String())
			acc.finishTool(c.block)
			if err := acc.emit(Event{Type: EventToolUseFinish, ToolUseID: c.block.ToolUseID, ToolName: c.block.ToolName, Input: c.block.Input}); err != nil {
				return err
			}
		}
		return nil
	}
	for stream.Next() {
		chunk := stream.Current()
		if chunk.JSON.Usage.Valid() && (chunk.Usage.PromptTokens > 0 || chunk.Usage.CompletionTokens > 0) {
			// prompt_tokens includes the cached ones (compatible servers
			// that cache report them the same way, or not at all).
			acc.resp.Usage = Usage{InputTokens: int(chunk.Usage.PromptTokens), OutputTokens: int(chunk.Usage.CompletionTokens),
				CacheReadTokens: int(chunk.Usage.PromptTokensDetails.CachedTokens)}
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			d := ch.Delta
			for _, f := range reasoningFields {
				// Unknown fields are kept raw (and marked not Valid).
				raw, ok := d.JSON.ExtraFields[f]
				if !ok || raw.Raw() == "" {
					continue
				}
				var s string
				if json.Unmarshal([]byte(raw.Raw()), &s) != nil || s == "" {
					continue
				}
				if thinking == nil {
					thinking = &Block{Type: BlockThinking}
					acc.add(thinking)
				}
				if err := acc.thinking(thinking, s); err != nil {
					return acc.partial(), err
				}
				break
			}
			if d.Content != "" {
				if text == nil {
					text = &Block{Type: BlockText}
					acc.add(text)
				}
				if err := acc.text(text, d.Content); err != nil {
					return acc.partial(), err
				}
			}
			for _, tc := range d.ToolCalls {
				c := byIndex[tc.Index]
				if c == nil || (tc.ID != "" && c.block.ToolUseID != tc.ID) {
					// A new call. Some servers reuse an index for the next
					// call; a new id says so.
					id := tc.ID
					if id == "" {
						id = fmt.Sprintf("call_%d", len(calls))
					}
					c = &call{block: &Block{Type: BlockToolUse, ToolUseID: id, ToolName: tc.Function.Name}}
					calls = append(calls, c)
					byIndex[tc.Index] = c
					acc.add(c.block)
					if err := acc.emit(Event{Type: EventToolUseStart, ToolUseID: id, ToolName: c.block.ToolName}); err != nil {
						return acc.partial(), err
					}
				} else if c.block.ToolName == "" && tc.Function.Name != "" {
					c.block.ToolName = tc.Function.Name
				}
				if a := tc.Function.Arguments; a != "" {
					c.args.WriteString(a)
					if err := acc.emit(Event{Type: EventToolUseDelta, ToolUseID: c.block.ToolUseID, Text: a}); err != nil {
						return acc.partial(), err
					}
				}
			}
			if ch.FinishReason != "" {
				finished = true
				acc.resp.StopReason = openaiStop(ch.FinishReason)
				// Calls cut by the output limit are finished too: the caller
				// fails them with a "re-issue" result.
				if err := finishCalls(); err != nil {
					return acc.partial(), err
				}
			}
		}
	}
	if err := stream.Err(); err != nil {
		return acc.partial(), p.streamFailure(ctx, err)
	}
	if !finished {
		return acc.partial(), p.streamFailure(ctx, errStreamEnded)
	}
	if len(calls) > 0 && acc.resp.StopReason == StopEndTurn {
		// Some compatible servers say "stop" after tool calls.
		acc.resp.StopReason = StopToolUse
	}
	return acc.finish()
}

func openaiStop(s string) StopReason {
	switch s {
	case "stop":
		return StopEndTurn
	case "tool_calls", "function_call":
		return StopToolUse
	case "length":
		return StopMaxTokens
	}
	return StopOther
}
