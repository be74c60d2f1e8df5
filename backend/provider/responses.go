package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// The OpenAI Responses API: the only OpenAI API through which a reasoning
// model keeps its reasoning across tool calls. Nothing is stored server-side
// (store:false); the reasoning comes back encrypted, travels in the thinking
// block (ReasoningID, Signature) and is sent back on the next request.

// OpenAIWireAPI is the OpenAI wire API cfg uses: its OpenAIAPI when set;
// else Responses for OpenAI's own endpoint (no base URL, or api.openai.com)
// and Chat Completions for compatible servers and any other endpoint
// (proxies, gateways), which do not all know the Responses API. It is ""
// for Anthropic.
func OpenAIWireAPI(cfg Config) string {
	switch {
	case cfg.API != APIOpenAI && cfg.API != APIOpenAICompatible:
		return ""
	case cfg.OpenAIAPI != "":
		return cfg.OpenAIAPI
	case cfg.API == APIOpenAICompatible:
		return OpenAIChat
	case cfg.BaseURL == "":
		return OpenAIResponses
	}
	if u, err := url.Parse(cfg.BaseURL); err == nil && strings.EqualFold(u.Hostname(), "api.openai.com") {
		return OpenAIResponses
	}
	return OpenAIChat
}

// openAIReasoning reports whether model is one of OpenAI's reasoning
// families, which take reasoning parameters and return encrypted reasoning;
// the others reject both (and reasoning models reject a temperature).
func openAIReasoning(model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	oSeries := func(p string) bool { return m == p || strings.HasPrefix(m, p+"-") }
	switch {
	case strings.HasPrefix(m, "gpt-5"):
		return !strings.Contains(m, "-chat") // gpt-5-chat-latest does not reason
	case oSeries("o1"), oSeries("o3"), oSeries("o4-mini"), strings.HasPrefix(m, "codex-"), strings.HasPrefix(m, "gpt-oss"):
		return true
	}
	return false
}

type responsesProvider struct {
	base
	service responses.ResponseService
}

func newResponses(b base) *responsesProvider {
	return &responsesProvider{base: b, service: responses.NewResponseService(openaiOptions(b)...)}
}

func (p *responsesProvider) params(req Request) responses.ResponseNewParams {
	reasoning := openAIReasoning(p.cfg.Model)
	params := responses.ResponseNewParams{
		Model: shared.ResponsesModel(p.cfg.Model),
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: toResponsesInput(req.Messages, p.cfg.imagesOn(), reasoning)},
		Store: openai.Bool(false),
	}
	// Instructions, not a system item: the same text opens every request of
	// a session, so the cached prefix holds.
	if req.System != "" {
		params.Instructions = openai.String(req.System)
	}
	if n := p.maxTokens(req); n > 0 {
		params.MaxOutputTokens = openai.Int(int64(n))
	}
	if req.CacheKey != "" && p.cfg.cacheKeyOn() {
		// As on Chat Completions: one key per session finds its prefix.
		params.PromptCacheKey = openai.String(req.CacheKey)
	}
	if reasoning {
		params.Reasoning = shared.ReasoningParam{Summary: shared.ReasoningSummaryAuto}
		params.Include = []responses.ResponseIncludable{responses.ResponseIncludableReasoningEncryptedContent}
	} else if t := p.temperature(req); t != nil {
		params.Temperature = openai.Float(*t)
	}
	for _, t := range req.Tools {
		fd := openaiFunction(t)
		params.Tools = append(params.Tools, responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
			Name: fd.Name, Description: fd.Description, Parameters: fd.Parameters,
			// The API's default is strict, which refuses most schemas.
			Strict: openai.Bool(strictSchema(map[string]any(fd.Parameters))),
		}})
	}
	if len(params.Tools) > 0 {
		params.ParallelToolCalls = openai.Bool(true)
	}
	return params
}

// toResponsesInput maps the conversation onto input items. An assistant
// message becomes its items in order: reasoning (only OpenAI's own, with
// its encrypted content, and only to a reasoning model), text, function
// calls. A tool result becomes a function_call_output item; its images
// (for a model that accepts them) follow the results in one user message,
// as on Chat Completions.
func toResponsesInput(msgs []Message, images, reasoning bool) responses.ResponseInputParam {
	out := responses.ResponseInputParam{}
	for _, m := range msgs {
		if m.Role == RoleAssistant {
			for _, b := range m.Content {
				switch b.Type {
				case BlockThinking:
					if !reasoning || b.ReasoningID == "" || b.Signature == "" {
						continue
					}
					r := responses.ResponseReasoningItemParam{ID: b.ReasoningID, Summary: []responses.ResponseReasoningItemSummaryParam{},
						EncryptedContent: openai.String(b.Signature)}
					if b.Text != "" {
						r.Summary = append(r.Summary, responses.ResponseReasoningItemSummaryParam{Text: b.Text})
					}
					out = append(out, responses.ResponseInputItemUnionParam{OfReasoning: &r})
				case BlockText:
					if b.Text != "" {
						out = append(out, responsesMessage(responses.EasyInputMessageRoleAssistant,
							responses.EasyInputMessageContentUnionParam{OfString: openai.String(b.Text)}))
					}
				case BlockToolUse:
					out = append(out, responses.ResponseInputItemUnionParam{OfFunctionCall: &responses.ResponseFunctionToolCallParam{
						CallID: b.ToolUseID, Name: b.ToolName, Arguments: string(inputObject(b.Input)),
					}})
				}
			}
			continue
		}
		var shown, parts responses.ResponseInputMessageContentListParam
		withImages, hasText := false, false
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
					shown = append(shown, responses.ResponseInputContentParamOfInputText("Images from tool call "+b.ToolUseID+":"))
					shown = append(shown, responsesImages(b.Images)...)
				}
				out = append(out, responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
					CallID: openai.String(b.ToolUseID), Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: openai.String(content)},
				}})
			case BlockText:
				if b.Text != "" {
					hasText = true
					parts = append(parts, responses.ResponseInputContentParamOfInputText(b.Text))
				}
				if images && len(b.Images) > 0 {
					withImages = true
					parts = append(parts, responsesImages(b.Images)...)
				}
			}
		}
		if len(shown) > 0 {
			out = append(out, responsesMessage(responses.EasyInputMessageRoleUser, responses.EasyInputMessageContentUnionParam{OfInputItemContentList: shown}))
		}
		if withImages || hasText {
			out = append(out, responsesMessage(responses.EasyInputMessageRoleUser, responses.EasyInputMessageContentUnionParam{OfInputItemContentList: parts}))
		}
	}
	return out
}

func responsesMessage(role responses.EasyInputMessageRole, content responses.EasyInputMessageContentUnionParam) responses.ResponseInputItemUnionParam {
	return responses.ResponseInputItemUnionParam{OfMessage: &responses.EasyInputMessageParam{
		Type: responses.EasyInputMessageTypeMessage, Role: role, Content: content,
	}}
}

func responsesImages(imgs []Image) []responses.ResponseInputContentUnionParam {
	out := make([]responses.ResponseInputContentUnionParam, 0, len(imgs))
	for _, img := range imgs {
		part := responses.ResponseInputContentParamOfInputImage(responses.ResponseInputImageDetailAuto)
		part.OfInputImage.ImageURL = openai.String(dataURL(img))
		out = append(out, part)
	}
	return out
}

// strictSchema reports whether a JSON schema meets strict mode: every
// object closed (additionalProperties false) with all its properties
// required, and no keyword strict mode refuses.
func strictSchema(v any) bool {
	switch s := v.(type) {
	case []any:
		for _, e := range s {
			if !strictSchema(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, k := range []string{"oneOf", "allOf", "not", "if", "then", "else", "patternProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties"} {
			if _, ok := s[k]; ok {
				return false
			}
		}
		props, isObject := s["properties"].(map[string]any)
		if s["type"] == "object" || isObject {
			if ap, ok := s["additionalProperties"].(bool); !ok || ap {
				return false
			}
			required := map[string]bool{}
			list, _ := s["required"].([]any)
			for _, r := range list {
				if name, ok := r.(string); ok {
					required[name] = true
				}
			}
			for name, prop := range props {
				if !required[name] || !strictSchema(prop) {
					return false
				}
			}
		}
		for _, k := range []string{"items", "anyOf", "$defs", "definitions"} {
			sub, ok := s[k]
			if !ok {
				continue
			}
			if defs, isMap := sub.(map[string]any); isMap && k != "items" {
				for _, d := range defs {
					if !strictSchema(d) {
						return false
					}
				}
			} else if !strictSchema(sub) {
				return false
			}
		}
		return true
	}
	return true
}

func (p *responsesProvider) Stream(ctx context.Context, req Request, onEvent func(Event) error) (Response, error) {
	return callerResult(p.stream(ctx, req, onEvent))
}

func (p *responsesProvider) stream(ctx context.Context, req Request, onEvent func(Event) error) (Response, error) {
	params := p.params(req)
	stream, err := openStream(ctx, p.base, func(c *capture) *ssestream.Stream[responses.ResponseStreamEventUnion] {
		return p.service.NewStreaming(ctx, params, openaiCapture(c))
	})
	if err != nil {
		return Response{}, err
	}
	defer stream.Close()
	return p.read(ctx, stream, newResponsesReader(onEvent))
}

func (p *responsesProvider) read(ctx context.Context, stream interface {
	Next() bool
	Current() responses.ResponseStreamEventUnion
	Err() error
}, r *responsesReader) (Response, error) {
	acc := r.acc
	for stream.Next() {
		ev := stream.Current()
		done, err := r.event(ev)
		if err != nil {
			return acc.partial(), err
		}
		if ev.Type == "error" || ev.Type == "response.failed" {
			code, msg := ev.Code, ev.Message
			if ev.Type == "response.failed" {
				code, msg = string(ev.Response.Error.Code), ev.Response.Error.Message
			}
			return acc.partial(), p.eventFailure(code, msg)
		}
		if done {
			return acc.finish()
		}
	}
	if err := stream.Err(); err != nil {
		return acc.partial(), p.streamFailure(ctx, err)
	}
	return acc.partial(), p.streamFailure(ctx, errStreamEnded)
}

// eventFailure maps an error event of a started stream: an input over the
// context window is CONTEXT_TOO_LARGE, anything else STREAM_FAILED.
func (p *responsesProvider) eventFailure(code, msg string) error {
	if isContextTooLarge(http.StatusBadRequest, msg, code) {
		body, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "code": code}})
		return p.classify(context.Background(), errors.New(msg), &capture{status: http.StatusBadRequest, body: body}).err
	}
	reason := msg
	if code != "" {
		reason = code + ": " + msg
	}
	return p.streamFailure(context.Background(), &ssestream.StreamError{Message: reason})
}
