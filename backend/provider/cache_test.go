package provider_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// Cache figures from both wires: Anthropic counts the uncached rest, reads
// and writes apart (InputTokens is their sum); OpenAI's prompt_tokens
// already include the cached ones.
func TestCacheUsageFromBothWires(t *testing.T) {
	tests := []struct {
		name  string
		proto string
		turn  providertest.Turn
		want  provider.Usage
	}{
		{"anthropic read and write", provider.APIAnthropic,
			providertest.Turn{Text: "ok", InputTokens: 100, CacheReadTokens: 3000, CacheWriteTokens: 500, OutputTokens: 7},
			provider.Usage{InputTokens: 3600, OutputTokens: 7, CacheReadTokens: 3000, CacheWriteTokens: 500}},
		{"anthropic no cache", provider.APIAnthropic,
			providertest.Turn{Text: "ok", InputTokens: 100, OutputTokens: 7},
			provider.Usage{InputTokens: 100, OutputTokens: 7}},
		{"openai cached", provider.APIOpenAI,
			providertest.Turn{Text: "ok", InputTokens: 3600, CacheReadTokens: 3000, OutputTokens: 7},
			provider.Usage{InputTokens: 3600, OutputTokens: 7, CacheReadTokens: 3000}},
		{"openai no details", provider.APIOpenAI,
			providertest.Turn{Text: "ok", InputTokens: 3600, OutputTokens: 7},
			provider.Usage{InputTokens: 3600, OutputTokens: 7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, tc.proto, tc.turn)
			r := stream(t, newProvider(t, srv.Config()), provider.Request{Messages: userSays("hi")})
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.resp.Usage != tc.want {
				t.Errorf("usage %+v, want %+v", r.resp.Usage, tc.want)
			}
		})
	}
}

func TestUsagePlus(t *testing.T) {
	a := provider.Usage{InputTokens: 1, OutputTokens: 2, CacheReadTokens: 3, CacheWriteTokens: 4}
	b := provider.Usage{InputTokens: 10, OutputTokens: 20, CacheReadTokens: 30, CacheWriteTokens: 40}
	if got, want := a.Plus(b), (provider.Usage{InputTokens: 11, OutputTokens: 22, CacheReadTokens: 33, CacheWriteTokens: 44}); got != want {
		t.Errorf("Plus = %+v, want %+v", got, want)
	}
}

func TestAnthropicMinCacheTokens(t *testing.T) {
	for model, want := range map[string]int{
		"claude-sonnet-4-5":         1024,
		"claude-opus-4-1-20250805":  1024,
		"claude-3-5-haiku-20241022": 2048,
		"claude-3-haiku-20240307":   2048,
		"claude-haiku-4-5":          4096,
		"claude-opus-4-5-20251101":  4096,
		"claude-opus-4-6":           4096,
		"some-proxy-model":          1024,
	} {
		if got := provider.AnthropicMinCacheTokens(model); got != want {
			t.Errorf("%s: %d, want %d", model, got, want)
		}
	}
}

func userSays(text string) []provider.Message {
	return []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: text}}}}
}

// cacheTools are tool definitions of about chars characters in all.
func cacheTools(chars int) []provider.ToolDef {
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)
	var out []provider.ToolDef
	for _, name := range []string{"Read", "Grep", "Edit"} {
		out = append(out, provider.ToolDef{Name: name, Description: name + " " + strings.Repeat("does its job well. ", chars/3/19), Schema: schema})
	}
	return out
}

// sessionRequests are three consecutive requests of one session: each adds
// the model's tool call and its result to the one before.
func sessionRequests(system string, tools []provider.ToolDef) []provider.Request {
	msgs := userSays("Look at the code in a.go and b.go.")
	var out []provider.Request
	for i := range 3 {
		out = append(out, provider.Request{System: system, Tools: tools, Messages: append([]provider.Message(nil), msgs...), CacheKey: "session-1"})
		id := fmt.Sprintf("toolu_%d", i)
		msgs = append(msgs,
			provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{
				{Type: provider.BlockText, Text: fmt.Sprintf("Step %d.", i+1)},
				{Type: provider.BlockToolUse, ToolUseID: id, ToolName: "Read", Input: json.RawMessage(`{"path":"a.go"}`)}}},
			provider.Message{Role: provider.RoleUser, Content: []provider.Block{
				{Type: provider.BlockToolResult, ToolUseID: id, Text: strings.Repeat(fmt.Sprintf("line %d of the file\n", i), 5)}}})
	}
	return out
}

// sendAll streams reqs to a fresh server and returns the bodies it got.
func sendAll(t *testing.T, proto string, cfg func(provider.Config) provider.Config, reqs []provider.Request) [][]byte {
	t.Helper()
	srv := newServer(t, proto, providertest.Turn{Text: "ok", Times: -1})
	c := srv.Config()
	if cfg != nil {
		c = cfg(c)
	}
	p := newProvider(t, c)
	var out [][]byte
	for _, req := range reqs {
		if r := stream(t, p, req); r.err != nil {
			t.Fatal(r.err)
		}
	}
	for _, r := range srv.Requests() {
		out = append(out, r.Body)
	}
	return out
}

var cacheMark = regexp.MustCompile(`,?"cache_control":\{"type":"ephemeral"\}`)

// anthropicPrompt is a Messages request in the order the API reads (and
// caches) it: tools, system, then each message; cache markers are taken
// out (they are not part of the cached content). rolling is the index of
// the last message carrying a marker (-1 if none).
func anthropicPrompt(t *testing.T, body []byte) (parts [][]byte, rolling int) {
	t.Helper()
	var req struct {
		Tools    json.RawMessage   `json:"tools"`
		System   json.RawMessage   `json:"system"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	rolling = -1
	parts = [][]byte{cacheMark.ReplaceAll(req.Tools, nil), cacheMark.ReplaceAll(req.System, nil)}
	for i, m := range req.Messages {
		if cacheMark.Match(m) {
			rolling = i
		}
		parts = append(parts, cacheMark.ReplaceAll(m, nil))
	}
	return parts, rolling
}

// layout summarises where a Messages request puts its cache breakpoints.
func layout(t *testing.T, body []byte) string {
	t.Helper()
	type block struct {
		Type         string          `json:"type"`
		Name         string          `json:"name"`
		CacheControl json.RawMessage `json:"cache_control"`
	}
	var req struct {
		Tools    []block `json:"tools"`
		System   []block `json:"system"`
		Messages []struct {
			Role    string  `json:"role"`
			Content []block `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	line := func(where string, bl block) {
		b.WriteString(where)
		if bl.Name != "" {
			b.WriteString(" " + bl.Name)
		}
		if bl.Type != "" {
			b.WriteString(" " + bl.Type)
		}
		if len(bl.CacheControl) > 0 {
			b.WriteString(" cache_control=" + string(bl.CacheControl))
		}
		b.WriteString("\n")
	}
	for i, bl := range req.Tools {
		line(fmt.Sprintf("tools[%d]", i), bl)
	}
	for i, bl := range req.System {
		line(fmt.Sprintf("system[%d]", i), bl)
	}
	for i, m := range req.Messages {
		for j, bl := range m.Content {
			line(fmt.Sprintf("messages[%d] %s [%d]", i, m.Role, j), bl)
		}
	}
	return b.String()
}

// The Messages request marks the last tool, the system prompt and the
// latest two user messages, never more than 4 blocks, and three
// consecutive requests of a session share their prompt up to each one's
// rolling breakpoint.
func TestAnthropicCacheBreakpoints(t *testing.T) {
	reqs := sessionRequests(strings.Repeat("You are a careful coding agent. ", 60), cacheTools(4400))
	bodies := sendAll(t, provider.APIAnthropic, nil, reqs)
	var all strings.Builder
	for i, body := range bodies {
		if n := bytes.Count(body, []byte(`"cache_control"`)); n > 4 {
			t.Errorf("request %d has %d breakpoints; the API allows 4", i+1, n)
		}
		fmt.Fprintf(&all, "# request %d\n%s\n", i+1, layout(t, body))
	}
	golden.Assert(t, filepath.Join("testdata", "cache_anthropic_layout.golden"), all.String())

	prompts := make([][]byte, len(bodies))
	for i, body := range bodies {
		parts, _ := anthropicPrompt(t, body)
		prompts[i] = bytes.Join(parts, []byte("\n"))
	}
	for i, body := range bodies {
		parts, rolling := anthropicPrompt(t, body)
		if rolling < 0 {
			t.Fatalf("request %d has no rolling breakpoint", i+1)
		}
		prefix := bytes.Join(parts[:2+rolling+1], []byte("\n"))
		for j := i + 1; j < len(bodies); j++ {
			if !bytes.HasPrefix(prompts[j], prefix) {
				t.Errorf("request %d does not start with request %d's prompt up to its rolling breakpoint", j+1, i+1)
			}
		}
	}
}

// Below the model's minimum cacheable length no block is marked: the
// breakpoint would cache nothing. The same prompt is long enough for one
// model and too short for another.
func TestAnthropicCacheBelowMinimum(t *testing.T) {
	tests := []struct {
		name   string
		model  string
		system string
		tools  []provider.ToolDef
		marks  int
	}{
		{"short prompt", "claude-sonnet-4-5", "You are terse.", cacheTools(300), 0},
		{"long for sonnet", "claude-sonnet-4-5", strings.Repeat("Be careful. ", 500), nil, 2}, // system and the user message
		{"short for haiku", "claude-3-5-haiku-20241022", strings.Repeat("Be careful. ", 500), nil, 0},
		{"tools alone too short", "claude-sonnet-4-5", strings.Repeat("Be careful. ", 400), cacheTools(900), 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bodies := sendAll(t, provider.APIAnthropic, func(c provider.Config) provider.Config { c.Model = tc.model; return c },
				[]provider.Request{{System: tc.system, Tools: tc.tools, Messages: userSays("hi")}})
			if n := bytes.Count(bodies[0], []byte(`"cache_control"`)); n != tc.marks {
				t.Errorf("%d breakpoints, want %d:\n%s", n, tc.marks, layout(t, bodies[0]))
			}
			if tc.tools != nil && tc.marks > 0 && strings.Contains(layout(t, bodies[0]), "tools[2] Edit cache_control") {
				t.Error("the tools alone are below the minimum but carry a breakpoint")
			}
		})
	}
}

// OpenAI caches a prefix automatically: the request keeps it stable (the
// system message first, the history as sent before) and names the session
// in prompt_cache_key where the server takes it.
func TestOpenAIPromptCacheKey(t *testing.T) {
	on, off := true, false
	tests := []struct {
		name     string
		api      string
		choice   *bool
		cacheKey string
		want     any
	}{
		{"openai", provider.APIOpenAI, nil, "session-1", "session-1"},
		{"openai without a key", provider.APIOpenAI, nil, "", nil},
		{"openai turned off", provider.APIOpenAI, &off, "session-1", nil},
		{"compatible by default", provider.APIOpenAICompatible, nil, "session-1", nil},
		{"compatible turned on", provider.APIOpenAICompatible, &on, "session-1", "session-1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bodies := sendAll(t, provider.APIOpenAI, func(c provider.Config) provider.Config {
				c.API, c.PromptCacheKey = tc.api, tc.choice
				return c
			}, []provider.Request{{System: "sys", Messages: userSays("hi"), CacheKey: tc.cacheKey}})
			var body map[string]any
			if err := json.Unmarshal(bodies[0], &body); err != nil {
				t.Fatal(err)
			}
			if got := body["prompt_cache_key"]; got != tc.want {
				t.Errorf("prompt_cache_key = %v, want %v", got, tc.want)
			}
		})
	}
}

// Three consecutive Chat Completions requests of a session: each one's
// tools and messages start with the previous one's, byte for byte.
func TestOpenAICachePrefixStable(t *testing.T) {
	reqs := sessionRequests("You are a careful coding agent.", cacheTools(600))
	bodies := sendAll(t, provider.APIOpenAI, nil, reqs)
	prompt := func(body []byte) []byte {
		var req struct {
			Tools          json.RawMessage   `json:"tools"`
			PromptCacheKey string            `json:"prompt_cache_key"`
			Messages       []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatal(err)
		}
		if req.PromptCacheKey != "session-1" {
			t.Errorf("prompt_cache_key %q", req.PromptCacheKey)
		}
		parts := [][]byte{req.Tools}
		for _, m := range req.Messages {
			parts = append(parts, m)
		}
		return bytes.Join(parts, []byte("\n"))
	}
	var all strings.Builder
	for i := range bodies {
		p := prompt(bodies[i])
		fmt.Fprintf(&all, "# request %d: %d bytes\n", i+1, len(p))
		for j := i + 1; j < len(bodies); j++ {
			if !bytes.HasPrefix(prompt(bodies[j]), p) {
				t.Errorf("request %d does not start with request %d's prompt", j+1, i+1)
			}
		}
	}
	var last map[string]any
	if err := json.Unmarshal(bodies[2], &last); err != nil {
		t.Fatal(err)
	}
	delete(last, "tools") // long and fixed; the messages show the layout
	b, _ := json.MarshalIndent(last, "", "  ")
	golden.Assert(t, filepath.Join("testdata", "cache_openai_layout.golden"), all.String()+string(b)+"\n")
}

// The Messages API may repeat the input figures, cumulative, in
// message_delta; they replace message_start's, cache figures included.
func TestAnthropicCacheUsageFromMessageDelta(t *testing.T) {
	raw := "event: message_start\ndata: " + `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}` + "\n\n" +
		"event: content_block_start\ndata: " + `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n" +
		"event: content_block_delta\ndata: " + `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}` + "\n\n" +
		"event: content_block_stop\ndata: " + `{"type":"content_block_stop","index":0}` + "\n\n" +
		"event: message_delta\ndata: " + `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":12,"output_tokens":9,"cache_creation_input_tokens":300,"cache_read_input_tokens":4000}}` + "\n\n" +
		"event: message_stop\ndata: " + `{"type":"message_stop"}` + "\n\n"
	srv := newServer(t, provider.APIAnthropic, providertest.Turn{Raw: raw})
	r := stream(t, newProvider(t, srv.Config()), provider.Request{Messages: userSays("hi")})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if want := (provider.Usage{InputTokens: 4312, OutputTokens: 9, CacheReadTokens: 4000, CacheWriteTokens: 300}); r.resp.Usage != want {
		t.Errorf("usage %+v, want %+v", r.resp.Usage, want)
	}
}
