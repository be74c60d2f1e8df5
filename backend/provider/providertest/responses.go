package providertest

import (
	"fmt"
	"strings"
	"testing"
)

// protocolResponses is the OpenAI Responses API (POST /v1/responses).
const protocolResponses = "openai-responses"

// NewResponsesServer serves POST /v1/responses (the OpenAI Responses API)
// from turns. Its Config is API openai with OpenAIAPI responses.
//
// A turn renders as the API streams it: a reasoning item when Thinking or
// Signature is set (Thinking split at blank lines into summary parts, each
// streamed as reasoning_summary_text deltas; Signature the item's
// encrypted_content, default "enc-<request number>"), a message item of
// output_text deltas, and one function_call item per call with its
// arguments in partial-JSON deltas, each item opened by output_item.added
// and closed by output_item.done. Stop "max_tokens" (or
// "max_output_tokens") and "content_filter" end with response.incomplete
// and that reason; anything else with response.completed. Usage carries
// output_tokens_details.reasoning_tokens (one per thinking word) and
// input_tokens_details.cached_tokens (CacheReadTokens). StreamError sends an error event
// (code ErrorType, default server_error); HTTP errors are OpenAI's JSON.
func NewResponsesServer(t testing.TB, turns ...Turn) *Server {
	return newServer(t, protocolResponses, turns)
}

// responsesFrames renders a turn as Responses API stream events. contentEnd
// is the index of the first frame after the output items.
func responsesFrames(t Turn, n int) (frames []string, contentEnd int) {
	t = defaults(t)
	seq := 0
	ev := func(name string, data map[string]any) {
		data["type"] = name
		data["sequence_number"] = seq
		seq++
		frames = append(frames, "event: "+name+"\ndata: "+mustJSON(data)+"\n\n")
	}
	respID := fmt.Sprintf("resp_%02d", n)
	response := func(status string, output []any, usage any) map[string]any {
		return map[string]any{
			"id": respID, "object": "response", "created_at": 1700000000, "status": status, "model": Model,
			"error": nil, "incomplete_details": nil, "output": output, "parallel_tool_calls": true,
			"store": false, "text": map[string]any{"format": map[string]any{"type": "text"}}, "tool_choice": "auto",
			"tools": []any{}, "truncation": "disabled", "usage": usage, "metadata": map[string]any{},
		}
	}
	ev("response.created", map[string]any{"response": response("in_progress", []any{}, nil)})
	ev("response.in_progress", map[string]any{"response": response("in_progress", []any{}, nil)})

	var output []any
	if t.Thinking != "" || t.Signature != "" {
		idx, id := len(output), fmt.Sprintf("rs_%02d", n)
		sig := t.Signature
		if sig == "" {
			sig = fmt.Sprintf("enc-%d", n)
		}
		ev("response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{"id": id, "type": "reasoning", "summary": []any{}}})
		var summary []any
		for si, part := range summaryParts(t.Thinking) {
			at := map[string]any{"item_id": id, "output_index": idx, "summary_index": si}
			ev("response.reasoning_summary_part.added", with(at, "part", map[string]any{"type": "summary_text", "text": ""}))
			for _, w := range words(part) {
				ev("response.reasoning_summary_text.delta", with(with(at, "delta", w), "obfuscation", "x"))
			}
			ev("response.reasoning_summary_text.done", with(at, "text", part))
			ev("response.reasoning_summary_part.done", with(at, "part", map[string]any{"type": "summary_text", "text": part}))
			summary = append(summary, map[string]any{"type": "summary_text", "text": part})
		}
		item := map[string]any{"id": id, "type": "reasoning", "summary": orEmpty(summary), "encrypted_content": sig}
		ev("response.output_item.done", map[string]any{"output_index": idx, "item": item})
		output = append(output, item)
	}
	if t.Text != "" {
		idx, id := len(output), fmt.Sprintf("msg_%02d", n)
		at := map[string]any{"item_id": id, "output_index": idx, "content_index": 0}
		ev("response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{
			"id": id, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}})
		ev("response.content_part.added", with(at, "part", map[string]any{"type": "output_text", "annotations": []any{}, "logprobs": []any{}, "text": ""}))
		for _, w := range words(t.Text) {
			ev("response.output_text.delta", with(with(at, "delta", w), "logprobs", []any{}))
		}
		part := map[string]any{"type": "output_text", "annotations": []any{}, "logprobs": []any{}, "text": t.Text}
		ev("response.output_text.done", with(with(at, "text", t.Text), "logprobs", []any{}))
		ev("response.content_part.done", with(at, "part", part))
		item := map[string]any{"id": id, "type": "message", "status": "completed", "role": "assistant", "content": []any{part}}
		ev("response.output_item.done", map[string]any{"output_index": idx, "item": item})
		output = append(output, item)
	}
	for i, c := range t.ToolCalls {
		idx, id := len(output), fmt.Sprintf("fc_%02d_%02d", n, i)
		cid := c.ID
		if cid == "" {
			cid = fmt.Sprintf("call_%02d_%02d", n, i)
		}
		args := inputJSON(c.Input)
		at := map[string]any{"item_id": id, "output_index": idx}
		ev("response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{
			"id": id, "type": "function_call", "status": "in_progress", "arguments": "", "call_id": cid, "name": c.Name}})
		for _, p := range pieces(args) {
			ev("response.function_call_arguments.delta", with(with(at, "delta", p), "obfuscation", "x"))
		}
		ev("response.function_call_arguments.done", with(with(at, "arguments", args), "name", c.Name))
		item := map[string]any{"id": id, "type": "function_call", "status": "completed", "arguments": args, "call_id": cid, "name": c.Name}
		ev("response.output_item.done", map[string]any{"output_index": idx, "item": item})
		output = append(output, item)
	}
	contentEnd = len(frames)
	if t.StreamError != "" {
		code := t.ErrorType
		if code == "" {
			code = "server_error"
		}
		ev("error", map[string]any{"code": code, "message": t.StreamError, "param": nil})
		return frames, contentEnd
	}
	usage := map[string]any{
		"input_tokens": t.InputTokens, "input_tokens_details": map[string]any{"cached_tokens": t.CacheReadTokens},
		"output_tokens": t.OutputTokens, "output_tokens_details": map[string]any{"reasoning_tokens": len(words(t.Thinking))},
		"total_tokens": t.InputTokens + t.OutputTokens,
	}
	final := response("completed", orEmpty(output), usage)
	switch t.Stop {
	case "max_tokens", "max_output_tokens", "content_filter":
		reason := t.Stop
		if reason == "max_tokens" {
			reason = "max_output_tokens"
		}
		final["status"], final["incomplete_details"] = "incomplete", map[string]any{"reason": reason}
		ev("response.incomplete", map[string]any{"response": final})
	default:
		ev("response.completed", map[string]any{"response": final})
	}
	return frames, contentEnd
}

// summaryParts splits thinking into reasoning summary parts at blank lines.
func summaryParts(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// with is a copy of m with k set to v.
func with(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for mk, mv := range m {
		out[mk] = mv
	}
	out[k] = v
	return out
}

func orEmpty(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}
