package provider_test

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// The OpenAI Responses API through openai-go's responses package against
// the scripted fake: the same turns, errors and retries as Chat Completions.

// reasoningModel is a model of a reasoning family (the fake serves any).
const reasoningModel = "gpt-5"

func newResponses(t *testing.T, model string, turns ...providertest.Turn) (*providertest.Server, provider.Config) {
	t.Helper()
	srv := providertest.NewResponsesServer(t, turns...)
	cfg := srv.Config()
	cfg.Model = model
	return srv, cfg
}

func userText(s string) provider.Message {
	return provider.Message{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: s}}}
}

func TestOpenAIWireAPI(t *testing.T) {
	for _, tt := range []struct {
		cfg  provider.Config
		want string
	}{
		{provider.Config{API: provider.APIOpenAI}, provider.OpenAIResponses},
		{provider.Config{API: provider.APIOpenAI, BaseURL: "https://api.openai.com/v1"}, provider.OpenAIResponses},
		{provider.Config{API: provider.APIOpenAI, BaseURL: "https://API.OpenAI.com:443/v1/"}, provider.OpenAIResponses},
		{provider.Config{API: provider.APIOpenAI, BaseURL: "https://gateway.example.com/openai/v1"}, provider.OpenAIChat},
		{provider.Config{API: provider.APIOpenAI, OpenAIAPI: provider.OpenAIChat}, provider.OpenAIChat},
		{provider.Config{API: provider.APIOpenAICompatible, BaseURL: "http://localhost:11434/v1"}, provider.OpenAIChat},
		{provider.Config{API: provider.APIOpenAICompatible, BaseURL: "http://localhost:8000/v1", OpenAIAPI: provider.OpenAIResponses}, provider.OpenAIResponses},
		{provider.Config{API: provider.APIAnthropic, OpenAIAPI: provider.OpenAIResponses}, ""},
	} {
		if got := provider.OpenAIWireAPI(tt.cfg); got != tt.want {
			t.Errorf("OpenAIWireAPI(%v, %q) = %q, want %q", tt.cfg, tt.cfg.OpenAIAPI, got, tt.want)
		}
	}
}

func TestResponsesUnknownWireAPIIsNotConfigured(t *testing.T) {
	_, err := provider.New(provider.Config{API: provider.APIOpenAI, Model: "gpt-5", APIKey: "k", OpenAIAPI: "assistants"})
	e := wantCode(t, err, errs.ModelNotConfigured)
	if !strings.Contains(e.Message, provider.EnvOpenAIAPI) {
		t.Errorf("message %q does not name where to fix it", e.Message)
	}
	env := map[string]string{"PI_DESKTOP_PROVIDER": "openai", "PI_DESKTOP_OPENAI_API": " Chat "}
	cfg, _ := provider.ConfigFromEnv(func(k string) string { return env[k] })
	if cfg.OpenAIAPI != provider.OpenAIChat {
		t.Errorf("OpenAIAPI from the environment = %q", cfg.OpenAIAPI)
	}
}

func TestResponsesText(t *testing.T) {
	srv, cfg := newResponses(t, "gpt-4.1", providertest.Turn{Text: "Hello there, friend.", InputTokens: 42, OutputTokens: 7, CacheReadTokens: 30})
	r := stream(t, newProvider(t, cfg), provider.Request{System: "Be brief.", Messages: []provider.Message{userText("hi")}, CacheKey: "session-1"})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.types(); !reflect.DeepEqual(got, []provider.EventType{provider.EventText}) {
		t.Errorf("event types %v", got)
	}
	if r.text(provider.EventText) != "Hello there, friend." || len(r.events) != 3 {
		t.Errorf("text %q in %d deltas", r.text(provider.EventText), len(r.events))
	}
	want := provider.Response{
		Message:    provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{{Type: provider.BlockText, Text: "Hello there, friend."}}},
		StopReason: provider.StopEndTurn, Usage: provider.Usage{InputTokens: 42, OutputTokens: 7, CacheReadTokens: 30},
	}
	if !reflect.DeepEqual(r.resp, want) {
		t.Errorf("response %+v", r.resp)
	}
	reqs := srv.Requests()
	checkNoKeyLeak(t, provider.APIOpenAI, reqs)
	body := reqs[0].JSON()
	if reqs[0].Path != "/v1/responses" || body["stream"] != true || body["store"] != false || body["instructions"] != "Be brief." ||
		body["prompt_cache_key"] != "session-1" {
		t.Errorf("request %s %s", reqs[0].Path, reqs[0].Body)
	}
	// Not a reasoning model: no reasoning parameters, which it would refuse.
	for _, k := range []string{"reasoning", "include"} {
		if _, ok := body[k]; ok {
			t.Errorf("%s sent to a model without reasoning: %s", k, reqs[0].Body)
		}
	}
}

func TestResponsesReasoningSummaryIsThinking(t *testing.T) {
	srv, cfg := newResponses(t, reasoningModel, providertest.Turn{
		Thinking: "**Planning** the answer.\n\n**Checking** the facts.", Signature: "gAAAAB-encrypted", Text: "It is 4.", OutputTokens: 120,
	})
	temp := 0.2
	cfg.Temperature = &temp
	r := stream(t, newProvider(t, cfg), provider.Request{Messages: []provider.Message{userText("2+2?")}})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.types(); !reflect.DeepEqual(got, []provider.EventType{provider.EventThinking, provider.EventText}) {
		t.Errorf("event types %v", got)
	}
	const thinking = "**Planning** the answer.\n\n**Checking** the facts."
	if got := r.text(provider.EventThinking); got != thinking {
		t.Errorf("thinking streamed %q", got)
	}
	th := r.resp.Message.Content[0]
	if th.Type != provider.BlockThinking || th.Text != thinking || th.Signature != "gAAAAB-encrypted" || th.ReasoningID != "rs_02" {
		t.Errorf("reasoning block %+v", th)
	}
	if r.resp.Usage.OutputTokens != 120 {
		t.Errorf("usage %+v", r.resp.Usage)
	}
	body := srv.Requests()[0].JSON()
	jsonEq(t, "reasoning", body["reasoning"], `{"summary":"auto"}`)
	jsonEq(t, "include", body["include"], `["reasoning.encrypted_content"]`)
	if _, ok := body["temperature"]; ok {
		t.Error("a temperature was sent to a reasoning model, which refuses it")
	}
}

func TestResponsesParallelCallsStreamArguments(t *testing.T) {
	srv, cfg := newResponses(t, reasoningModel, providertest.Turn{ToolCalls: []providertest.Call{
		{ID: "c1", Name: "Read", Input: map[string]any{"path": "a.go"}},
		{ID: "c2", Name: "Grep", Input: map[string]any{"path": ".", "pattern": "func main"}},
	}})
	grep := provider.ToolDef{Name: "Grep", Schema: json.RawMessage(`{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"}},"required":["pattern"]}`)}
	r := stream(t, newProvider(t, cfg), provider.Request{Messages: []provider.Message{userText("look")}, Tools: []provider.ToolDef{readTool, grep}})
	if r.err != nil {
		t.Fatal(r.err)
	}
	want := []provider.EventType{provider.EventToolUseStart, provider.EventToolUseDelta, provider.EventToolUseFinish,
		provider.EventToolUseStart, provider.EventToolUseDelta, provider.EventToolUseFinish}
	if got := r.types(); !reflect.DeepEqual(got, want) {
		t.Errorf("event types %v", got)
	}
	deltas := map[string]string{}
	var dones []string
	for _, e := range r.events {
		switch e.Type {
		case provider.EventToolUseDelta:
			deltas[e.ToolUseID] += e.Text
		case provider.EventToolUseFinish:
			dones = append(dones, e.ToolUseID+"="+e.ToolName+string(e.Input))
		}
	}
	if deltas["c1"] != `{"path":"a.go"}` || deltas["c2"] != `{"path":".","pattern":"func main"}` {
		t.Errorf("argument deltas %v", deltas)
	}
	if !reflect.DeepEqual(dones, []string{`c1=Read{"path":"a.go"}`, `c2=Grep{"path":".","pattern":"func main"}`}) {
		t.Errorf("finished calls %v", dones)
	}
	if r.resp.StopReason != provider.StopToolUse || len(r.resp.Message.Content) != 2 {
		t.Errorf("stop %s, content %+v", r.resp.StopReason, r.resp.Message.Content)
	}
	body := srv.Requests()[0].JSON()
	if body["parallel_tool_calls"] != true {
		t.Errorf("parallel_tool_calls %v", body["parallel_tool_calls"])
	}
	// Read's schema is closed with every property required: strict. Grep's
	// is not, and goes without (the API's default would refuse it).
	jsonEq(t, "tools", body["tools"], `[
		{"type":"function","name":"Read","description":"Read a file.","strict":true,
		 "parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}},
		{"type":"function","name":"Grep","strict":false,
		 "parameters":{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"}},"required":["pattern"]}}]`)
}

// The reasoning of one request goes back in the next, encrypted, in its
// place before the calls it led to, and nothing is stored server-side.
func TestResponsesReasoningItemsRoundTrip(t *testing.T) {
	srv, cfg := newResponses(t, reasoningModel,
		providertest.Turn{Thinking: "Read both files.", Signature: "enc-first", Text: "Reading.", ToolCalls: []providertest.Call{
			{ID: "c1", Name: "Read", Input: `{"path":"a.go"}`}, {ID: "c2", Name: "Read", Input: `{"path":"b.go"}`}}},
		providertest.Turn{Signature: "enc-second", Text: "Both are fine."},
		providertest.Turn{Text: "Done."},
	)
	p := newProvider(t, cfg)
	msgs := []provider.Message{userText("check a.go and b.go")}
	r := stream(t, p, provider.Request{Messages: msgs, Tools: []provider.ToolDef{readTool}})
	if r.err != nil {
		t.Fatal(r.err)
	}
	// The message as the transcript stores it (JSON) and reads it back.
	stored, _ := json.Marshal(r.resp.Message)
	var reread provider.Message
	if err := json.Unmarshal(stored, &reread); err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, reread, provider.Message{Role: provider.RoleUser, Content: []provider.Block{
		{Type: provider.BlockToolResult, ToolUseID: "c1", Text: "package a"},
		{Type: provider.BlockToolResult, ToolUseID: "c2", Text: "no such file", IsError: true},
	}})
	if r = stream(t, p, provider.Request{Messages: msgs, Tools: []provider.ToolDef{readTool}}); r.err != nil {
		t.Fatal(r.err)
	}
	// A reasoning item without a summary still goes back. (The fake numbers
	// items from 2: the first request is its number 2 as for every protocol.)
	if th := r.resp.Message.Content[0]; th.ReasoningID != "rs_03" || th.Signature != "enc-second" || th.Text != "" {
		t.Errorf("summary-less reasoning block %+v", th)
	}
	body := srv.Requests()[1].JSON()
	if body["store"] != false {
		t.Errorf("store = %v", body["store"])
	}
	jsonEq(t, "input", body["input"], `[
		{"type":"message","role":"user","content":[{"type":"input_text","text":"check a.go and b.go"}]},
		{"type":"reasoning","id":"rs_02","encrypted_content":"enc-first","summary":[{"type":"summary_text","text":"Read both files."}]},
		{"type":"message","role":"assistant","content":"Reading."},
		{"type":"function_call","call_id":"c1","name":"Read","arguments":"{\"path\":\"a.go\"}"},
		{"type":"function_call","call_id":"c2","name":"Read","arguments":"{\"path\":\"b.go\"}"},
		{"type":"function_call_output","call_id":"c1","output":"package a"},
		{"type":"function_call_output","call_id":"c2","output":"[tool error] no such file"}]`)

	msgs = append(msgs, r.resp.Message, userText("thanks"))
	if r = stream(t, p, provider.Request{Messages: msgs}); r.err != nil {
		t.Fatal(r.err)
	}
	input := srv.Requests()[2].JSON()["input"].([]any)
	jsonEq(t, "second reasoning item", input[7], `{"type":"reasoning","id":"rs_03","encrypted_content":"enc-second","summary":[]}`)
}

// Reasoning goes back only to the provider it came from: not Anthropic's
// signed thinking to OpenAI, not OpenAI's reasoning to Anthropic, and not
// to a model that does not reason.
func TestReasoningStaysWithItsProvider(t *testing.T) {
	history := []provider.Message{
		userText("q"),
		{Role: provider.RoleAssistant, Content: []provider.Block{
			{Type: provider.BlockThinking, Text: "claude thinks", Signature: "anthropic-sig"},
			{Type: provider.BlockThinking, Text: "gpt thinks", Signature: "openai-enc", ReasoningID: "rs_9"},
			{Type: provider.BlockText, Text: "A."},
		}},
		userText("more"),
	}
	for _, tt := range []struct {
		name    string
		srv     *providertest.Server
		model   string
		present []string
		absent  []string
	}{
		{"responses, reasoning model", providertest.NewResponsesServer(t, providertest.Turn{Text: "ok"}), reasoningModel, []string{"openai-enc", "rs_9"}, []string{"anthropic-sig", "claude thinks"}},
		{"responses, other model", providertest.NewResponsesServer(t, providertest.Turn{Text: "ok"}), "gpt-4.1", nil, []string{"openai-enc", "anthropic-sig", "thinks"}},
		{"anthropic", providertest.NewAnthropicServer(t, providertest.Turn{Text: "ok"}), "claude-sonnet-4-5", []string{"anthropic-sig"}, []string{"openai-enc", "rs_9", "gpt thinks"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.srv.Config()
			cfg.Model = tt.model
			if r := stream(t, newProvider(t, cfg), provider.Request{Messages: history}); r.err != nil {
				t.Fatal(r.err)
			}
			body := string(tt.srv.Requests()[0].Body)
			for _, s := range tt.present {
				if !strings.Contains(body, s) {
					t.Errorf("%q missing from %s", s, body)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(body, s) {
					t.Errorf("%q sent in %s", s, body)
				}
			}
		})
	}
}

// The bytes of a whole Responses request: instructions, tools, the input
// items of a tool round (with images) and the reasoning it carries back.
func TestResponsesRequestLayout(t *testing.T) {
	for _, on := range []bool{true, false} {
		name := "responses_request" + map[bool]string{true: "", false: "_no_images"}[on]
		t.Run(name, func(t *testing.T) {
			srv, cfg := newResponses(t, reasoningModel, providertest.Turn{Text: "I see them."})
			cfg.SupportsImages = boolp(on)
			cfg.MaxOutputTokens = 4000
			history := imageHistory()
			history[1].Content = append([]provider.Block{{Type: provider.BlockThinking, Text: "Take two shots.", Signature: "enc-layout", ReasoningID: "rs_layout"}}, history[1].Content...)
			r := stream(t, newProvider(t, cfg), provider.Request{System: "You are a coding agent.", Messages: history, Tools: []provider.ToolDef{readTool}})
			if r.err != nil {
				t.Fatal(r.err)
			}
			var body any
			if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			out, _ := json.MarshalIndent(body, "", "  ")
			golden.Assert(t, filepath.Join("testdata", name+".golden"), string(out)+"\n")
		})
	}
}

func TestResponsesRateLimitThenSuccess(t *testing.T) {
	srv, cfg := newResponses(t, reasoningModel,
		providertest.Turn{Status: 429, Header: map[string]string{"retry-after": "2"}},
		providertest.Turn{Status: 429, Header: map[string]string{"retry-after-ms": "1500"}},
		providertest.Turn{Status: 503},
		providertest.Turn{Text: "finally"},
	)
	var sl providertest.Sleeps
	r := stream(t, newProvider(t, cfg, provider.WithSleeper(sl.Sleep)), provider.Request{Messages: []provider.Message{userText("x")}})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.text(provider.EventText) != "finally" || srv.Count() != 4 {
		t.Errorf("text %q after %d requests", r.text(provider.EventText), srv.Count())
	}
	if got, want := sl.Durations(), []time.Duration{2 * time.Second, 1500 * time.Millisecond, 2 * time.Second}; !reflect.DeepEqual(got, want) {
		t.Errorf("waits %v, want %v (retry-after, retry-after-ms, then backoff)", got, want)
	}
	reqs := srv.Requests()
	if string(reqs[0].Body) != string(reqs[3].Body) {
		t.Error("the retried request differs from the rate-limited one")
	}
}

func TestResponsesFailures(t *testing.T) {
	for _, tt := range []struct {
		name     string
		turns    []providertest.Turn
		code     errs.Code
		requests int
		partial  string   // text kept next to the error
		calls    int      // finished calls kept next to it
		message  []string // in the error's message
	}{
		{"unauthorized", []providertest.Turn{{Status: 401, ErrorMessage: "Incorrect API key provided"}}, errs.ProviderUnauthorized, 1, "", 0, []string{"Incorrect API key", "OPENAI_API_KEY"}},
		{"rate limited after the retries", []providertest.Turn{{Status: 429, ErrorMessage: "slow down", Times: -1}}, errs.ProviderRateLimited, 1 + provider.DefaultMaxRetries, "", 0, []string{"429", "slow down"}},
		{"out of quota", []providertest.Turn{{Status: 429, ErrorType: "insufficient_quota", ErrorMessage: "You exceeded your current quota"}}, errs.ProviderError, 1, "", 0, []string{"quota"}},
		{"context too large", []providertest.Turn{{Status: 400, ErrorType: "context_length_exceeded", ErrorMessage: "Your input exceeds the context window of this model."}}, errs.ContextTooLarge, 1, "", 0, []string{"context window"}},
		{"error event mid-stream", []providertest.Turn{{Text: "so far", StreamError: "The server had an error"}}, errs.StreamFailed, 1, "so far", 0, []string{"server_error", "The server had an error", "retry"}},
		{"context error event", []providertest.Turn{{StreamError: "Your input exceeds the context window of this model.", ErrorType: "context_length_exceeded"}}, errs.ContextTooLarge, 1, "", 0, []string{"context window"}},
		{"response failed", []providertest.Turn{{Raw: "event: response.failed\ndata: {\"type\":\"response.failed\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"failed\",\"error\":{\"code\":\"server_error\",\"message\":\"The model failed.\"},\"output\":[]}}\n\n"}}, errs.StreamFailed, 1, "", 0, []string{"server_error: The model failed."}},
		// Frames: created, in_progress, then the message (added, part added,
		// two deltas, text done, part done, done), then the call (added,
		// three argument deltas, arguments done, done).
		{"dropped mid-arguments", []providertest.Turn{{Text: "Partial words", ToolCalls: []providertest.Call{{ID: "x", Name: "Read", Input: `{"path":"a"}`}}, DropAfter: 11}}, errs.StreamFailed, 1, "Partial words", 0, []string{"retry"}},
		{"dropped after the items", []providertest.Turn{{Text: "Partial words", ToolCalls: []providertest.Call{{ID: "x", Name: "Read", Input: `{"path":"a"}`}}, Drop: true}}, errs.StreamFailed, 1, "Partial words", 1, []string{"retry"}},
		{"stream ends without completion", []providertest.Turn{{Text: "Cut", DropAfter: 6}}, errs.StreamFailed, 1, "Cut", 0, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, cfg := newResponses(t, reasoningModel, tt.turns...)
			var sl providertest.Sleeps
			r := stream(t, newProvider(t, cfg, provider.WithSleeper(sl.Sleep)), provider.Request{Messages: []provider.Message{userText("x")}})
			e := wantCode(t, r.err, tt.code)
			for _, m := range tt.message {
				if !strings.Contains(e.Message, m) {
					t.Errorf("message %q lacks %q", e.Message, m)
				}
			}
			if srv.Count() != tt.requests {
				t.Errorf("%d requests, want %d", srv.Count(), tt.requests)
			}
			var text string
			calls := 0
			for _, b := range r.resp.Message.Content {
				if b.Type == provider.BlockToolUse {
					calls++
				}
				text += b.Text
			}
			if text != tt.partial || calls != tt.calls {
				t.Errorf("partial %q with %d calls, want %q with %d", text, calls, tt.partial, tt.calls)
			}
		})
	}
}

func TestResponsesIncompleteStops(t *testing.T) {
	for _, tt := range []struct {
		stop string
		want provider.StopReason
	}{
		{"max_tokens", provider.StopMaxTokens},
		{"content_filter", provider.StopOther},
	} {
		t.Run(tt.stop, func(t *testing.T) {
			_, cfg := newResponses(t, reasoningModel, providertest.Turn{Text: "A long answer that", ToolCalls: []providertest.Call{{ID: "w", Name: "Write", Input: `{"path":"a"}`}}, Stop: tt.stop})
			r := stream(t, newProvider(t, cfg), provider.Request{Messages: []provider.Message{userText("x")}})
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.resp.StopReason != tt.want {
				t.Errorf("stop %s, want %s", r.resp.StopReason, tt.want)
			}
			if len(r.resp.Message.Content) != 2 || r.resp.Message.Content[1].ToolUseID != "w" {
				t.Errorf("the cut call must be in the message (for the re-issue result): %+v", r.resp.Message.Content)
			}
		})
	}
}

// A connection test over the Responses API: one small request, no
// temperature, and an answer (here only a reasoning summary) is enough.
func TestResponsesCheck(t *testing.T) {
	srv, cfg := newResponses(t, reasoningModel, providertest.Turn{Thinking: "The user says ping.", Text: "pong"})
	temp := 0.3
	cfg.Temperature = &temp
	if err := provider.Check(t.Context(), cfg, 5*time.Second); err != nil {
		t.Fatalf("Check = %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/responses" {
		t.Fatalf("requests %v", reqs)
	}
	body := reqs[0].JSON()
	if body["max_output_tokens"] != float64(16) || body["temperature"] != nil || body["store"] != false {
		t.Errorf("request body %s", reqs[0].Body)
	}
}
