package providertest

import "fmt"

// anthropicFrames renders a turn as Messages API stream events. contentEnd
// is the index of the first frame after the content blocks.
func anthropicFrames(t Turn, n int) (frames []string, contentEnd int) {
	t = defaults(t)
	ev := func(name string, data any) {
		frames = append(frames, "event: "+name+"\ndata: "+mustJSON(data)+"\n\n")
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%02d", n), "type": "message", "role": "assistant", "model": Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": t.InputTokens, "output_tokens": 1, "cache_creation_input_tokens": t.CacheWriteTokens, "cache_read_input_tokens": t.CacheReadTokens},
	}})
	ev("ping", map[string]any{"type": "ping"})
	idx := 0
	block := func(start map[string]any, deltas []map[string]any) {
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": start})
		for _, d := range deltas {
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": d})
		}
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	if t.Thinking != "" {
		sig := t.Signature
		if sig == "" {
			sig = fmt.Sprintf("sig-%d", n)
		}
		var ds []map[string]any
		for _, w := range words(t.Thinking) {
			ds = append(ds, map[string]any{"type": "thinking_delta", "thinking": w})
		}
		ds = append(ds, map[string]any{"type": "signature_delta", "signature": sig})
		block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, ds)
	}
	if t.Text != "" {
		var ds []map[string]any
		for _, w := range words(t.Text) {
			ds = append(ds, map[string]any{"type": "text_delta", "text": w})
		}
		block(map[string]any{"type": "text", "text": ""}, ds)
	}
	for i, c := range t.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("toolu_%02d_%02d", n, i)
		}
		ds := []map[string]any{{"type": "input_json_delta", "partial_json": ""}}
		for _, p := range pieces(inputJSON(c.Input)) {
			ds = append(ds, map[string]any{"type": "input_json_delta", "partial_json": p})
		}
		block(map[string]any{"type": "tool_use", "id": id, "name": c.Name, "input": map[string]any{}}, ds)
	}
	contentEnd = len(frames)
	if t.StreamError != "" {
		typ := t.ErrorType
		if typ == "" {
			typ = "overloaded_error"
		}
		ev("error", map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": t.StreamError}})
		return frames, contentEnd
	}
	ev("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": t.Stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": t.OutputTokens}})
	ev("message_stop", map[string]any{"type": "message_stop"})
	return frames, contentEnd
}

// openaiFrames renders a turn as Chat Completions chunks.
func openaiFrames(t Turn, n int, includeUsage bool) (frames []string, contentEnd int) {
	t = defaults(t)
	id := fmt.Sprintf("chatcmpl-%02d", n)
	chunk := func(delta map[string]any, finish any) string {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": Model,
			"system_fingerprint": "fp_providertest",
			"choices":            []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}}
		if includeUsage {
			c["usage"] = nil
		}
		return "data: " + mustJSON(c) + "\n\n"
	}
	frames = append(frames, chunk(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil))
	for _, w := range words(t.Thinking) {
		frames = append(frames, chunk(map[string]any{"reasoning_content": w}, nil))
	}
	for _, w := range words(t.Text) {
		frames = append(frames, chunk(map[string]any{"content": w}, nil))
	}
	var perCall [][]string
	for i, c := range t.ToolCalls {
		cid := c.ID
		if cid == "" {
			cid = fmt.Sprintf("call_%02d_%02d", n, i)
		}
		fs := []string{chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": cid, "type": "function", "function": map[string]any{"name": c.Name, "arguments": ""}}}}, nil)}
		for _, p := range pieces(inputJSON(c.Input)) {
			fs = append(fs, chunk(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": p}}}}, nil))
		}
		perCall = append(perCall, fs)
	}
	if t.InterleaveCalls {
		for k := 0; ; k++ {
			more := false
			for _, fs := range perCall {
				if k < len(fs) {
					frames = append(frames, fs[k])
					more = true
				}
			}
			if !more {
				break
			}
		}
	} else {
		for _, fs := range perCall {
			frames = append(frames, fs...)
		}
	}
	contentEnd = len(frames)
	if t.StreamError != "" {
		typ := t.ErrorType
		if typ == "" {
			typ = "server_error"
		}
		frames = append(frames, "data: "+mustJSON(map[string]any{"error": map[string]any{"message": t.StreamError, "type": typ, "param": nil, "code": nil}})+"\n\n")
		return frames, contentEnd
	}
	finish := t.Stop
	switch t.Stop {
	case "end_turn":
		finish = "stop"
	case "tool_use":
		finish = "tool_calls"
	case "max_tokens":
		finish = "length"
	}
	frames = append(frames, chunk(map[string]any{}, finish))
	if includeUsage {
		usage := map[string]any{"prompt_tokens": t.InputTokens, "completion_tokens": t.OutputTokens, "total_tokens": t.InputTokens + t.OutputTokens}
		if t.CacheReadTokens > 0 {
			usage["prompt_tokens_details"] = map[string]any{"cached_tokens": t.CacheReadTokens, "audio_tokens": 0}
		}
		frames = append(frames, "data: "+mustJSON(map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": Model,
			"choices": []any{}, "usage": usage})+"\n\n")
	}
	frames = append(frames, "data: [DONE]\n\n")
	return frames, contentEnd
}
