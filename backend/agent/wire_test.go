package agent

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// The provider layer's retry rules as a turn sees them, over both wire
// protocols: real SDK clients against scripted fake servers.

var wireProtocols = []string{provider.APIAnthropic, provider.APIOpenAI, wireResponses}

// wireResponses is OpenAI's Responses API in wireProtocols.
const wireResponses = "openai-responses"

// newWireFixture is a fixture whose model is a fake server speaking proto;
// sleeps records the provider's retry waits (none is actually waited).
func newWireFixture(t *testing.T, proto string, turns ...providertest.Turn) (*fixture, *providertest.Server, *providertest.Sleeps) {
	t.Helper()
	srv := providertest.NewAnthropicServer(t, turns...)
	switch proto {
	case provider.APIOpenAI:
		srv = providertest.NewOpenAIServer(t, turns...)
	case wireResponses:
		srv = providertest.NewResponsesServer(t, turns...)
	}
	sleeps := &providertest.Sleeps{}
	p, err := provider.New(srv.Config(), provider.WithSleeper(sleeps.Sleep))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	now := func() time.Time { return time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC) }
	f.a = New(f.db, f.host, func(string) (provider.Provider, error) { return p, nil }, f.rec.emit, now)
	return f, srv, sleeps
}

func (f *fixture) retryEvents() []errs.Code {
	var out []errs.Code
	for _, p := range f.rec.named(EventTurn) {
		if e := p.(TurnEvent); e.Retry != "" {
			out = append(out, e.Retry)
		}
	}
	return out
}

// requestMessages is the conversation part of a request body.
func requestMessages(r providertest.Request) any {
	if in, ok := r.JSON()["input"]; ok { // the Responses API
		return in
	}
	return r.JSON()["messages"]
}

func TestWireRateLimitIsRetriedSilently(t *testing.T) {
	for _, proto := range wireProtocols {
		t.Run(proto, func(t *testing.T) {
			f, srv, sleeps := newWireFixture(t, proto,
				providertest.Turn{Text: "Let me look.", ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": "a.go"}}}},
				providertest.Turn{Status: 429, ErrorMessage: "slow down", Header: map[string]string{"retry-after": "2"}},
				providertest.Turn{Text: "All done."},
			)
			res, err := f.run("check a.go")
			if err != nil || res.State != TurnDone || res.Text != "All done." {
				t.Fatalf("turn = %+v, %v", res, err)
			}
			if srv.Count() != 3 || !reflect.DeepEqual(sleeps.Durations(), []time.Duration{2 * time.Second}) {
				t.Errorf("%d requests, waits %v; want 3 and the server's retry-after of 2s", srv.Count(), sleeps.Durations())
			}
			reqs := srv.Requests()
			if !reflect.DeepEqual(requestMessages(reqs[1]), requestMessages(reqs[2])) {
				t.Error("the retried request differs from the rate-limited one")
			}
			if got := f.retryEvents(); len(got) != 0 {
				t.Errorf("a silent retry was reported: %v", got)
			}
			// Nothing of the refused attempt reached the transcript.
			tr := f.load()
			if len(tr.Messages) != 3 || tr.Messages[2].StopReason != "end_turn" || res.ModelCalls != 2 {
				t.Errorf("messages = %d, model calls = %d", len(tr.Messages), res.ModelCalls)
			}
		})
	}
}

func TestWireDroppedStreamIsRetriedOnceInTheTurn(t *testing.T) {
	for _, proto := range wireProtocols {
		t.Run(proto, func(t *testing.T) {
			f, srv, sleeps := newWireFixture(t, proto,
				providertest.Turn{Text: "Half of an answer that", Drop: true},
				providertest.Turn{Text: "A whole answer."},
			)
			res, err := f.run("answer me")
			if err != nil || res.State != TurnDone || res.Text != "A whole answer." || res.ModelCalls != 2 {
				t.Fatalf("turn = %+v, %v", res, err)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || !reflect.DeepEqual(requestMessages(reqs[0]), requestMessages(reqs[1])) {
				t.Fatalf("%d requests; the retry must resend the same context", len(reqs))
			}
			if len(sleeps.Durations()) != 0 {
				t.Errorf("the provider retried a broken stream itself: %v", sleeps.Durations())
			}
			if got := f.retryEvents(); !slices.Equal(got, []errs.Code{errs.StreamFailed}) {
				t.Errorf("retry events = %v", got)
			}
			// The partial text streamed to the UI and is kept as a failed
			// message, but never goes back to the model.
			var streamed strings.Builder
			for _, p := range f.rec.named(EventText) {
				streamed.WriteString(p.(DeltaEvent).Delta)
			}
			if !strings.HasPrefix(streamed.String(), "Half of an answer that") {
				t.Errorf("streamed %q", streamed.String())
			}
			tr := f.load()
			if len(tr.Messages) != 3 || tr.Messages[1].StopReason != stopFailed {
				t.Fatalf("messages = %+v", tr.Messages)
			}
			for _, m := range tr.Context() {
				for _, b := range m.Content {
					if strings.Contains(b.Text, "Half of") {
						t.Error("the broken partial is in the context")
					}
				}
			}
		})
	}
}

func TestWireExhaustedRetriesEndTheTurn(t *testing.T) {
	for _, proto := range wireProtocols {
		t.Run(proto+"/rate limited", func(t *testing.T) {
			f, srv, sleeps := newWireFixture(t, proto, providertest.Turn{Status: 429, ErrorMessage: "quota", Times: -1})
			res, err := f.run("hello")
			mustCode(t, err, errs.ProviderRateLimited)
			if res.State != TurnFailed || res.Code != errs.ProviderRateLimited || !strings.Contains(res.Message, "quota") {
				t.Errorf("result = %+v", res)
			}
			if srv.Count() != 6 || len(sleeps.Durations()) != 5 {
				t.Errorf("%d requests, %d waits; want 1 + 5 silent retries", srv.Count(), len(sleeps.Durations()))
			}
			if got := f.retryEvents(); len(got) != 0 {
				t.Errorf("the agent retried a rate limit on top of the provider: %v", got)
			}
			turn := f.load().Turns[0]
			if turn.State != TurnFailed || turn.ErrorCode != string(errs.ProviderRateLimited) {
				t.Errorf("persisted turn = %+v", turn)
			}
			last := f.rec.named(EventTurn)
			if e := last[len(last)-1].(TurnEvent); e.State != TurnFailed || e.Code != errs.ProviderRateLimited {
				t.Errorf("last turn event = %+v", e)
			}
		})
		t.Run(proto+"/stream failed twice", func(t *testing.T) {
			f, srv, _ := newWireFixture(t, proto,
				providertest.Turn{Text: "first try", Drop: true},
				providertest.Turn{Text: "second try", StreamError: "Overloaded"},
			)
			res, err := f.run("hello")
			mustCode(t, err, errs.StreamFailed)
			if res.State != TurnFailed || res.Code != errs.StreamFailed || srv.Count() != 2 {
				t.Errorf("result = %+v after %d requests", res, srv.Count())
			}
			if got := f.retryEvents(); !slices.Equal(got, []errs.Code{errs.StreamFailed}) {
				t.Errorf("retry events = %v; the stream is retried once", got)
			}
			if turn := f.load().Turns[0]; turn.ErrorCode != string(errs.StreamFailed) {
				t.Errorf("persisted turn = %+v", turn)
			}
		})
	}
}
