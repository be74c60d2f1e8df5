package agent

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// A reasoning model on the Responses API keeps its reasoning across the
// tool loop: the second request carries the first's reasoning item
// (encrypted, before the call it led to and that call's output), and so
// does a request after a restart, from the transcript alone.
func TestWireResponsesReasoningRoundTrips(t *testing.T) {
	srv := providertest.NewResponsesServer(t,
		providertest.Turn{Thinking: "Read a.go first.", Signature: "enc-one", ToolCalls: []providertest.Call{{ID: "c1", Name: "Read", Input: map[string]any{"path": "a.go"}}}},
		providertest.Turn{Text: "a.go is fine."},
		providertest.Turn{Text: "Still fine."},
	)
	cfg := srv.Config()
	cfg.Model = "gpt-5" // a reasoning model: reasoning goes back
	p, err := provider.New(cfg, provider.WithSleeper(providertest.NoSleep))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	agent := func() *Agent {
		now := func() time.Time { return time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC) }
		return New(f.db, f.host, func(string) (provider.Provider, error) { return p, nil }, f.rec.emit, now)
	}
	f.a = agent()
	res, err := f.run("check a.go")
	if err != nil || res.State != TurnDone || res.Text != "a.go is fine." || res.ModelCalls != 2 {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	// The summary streamed to the window as thinking.
	var thinking string
	for _, e := range f.rec.named(EventThinking) {
		thinking += e.(DeltaEvent).Delta
	}
	if thinking != "Read a.go first." {
		t.Errorf("thinking shown %q", thinking)
	}
	reasoning := `{"type":"reasoning","id":"rs_02","encrypted_content":"enc-one","summary":[{"type":"summary_text","text":"Read a.go first."}]}`
	input := inputItems(t, srv.Requests()[1])
	if len(input) != 4 {
		t.Fatalf("second request input = %s", mustMarshal(input))
	}
	wireJSONEq(t, "the reasoning item", input[1], reasoning)
	wireJSONEq(t, "the call", input[2], `{"type":"function_call","call_id":"c1","name":"Read","arguments":"{\"path\":\"a.go\"}"}`)
	if out := input[3].(map[string]any); out["type"] != "function_call_output" || out["call_id"] != "c1" {
		t.Errorf("the call's output %v", out)
	}

	f.a = agent() // an app restart: only the transcript remains
	if res, err := f.run("and now?"); err != nil || res.Text != "Still fine." {
		t.Fatalf("turn after restart = %+v, %v", res, err)
	}
	third := srv.Requests()[2]
	input = inputItems(t, third)
	wireJSONEq(t, "the reasoning item after a restart", input[1], reasoning)
	if third.JSON()["store"] != false {
		t.Errorf("store = %v", third.JSON()["store"])
	}
}

func inputItems(t *testing.T, r providertest.Request) []any {
	t.Helper()
	in, ok := r.JSON()["input"].([]any)
	if !ok {
		t.Fatalf("no input items in %s", r.Body)
	}
	return in
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func wireJSONEq(t *testing.T, what string, got any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad want: %v", what, err)
	}
	if g, wj := mustMarshal(got), mustMarshal(w); g != wj {
		t.Errorf("%s:\n got %s\nwant %s", what, g, wj)
	}
}
