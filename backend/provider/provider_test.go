package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

var protocols = []string{provider.APIAnthropic, provider.APIOpenAI}

func newServer(t *testing.T, proto string, turns ...providertest.Turn) *providertest.Server {
	if proto == provider.APIAnthropic {
		return providertest.NewAnthropicServer(t, turns...)
	}
	return providertest.NewOpenAIServer(t, turns...)
}

func newProvider(t *testing.T, cfg provider.Config, opts ...provider.Option) provider.Provider {
	t.Helper()
	p, err := provider.New(cfg, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

type run struct {
	events []provider.Event
	resp   provider.Response
	err    error
}

func stream(t *testing.T, p provider.Provider, req provider.Request) run {
	t.Helper()
	var r run
	r.resp, r.err = p.Stream(context.Background(), req, func(e provider.Event) error {
		r.events = append(r.events, e)
		return nil
	})
	return r
}

func (r run) text(typ provider.EventType) string {
	var b strings.Builder
	for _, e := range r.events {
		if e.Type == typ {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func (r run) types() []provider.EventType {
	var out []provider.EventType
	for _, e := range r.events {
		if len(out) > 0 && out[len(out)-1] == e.Type && (e.Type == provider.EventText || e.Type == provider.EventThinking || e.Type == provider.EventToolUseDelta) {
			continue
		}
		out = append(out, e.Type)
	}
	return out
}

func wantCode(t *testing.T, err error, code errs.Code) *errs.Error {
	t.Helper()
	if !errs.Is(err, code) {
		t.Fatalf("error = %v, want code %s", err, code)
	}
	e := errs.As(err)
	if strings.Contains(err.Error(), providertest.Key) || strings.Contains(fmt.Sprint(e.Details), providertest.Key) {
		t.Fatalf("the key leaked into the error: %v", err)
	}
	return e
}

// checkNoKeyLeak asserts the key travels only in the auth header.
func checkNoKeyLeak(t *testing.T, proto string, reqs []providertest.Request) {
	t.Helper()
	for i, r := range reqs {
		if strings.Contains(string(r.Body), providertest.Key) || strings.Contains(r.Path, providertest.Key) {
			t.Errorf("request %d: the key is in the body or path", i)
		}
		for name, vals := range r.Header {
			for _, v := range vals {
				if !strings.Contains(v, providertest.Key) {
					continue
				}
				// Both SDKs send the key as a bearer token (anthropic-sdk-go
				// v2 does too); x-api-key would be fine for Anthropic.
				auth := (http.CanonicalHeaderKey(name) == "Authorization" && v == "Bearer "+providertest.Key) ||
					(proto == provider.APIAnthropic && http.CanonicalHeaderKey(name) == "X-Api-Key" && v == providertest.Key)
				if !auth {
					t.Errorf("request %d: the key is in header %s", i, name)
				}
			}
		}
		if r.Header.Get("Authorization") != "Bearer "+providertest.Key && r.Header.Get("X-Api-Key") != providertest.Key {
			t.Errorf("request %d: no key in the auth header", i)
		}
	}
}

func jsonEq(t *testing.T, what string, got any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad want: %v", what, err)
	}
	g, _ := json.Marshal(got)
	var gv any
	_ = json.Unmarshal(g, &gv)
	if !reflect.DeepEqual(gv, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, g, want)
	}
}

var readTool = provider.ToolDef{
	Name:        "Read",
	Description: "Read a file.",
	Schema:      json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`),
}

func TestPlainText(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			srv := newServer(t, proto, providertest.Turn{Text: "Hello there, friend.", InputTokens: 42, OutputTokens: 7})
			cfg := srv.Config()
			temp := 0.25
			cfg.Temperature = &temp
			cfg.MaxOutputTokens = 1234
			p := newProvider(t, cfg)
			r := stream(t, p, provider.Request{
				System:   "You are terse.",
				Messages: []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "hi"}}}},
			})
			if r.err != nil {
				t.Fatal(r.err)
			}
			if n := len(r.events); n != 3 {
				t.Errorf("want 3 word deltas, got %d: %+v", n, r.events)
			}
			if got := r.text(provider.EventText); got != "Hello there, friend." {
				t.Errorf("streamed text %q", got)
			}
			want := provider.Response{
				Message:    provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{{Type: provider.BlockText, Text: "Hello there, friend."}}},
				StopReason: provider.StopEndTurn,
				Usage:      provider.Usage{InputTokens: 42, OutputTokens: 7},
			}
			if !reflect.DeepEqual(r.resp, want) {
				t.Errorf("response %+v, want %+v", r.resp, want)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			body := reqs[0].JSON()
			if body["model"] != providertest.Model || body["stream"] != true || body["temperature"] != 0.25 {
				t.Errorf("model/stream/temperature: %v %v %v", body["model"], body["stream"], body["temperature"])
			}
			if proto == provider.APIAnthropic {
				jsonEq(t, "system", body["system"], `[{"type":"text","text":"You are terse."}]`)
				jsonEq(t, "messages", body["messages"], `[{"role":"user","content":[{"type":"text","text":"hi"}]}]`)
				if body["max_tokens"] != 1234.0 {
					t.Errorf("max_tokens %v", body["max_tokens"])
				}
				if reqs[0].Header.Get("Anthropic-Version") == "" {
					t.Error("no anthropic-version header")
				}
			} else {
				jsonEq(t, "messages", body["messages"], `[{"role":"system","content":"You are terse."},{"role":"user","content":"hi"}]`)
				if body["max_completion_tokens"] != 1234.0 {
					t.Errorf("max_completion_tokens %v", body["max_completion_tokens"])
				}
				jsonEq(t, "stream_options", body["stream_options"], `{"include_usage":true}`)
			}
			checkNoKeyLeak(t, proto, reqs)
			if info := p.Info(); info.Model != providertest.Model || info.API != proto || info.MaxOutputTokens != 1234 || info.ContextWindow == 0 {
				t.Errorf("Info %+v", info)
			}
		})
	}
}

func TestToolUseAndResultMapping(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			srv := newServer(t, proto,
				providertest.Turn{Text: "Let me look.", ToolCalls: []providertest.Call{{ID: "call_a", Name: "Read", Input: map[string]any{"path": "src/main.go"}}}},
				providertest.Turn{Text: "It is empty."},
			)
			p := newProvider(t, srv.Config())
			history := []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "read main"}}}}
			r := stream(t, p, provider.Request{System: "sys", Messages: history, Tools: []provider.ToolDef{readTool}})
			if r.err != nil {
				t.Fatal(r.err)
			}
			wantTypes := []provider.EventType{provider.EventText, provider.EventToolUseStart, provider.EventToolUseDelta, provider.EventToolUseFinish}
			if got := r.types(); !reflect.DeepEqual(got, wantTypes) {
				t.Errorf("event types %v, want %v", got, wantTypes)
			}
			var deltas string
			for _, e := range r.events {
				switch e.Type {
				case provider.EventToolUseStart:
					if e.ToolUseID != "call_a" || e.ToolName != "Read" {
						t.Errorf("start %+v", e)
					}
				case provider.EventToolUseDelta:
					deltas += e.Text
				case provider.EventToolUseFinish:
					if e.ToolUseID != "call_a" || e.ToolName != "Read" || string(e.Input) != `{"path":"src/main.go"}` {
						t.Errorf("done %+v (input %s)", e, e.Input)
					}
				}
			}
			if deltas != `{"path":"src/main.go"}` {
				t.Errorf("partial JSON joined = %q", deltas)
			}
			if r.resp.StopReason != provider.StopToolUse {
				t.Errorf("stop %s", r.resp.StopReason)
			}
			wantMsg := provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{
				{Type: provider.BlockText, Text: "Let me look."},
				{Type: provider.BlockToolUse, ToolUseID: "call_a", ToolName: "Read", Input: json.RawMessage(`{"path":"src/main.go"}`)},
			}}
			if !reflect.DeepEqual(r.resp.Message, wantMsg) {
				t.Errorf("message %+v", r.resp.Message)
			}

			history = append(history, r.resp.Message, provider.Message{Role: provider.RoleUser, Content: []provider.Block{
				{Type: provider.BlockToolResult, ToolUseID: "call_a", Text: "PATH_OUTSIDE_WORKSPACE: no", IsError: true},
				{Type: provider.BlockText, Text: "try again"},
			}})
			r = stream(t, p, provider.Request{System: "sys", Messages: history, Tools: []provider.ToolDef{readTool}})
			if r.err != nil || r.resp.StopReason != provider.StopEndTurn {
				t.Fatalf("second turn: %v %s", r.err, r.resp.StopReason)
			}
			reqs := srv.Requests()
			body := reqs[1].JSON()
			if proto == provider.APIAnthropic {
				jsonEq(t, "tools", body["tools"], `[{"name":"Read","description":"Read a file.","input_schema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}}]`)
				jsonEq(t, "messages", body["messages"], `[
					{"role":"user","content":[{"type":"text","text":"read main"}]},
					{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"call_a","name":"Read","input":{"path":"src/main.go"}}]},
					{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_a","content":[{"type":"text","text":"PATH_OUTSIDE_WORKSPACE: no"}],"is_error":true},{"type":"text","text":"try again"}]}]`)
			} else {
				jsonEq(t, "tools", body["tools"], `[{"type":"function","function":{"name":"Read","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}}}]`)
				jsonEq(t, "messages", body["messages"], `[
					{"role":"system","content":"sys"},
					{"role":"user","content":"read main"},
					{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"call_a","type":"function","function":{"name":"Read","arguments":"{\"path\":\"src/main.go\"}"}}]},
					{"role":"tool","tool_call_id":"call_a","content":"[tool error] PATH_OUTSIDE_WORKSPACE: no"},
					{"role":"user","content":"try again"}]`)
			}
			checkNoKeyLeak(t, proto, reqs)
		})
	}
}

func TestParallelToolCalls(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			srv := newServer(t, proto, providertest.Turn{
				InterleaveCalls: true,
				ToolCalls: []providertest.Call{
					{ID: "c1", Name: "Read", Input: map[string]any{"path": "a.go"}},
					{ID: "c2", Name: "Grep", Input: map[string]any{"pattern": "func main", "path": "."}},
				},
			})
			p := newProvider(t, srv.Config())
			r := stream(t, p, provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "x"}}}}})
			if r.err != nil {
				t.Fatal(r.err)
			}
			deltas := map[string]string{}
			var starts, dones []string
			for _, e := range r.events {
				switch e.Type {
				case provider.EventToolUseStart:
					starts = append(starts, e.ToolUseID)
				case provider.EventToolUseDelta:
					deltas[e.ToolUseID] += e.Text
				case provider.EventToolUseFinish:
					dones = append(dones, e.ToolUseID+"="+string(e.Input))
				}
			}
			if !reflect.DeepEqual(starts, []string{"c1", "c2"}) {
				t.Errorf("starts %v", starts)
			}
			wantDone := []string{`c1={"path":"a.go"}`, `c2={"path":".","pattern":"func main"}`}
			if !reflect.DeepEqual(dones, wantDone) {
				t.Errorf("dones %v", dones)
			}
			if deltas["c1"] != `{"path":"a.go"}` || deltas["c2"] != `{"path":".","pattern":"func main"}` {
				t.Errorf("deltas %v", deltas)
			}
			if proto == provider.APIOpenAI {
				// Interleaved: the second call starts before the first one's
				// arguments are complete.
				secondStart, firstLastDelta := -1, -1
				for i, e := range r.events {
					if e.Type == provider.EventToolUseStart && e.ToolUseID == "c2" {
						secondStart = i
					}
					if e.Type == provider.EventToolUseDelta && e.ToolUseID == "c1" {
						firstLastDelta = i
					}
				}
				if secondStart > firstLastDelta {
					t.Errorf("calls were not interleaved: %+v", r.events)
				}
			}
			c := r.resp.Message.Content
			if len(c) != 2 || c[0].ToolUseID != "c1" || c[1].ToolUseID != "c2" || c[1].ToolName != "Grep" {
				t.Errorf("blocks %+v", c)
			}
			if r.resp.StopReason != provider.StopToolUse {
				t.Errorf("stop %s", r.resp.StopReason)
			}
		})
	}
}

func TestThinkingSignatureRoundTrip(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{Thinking: "The user wants a file.", Signature: "EqQBsig==", Text: "Reading.", ToolCalls: []providertest.Call{{ID: "t1", Name: "Read", Input: `{"path":"x"}`}}},
		providertest.Turn{Text: "Done."},
	)
	cfg := srv.Config()
	cfg.Thinking = true
	cfg.MaxOutputTokens = 2000
	temp := 0.5
	cfg.Temperature = &temp
	p := newProvider(t, cfg)
	msgs := []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "go"}}}}
	r := stream(t, p, provider.Request{Messages: msgs})
	if r.err != nil {
		t.Fatal(r.err)
	}
	want := []provider.EventType{provider.EventThinking, provider.EventText, provider.EventToolUseStart, provider.EventToolUseDelta, provider.EventToolUseFinish}
	if got := r.types(); !reflect.DeepEqual(got, want) {
		t.Errorf("types %v", got)
	}
	if got := r.text(provider.EventThinking); got != "The user wants a file." {
		t.Errorf("thinking %q", got)
	}
	th := r.resp.Message.Content[0]
	if th.Type != provider.BlockThinking || th.Text != "The user wants a file." || th.Signature != "EqQBsig==" {
		t.Errorf("thinking block %+v", th)
	}
	body := srv.Requests()[0].JSON()
	jsonEq(t, "thinking", body["thinking"], `{"type":"enabled","budget_tokens":4096}`)
	if body["max_tokens"].(float64) <= 4096 {
		t.Errorf("max_tokens %v must exceed the budget", body["max_tokens"])
	}
	if _, ok := body["temperature"]; ok {
		t.Error("temperature must not be sent with thinking")
	}

	msgs = append(msgs, r.resp.Message, provider.Message{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockToolResult, ToolUseID: "t1", Text: "data"}}})
	if r = stream(t, p, provider.Request{Messages: msgs}); r.err != nil {
		t.Fatal(r.err)
	}
	body = srv.Requests()[1].JSON()
	jsonEq(t, "assistant turn", body["messages"].([]any)[1], `{"role":"assistant","content":[
		{"type":"thinking","thinking":"The user wants a file.","signature":"EqQBsig=="},
		{"type":"text","text":"Reading."},
		{"type":"tool_use","id":"t1","name":"Read","input":{"path":"x"}}]}`)
	jsonEq(t, "tool result", body["messages"].([]any)[2], `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"data"}]}]}`)
}

func TestOpenAIReasoningIsThinkingAndStaysLocal(t *testing.T) {
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Thinking: "hmm ok", Text: "Yes."}, providertest.Turn{Text: "Again."})
	cfg := srv.Config()
	cfg.API = provider.APIOpenAICompatible
	p := newProvider(t, cfg)
	msgs := []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "q"}}}}
	r := stream(t, p, provider.Request{Messages: msgs, MaxTokens: 99})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.text(provider.EventThinking) != "hmm ok" || len(r.resp.Message.Content) != 2 || r.resp.Message.Content[0].Type != provider.BlockThinking {
		t.Errorf("events %+v message %+v", r.events, r.resp.Message)
	}
	if body := srv.Requests()[0].JSON(); body["max_tokens"] != 99.0 || body["max_completion_tokens"] != nil {
		t.Errorf("compatible servers get max_tokens: %v / %v", body["max_tokens"], body["max_completion_tokens"])
	}
	msgs = append(msgs, r.resp.Message, provider.Message{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "again"}}})
	if r = stream(t, p, provider.Request{Messages: msgs}); r.err != nil {
		t.Fatal(r.err)
	}
	jsonEq(t, "messages", srv.Requests()[1].JSON()["messages"], `[{"role":"user","content":"q"},{"role":"assistant","content":"Yes."},{"role":"user","content":"again"}]`)
}

func TestMaxTokensStop(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			srv := newServer(t, proto, providertest.Turn{Text: "A long answer that", ToolCalls: []providertest.Call{{ID: "w", Name: "Write", Input: `{"path":"a","content":"x"}`}}, Stop: "max_tokens"})
			r := stream(t, newProvider(t, srv.Config()), provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "x"}}}}})
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.resp.StopReason != provider.StopMaxTokens {
				t.Errorf("stop %s", r.resp.StopReason)
			}
			if len(r.resp.Message.Content) != 2 || r.resp.Message.Content[1].ToolUseID != "w" {
				t.Errorf("the cut call must be in the message (for the re-issue result): %+v", r.resp.Message.Content)
			}
		})
	}
}

func TestRateLimitRetryAfterThenSuccess(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			srv := newServer(t, proto,
				providertest.Turn{Status: 429, Header: map[string]string{"retry-after": "2"}},
				providertest.Turn{Status: 429, Header: map[string]string{"retry-after-ms": "1500"}},
				providertest.Turn{Status: 529},
				providertest.Turn{Text: "finally"},
			)
			var sl providertest.Sleeps
			r := stream(t, newProvider(t, srv.Config(), provider.WithSleeper(sl.Sleep)), provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "x"}}}}})
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.text(provider.EventText) != "finally" || srv.Count() != 4 {
				t.Errorf("text %q after %d requests", r.text(provider.EventText), srv.Count())
			}
			want := []time.Duration{2 * time.Second, 1500 * time.Millisecond, 2 * time.Second}
			if got := sl.Durations(); !reflect.DeepEqual(got, want) {
				t.Errorf("waits %v, want %v (retry-after, retry-after-ms, then backoff)", got, want)
			}
		})
	}
}

func TestRateLimitedForever(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			srv := newServer(t, proto, providertest.Turn{Status: 429, ErrorMessage: "slow down", Times: -1})
			var sl providertest.Sleeps
			r := stream(t, newProvider(t, srv.Config(), provider.WithSleeper(sl.Sleep)), provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: "x"}}}}})
			e := wantCode(t, r.err, errs.ProviderRateLimited)
			if srv.Count() != 6 {
				t.Errorf("%d requests, want 1 + 5 retries", srv.Count())
			}
			want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}
			if got := sl.Durations(); !reflect.DeepEqual(got, want) {
				t.Errorf("backoff %v, want %v", got, want)
			}
			if e.Details["retries"] != 5 || !strings.Contains(e.Message, "slow down") {
				t.Errorf("error %+v", e)
			}
			if len(r.events) != 0 {
				t.Errorf("events %v", r.events)
			}
		})
	}
}

func TestRetryAfterTooLongFailsAtOnce(t *testing.T) {
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Status: 429, Header: map[string]string{"retry-after": "3600"}, Times: -1})
	var sl providertest.Sleeps
	r := stream(t, newProvider(t, srv.Config(), provider.WithSleeper(sl.Sleep)), provider.Request{})
	e := wantCode(t, r.err, errs.ProviderRateLimited)
	if srv.Count() != 1 || len(sl.Durations()) != 0 || e.Details["retryAfterMs"] != int64(3600_000) {
		t.Errorf("count %d waits %v details %v", srv.Count(), sl.Durations(), e.Details)
	}
}

func TestUnauthorized(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			// Providers echo (parts of) the key; none of it may come back.
			srv := newServer(t, proto, providertest.Turn{Status: 401, ErrorMessage: "Incorrect API key provided: " + providertest.Key + "."})
			r := stream(t, newProvider(t, srv.Config(), provider.WithSleeper(providertest.NoSleep)), provider.Request{})
			e := wantCode(t, r.err, errs.ProviderUnauthorized)
			if srv.Count() != 1 {
				t.Errorf("401 must not be retried: %d requests", srv.Count())
			}
			if !strings.Contains(e.Message, provider.KeyEnv(proto)) || !strings.Contains(e.Message, "Settings") {
				t.Errorf("message should say where to fix the key: %s", e.Message)
			}
			if strings.Contains(e.Message, "sk-providertest") {
				t.Errorf("key fragment in %q", e.Message)
			}
		})
	}
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Status: 403, ErrorMessage: "no access"})
	wantCode(t, stream(t, newProvider(t, srv.Config()), provider.Request{}).err, errs.ProviderUnauthorized)
}

func TestContextTooLarge(t *testing.T) {
	cases := []struct {
		proto string
		turn  providertest.Turn
	}{
		{provider.APIAnthropic, providertest.Turn{Status: 400, ErrorMessage: "prompt is too long: 250000 tokens > 200000 maximum"}},
		{provider.APIAnthropic, providertest.Turn{Status: 413, ErrorMessage: "Request exceeds the maximum allowed number of bytes."}},
		{provider.APIOpenAI, providertest.Turn{Status: 400, ErrorType: "context_length_exceeded", ErrorMessage: "This model's maximum context length is 128000 tokens."}},
		// vLLM and other compatible servers: no code, just the message.
		{provider.APIOpenAI, providertest.Turn{Status: 400, Raw: `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.","type":"BadRequestError","code":400}`}},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(c.proto, i), func(t *testing.T) {
			srv := newServer(t, c.proto, c.turn)
			r := stream(t, newProvider(t, srv.Config()), provider.Request{})
			e := wantCode(t, r.err, errs.ContextTooLarge)
			if srv.Count() != 1 || !strings.Contains(e.Message, "new_context") {
				t.Errorf("count %d message %q", srv.Count(), e.Message)
			}
		})
	}
}

func TestProviderErrors(t *testing.T) {
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Status: 400, ErrorMessage: "Invalid schema for function 'Read'"})
	e := wantCode(t, stream(t, newProvider(t, srv.Config()), provider.Request{}).err, errs.ProviderError)
	if !strings.Contains(e.Message, "Invalid schema for function 'Read'") || e.Details["status"] != 400 {
		t.Errorf("%+v", e)
	}
	// Server errors are retried, then reported with the provider's message.
	srv = providertest.NewAnthropicServer(t, providertest.Turn{Status: 500, ErrorMessage: "internal boom", Times: -1})
	e = wantCode(t, stream(t, newProvider(t, srv.Config(), provider.WithSleeper(providertest.NoSleep)), provider.Request{}).err, errs.ProviderError)
	if srv.Count() != 6 || !strings.Contains(e.Message, "internal boom") {
		t.Errorf("count %d: %+v", srv.Count(), e)
	}
	// Ollama-style {"error":"..."} bodies keep their message.
	srv = providertest.NewOpenAIServer(t, providertest.Turn{Status: 404, Raw: `{"error":"model \"llama9\" not found, try pulling it first"}`})
	cfg := srv.Config()
	cfg.API, cfg.APIKey = provider.APIOpenAICompatible, ""
	e = wantCode(t, stream(t, newProvider(t, cfg), provider.Request{}).err, errs.ProviderError)
	if !strings.Contains(e.Message, "try pulling it first") {
		t.Errorf("%+v", e)
	}
}

func TestConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var sl providertest.Sleeps
	p := newProvider(t, provider.Config{API: provider.APIOpenAICompatible, BaseURL: "http://" + addr + "/v1", Model: "m"}, provider.WithSleeper(sl.Sleep))
	e := wantCode(t, stream(t, p, provider.Request{}).err, errs.ProviderError)
	if len(sl.Durations()) != 2 || !strings.Contains(e.Message, addr) {
		t.Errorf("waits %v message %q", sl.Durations(), e.Message)
	}
}

func TestStreamDropKeepsPartial(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			srv := newServer(t, proto, providertest.Turn{Text: "Partial words here", ToolCalls: []providertest.Call{{ID: "x", Name: "Read", Input: `{"path":"a"}`}}, Drop: true})
			var sl providertest.Sleeps
			r := stream(t, newProvider(t, srv.Config(), provider.WithSleeper(sl.Sleep)), provider.Request{})
			e := wantCode(t, r.err, errs.StreamFailed)
			if r.text(provider.EventText) != "Partial words here" {
				t.Errorf("streamed %q", r.text(provider.EventText))
			}
			if srv.Count() != 1 || len(sl.Durations()) != 0 {
				t.Error("a broken stream is not retried silently (the caller retries the turn)")
			}
			// The partial text is kept; the tool call (never confirmed) is not.
			if len(r.resp.Message.Content) < 1 || r.resp.Message.Content[0].Text != "Partial words here" {
				t.Errorf("partial %+v", r.resp.Message)
			}
			if proto == provider.APIOpenAI && len(r.resp.Message.Content) != 1 {
				t.Errorf("an unfinished call must not be in the partial message: %+v", r.resp.Message)
			}
			if !strings.Contains(e.Message, "retry") {
				t.Errorf("message %q", e.Message)
			}
		})
	}
}

func TestStreamDropAfterN(t *testing.T) {
	srv := providertest.NewAnthropicServer(t, providertest.Turn{Text: "one two three four", DropAfter: 5})
	r := stream(t, newProvider(t, srv.Config()), provider.Request{})
	wantCode(t, r.err, errs.StreamFailed)
	// message_start, ping, content_block_start, then two text deltas.
	if got := r.text(provider.EventText); got != "one two " {
		t.Errorf("partial %q", got)
	}
}

func TestErrorEventMidStream(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			srv := newServer(t, proto, providertest.Turn{Text: "so far", StreamError: "Overloaded"})
			r := stream(t, newProvider(t, srv.Config()), provider.Request{})
			e := wantCode(t, r.err, errs.StreamFailed)
			if !strings.Contains(e.Message, "Overloaded") || r.text(provider.EventText) != "so far" || r.resp.Message.Content[0].Text != "so far" {
				t.Errorf("message %q events %+v", e.Message, r.events)
			}
		})
	}
}

func TestCancelMidStream(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			srv := newServer(t, proto, providertest.Turn{Text: "some words", Hang: true})
			p := newProvider(t, srv.Config())
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var got string
			done := make(chan struct{})
			var resp provider.Response
			var err error
			go func() {
				defer close(done)
				resp, err = p.Stream(ctx, provider.Request{}, func(e provider.Event) error {
					got += e.Text
					if got == "some words" {
						cancel()
					}
					return nil
				})
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Stream did not return after cancel")
			}
			wantCode(t, err, errs.TurnAborted)
			if resp.Message.Content[0].Text != "some words" {
				t.Errorf("partial %+v", resp.Message)
			}
		})
	}
}

func TestCancelDuringRetryWait(t *testing.T) {
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Status: 429, Times: -1})
	ctx, cancel := context.WithCancel(context.Background())
	p := newProvider(t, srv.Config(), provider.WithSleeper(func(ctx context.Context, d time.Duration) error {
		cancel()
		<-ctx.Done()
		return ctx.Err()
	}))
	_, err := p.Stream(ctx, provider.Request{}, nil)
	wantCode(t, err, errs.TurnAborted)
}

func TestOnEventErrorIsReturnedUnchanged(t *testing.T) {
	for _, proto := range protocols {
		srv := newServer(t, proto, providertest.Turn{Text: "a b c"})
		stop := errors.New("sink full")
		n := 0
		resp, err := newProvider(t, srv.Config()).Stream(context.Background(), provider.Request{}, func(provider.Event) error {
			n++
			return stop
		})
		if err != stop || n != 1 || resp.Message.Content[0].Text != "a " {
			t.Errorf("%s: err %v after %d events, partial %+v", proto, err, n, resp.Message)
		}
	}
}

func TestEmptyResponse(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			srv := newServer(t, proto, providertest.Turn{}, providertest.Turn{Thinking: "only thoughts"})
			p := newProvider(t, srv.Config())
			r := stream(t, p, provider.Request{})
			wantCode(t, r.err, errs.EmptyModelResponse)
			r = stream(t, p, provider.Request{})
			wantCode(t, r.err, errs.EmptyModelResponse)
		})
	}
}

func TestEnvironmentCredentialsAreNotUsed(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-the-environment-000")
	t.Setenv("OPENAI_ORG_ID", "org-env")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "tok-from-the-environment")
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Text: "ok"})
	cfg := srv.Config()
	cfg.API, cfg.APIKey = provider.APIOpenAICompatible, ""
	if r := stream(t, newProvider(t, cfg), provider.Request{}); r.err != nil {
		t.Fatal(r.err)
	}
	h := srv.Requests()[0].Header
	if h.Get("Authorization") != "" || h.Get("OpenAI-Organization") != "" {
		t.Errorf("ambient OpenAI settings reached a compatible server: %v", h)
	}
	asrv := providertest.NewAnthropicServer(t, providertest.Turn{Text: "ok"})
	if r := stream(t, newProvider(t, asrv.Config()), provider.Request{}); r.err != nil {
		t.Fatal(r.err)
	}
	if h := asrv.Requests()[0].Header; h.Get("Authorization") != "Bearer "+providertest.Key {
		t.Errorf("anthropic headers %v", h)
	}
}

func TestNewNotConfigured(t *testing.T) {
	cases := []struct {
		cfg  provider.Config
		want string
	}{
		{provider.Config{}, provider.EnvProvider},
		{provider.Config{API: "gemini", Model: "m", APIKey: "k"}, "Unknown provider"},
		{provider.Config{API: provider.APIAnthropic, APIKey: "k"}, provider.EnvModel},
		{provider.Config{API: provider.APIAnthropic, Model: "claude"}, provider.EnvAnthropicKey},
		{provider.Config{API: provider.APIOpenAI, Model: "gpt"}, provider.EnvOpenAIKey},
		{provider.Config{API: provider.APIOpenAICompatible, Model: "llama"}, provider.EnvBaseURL},
	}
	for _, c := range cases {
		_, err := provider.New(c.cfg)
		e := wantCode(t, err, errs.ModelNotConfigured)
		if !strings.Contains(e.Message, c.want) || !strings.Contains(e.Message, "Settings") {
			t.Errorf("%v: message %q should name %s and Settings", c.cfg, e.Message, c.want)
		}
	}
	if _, err := provider.New(provider.Config{API: provider.APIOpenAICompatible, Model: "llama", BaseURL: "http://localhost:11434/v1"}); err != nil {
		t.Errorf("a compatible server needs no key: %v", err)
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if _, ok := provider.ConfigFromEnv(env(nil)); ok {
		t.Error("no PI_DESKTOP_PROVIDER must be not ok")
	}
	cfg, ok := provider.ConfigFromEnv(env(map[string]string{
		"PI_DESKTOP_PROVIDER": "Anthropic", "PI_DESKTOP_MODEL": "claude-x", "ANTHROPIC_API_KEY": " ak ", "OPENAI_API_KEY": "ok",
	}))
	if !ok || cfg.API != "anthropic" || cfg.Model != "claude-x" || cfg.APIKey != "ak" || cfg.BaseURL != "" {
		t.Errorf("%+v", cfg)
	}
	cfg, ok = provider.ConfigFromEnv(env(map[string]string{
		"PI_DESKTOP_PROVIDER": "openai-compatible", "PI_DESKTOP_MODEL": "qwen", "PI_DESKTOP_BASE_URL": "http://localhost:1234/v1", "OPENAI_API_KEY": "ok", "ANTHROPIC_API_KEY": "ak",
	}))
	if !ok || cfg.API != "openai-compatible" || cfg.BaseURL != "http://localhost:1234/v1" || cfg.APIKey != "ok" {
		t.Errorf("%+v", cfg)
	}
	if _, err := provider.New(cfg); err != nil {
		t.Error(err)
	}
	cfg, _ = provider.ConfigFromEnv(env(map[string]string{"PI_DESKTOP_PROVIDER": "openai", "PI_DESKTOP_MODEL": "gpt"}))
	if _, err := provider.New(cfg); !errs.Is(err, errs.ModelNotConfigured) {
		t.Errorf("missing key: %v", err)
	}
}

func TestConfigNeverPrintsTheKey(t *testing.T) {
	cfg := provider.Config{API: "openai", Model: "gpt", APIKey: "sk-secret-value-123"}
	for _, s := range []string{fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg), fmt.Sprintf("%v", &cfg), mustMarshal(cfg)} {
		if strings.Contains(s, "sk-secret") {
			t.Errorf("key in %q", s)
		}
	}
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
