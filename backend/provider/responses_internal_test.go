package provider

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3/responses"
)

func TestStrictSchema(t *testing.T) {
	for _, tt := range []struct {
		name   string
		schema string
		want   bool
	}{
		{"closed, all required", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`, true},
		{"no properties, closed", `{"type":"object","properties":{},"additionalProperties":false}`, true},
		{"an optional property", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}`, false},
		{"open object", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, false},
		{"additionalProperties true", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":true}`, false},
		{"nested open object", `{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}},"required":["o"],"additionalProperties":false}`, false},
		{"array of closed objects", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false}}},"required":["l"],"additionalProperties":false}`, true},
		{"array of open objects", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"string"}}}}},"required":["l"],"additionalProperties":false}`, false},
		{"anyOf of closed branches", `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["v"],"additionalProperties":false}`, true},
		{"oneOf", `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"],"additionalProperties":false}`, false},
		{"open $defs entry", `{"type":"object","properties":{"v":{"$ref":"#/$defs/d"}},"required":["v"],"additionalProperties":false,"$defs":{"d":{"type":"object","properties":{"x":{"type":"string"}}}}}`, false},
		{"patternProperties", `{"type":"object","properties":{},"additionalProperties":false,"patternProperties":{"^x":{"type":"string"}}}`, false},
	} {
		var v any
		if err := json.Unmarshal([]byte(tt.schema), &v); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := strictSchema(v); got != tt.want {
			t.Errorf("%s: strictSchema = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestOpenAIReasoningModels(t *testing.T) {
	for model, want := range map[string]bool{
		"gpt-5": true, "gpt-5-mini": true, "gpt-5.1-codex": true, "openai/gpt-5": true, "o3": true, "o3-pro": true, "o1": true,
		"o4-mini": true, "codex-mini-latest": true, "gpt-oss-120b": true,
		"gpt-5-chat-latest": false, "gpt-4.1": false, "gpt-4o": false, "o30": false, "llama3.1:8b": false, "": false,
	} {
		if got := openAIReasoning(model); got != want {
			t.Errorf("openAIReasoning(%q) = %v, want %v", model, got, want)
		}
	}
}

// FuzzResponsesReader feeds arbitrary event sequences (one JSON event a
// line) to the stream reader: it never panics, never fails on its own, and
// every finished call's input is JSON.
func FuzzResponsesReader(f *testing.F) {
	f.Add(`{"type":"response.output_item.added","item":{"id":"fc","type":"function_call","call_id":"c","name":"Read"}}
{"type":"response.function_call_arguments.delta","item_id":"fc","delta":"{\"pa"}
{"type":"response.function_call_arguments.delta","item_id":"fc","delta":"th\":1}"}
{"type":"response.output_item.done","item":{"id":"fc","type":"function_call","call_id":"c","name":"Read","arguments":"{\"path\":1}"}}
{"type":"response.completed","response":{"usage":{"input_tokens":3,"output_tokens":2}}}`)
	f.Add(`{"type":"response.output_item.added","item":{"id":"rs","type":"reasoning","summary":[]}}
{"type":"response.reasoning_summary_text.delta","item_id":"rs","summary_index":0,"delta":"a"}
{"type":"response.reasoning_summary_text.delta","item_id":"rs","summary_index":1,"delta":"b"}
{"type":"response.output_item.done","item":{"id":"rs","type":"reasoning","encrypted_content":"e","summary":[{"type":"summary_text","text":"a"}]}}
{"type":"response.output_text.delta","item_id":"m","delta":"hi"}
{"type":"response.incomplete","response":{"incomplete_details":{"reason":"max_output_tokens"}}}`)
	f.Add(`{"type":"response.function_call_arguments.delta","item_id":"nope","delta":"x"}
{"type":"response.output_item.done","item":{"id":"fc2","type":"function_call","arguments":"not json"}}`)
	f.Fuzz(func(t *testing.T, data string) {
		r := newResponsesReader(nil)
		for _, line := range strings.Split(data, "\n") {
			var ev responses.ResponseStreamEventUnion
			if json.Unmarshal([]byte(line), &ev) != nil {
				continue
			}
			done, err := r.event(ev)
			if err != nil {
				t.Fatalf("event %s: %v", line, err)
			}
			if done {
				break
			}
		}
		for _, b := range r.acc.message().Content {
			if b.Type == BlockToolUse && !json.Valid(b.Input) {
				t.Fatalf("call %s has input %q", b.ToolUseID, b.Input)
			}
		}
	})
}
