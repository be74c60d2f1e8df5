package agent

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// The prompt-cache figures of every model call reach the turn's usage and
// each message's event, the turn says why its last response stopped, and
// an OpenAI request names the session in prompt_cache_key.
func TestWireCacheFiguresReachTheTurn(t *testing.T) {
	read := []providertest.Call{{Name: "Read", Input: map[string]any{"path": "a.go"}}}
	tests := []struct {
		proto string
		turns []providertest.Turn
		calls []provider.Usage // per model call, as normalised
	}{
		{provider.APIAnthropic, []providertest.Turn{
			{Text: "Let me look.", ToolCalls: read, InputTokens: 20, CacheWriteTokens: 3000, OutputTokens: 9},
			{Text: "Done.", InputTokens: 40, CacheReadTokens: 3000, CacheWriteTokens: 100, OutputTokens: 4},
		}, []provider.Usage{
			{InputTokens: 3020, OutputTokens: 9, CacheWriteTokens: 3000},
			{InputTokens: 3140, OutputTokens: 4, CacheReadTokens: 3000, CacheWriteTokens: 100},
		}},
		{provider.APIOpenAI, []providertest.Turn{
			{Text: "Let me look.", ToolCalls: read, InputTokens: 3020, OutputTokens: 9},
			{Text: "Done.", InputTokens: 3140, CacheReadTokens: 2944, OutputTokens: 4},
		}, []provider.Usage{
			{InputTokens: 3020, OutputTokens: 9},
			{InputTokens: 3140, OutputTokens: 4, CacheReadTokens: 2944},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.proto, func(t *testing.T) {
			f, srv, _ := newWireFixture(t, tc.proto, tc.turns...)
			res, err := f.run("check a.go")
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.calls[0].Plus(tc.calls[1]); res.Usage != want {
				t.Errorf("turn usage %+v, want %+v", res.Usage, want)
			}
			if res.StopReason != provider.StopEndTurn {
				t.Errorf("stop reason %q", res.StopReason)
			}
			var got []provider.Usage
			for _, p := range f.rec.named(EventMessage) {
				if e := p.(MessageEvent); e.Kind == KindModel && e.State != "streaming" {
					got = append(got, e.Usage)
				}
			}
			if len(got) != 2 || got[0] != tc.calls[0] || got[1] != tc.calls[1] {
				t.Errorf("message events' usage %+v, want %+v", got, tc.calls)
			}
			// Stored with each message: a restart shows the same figures.
			var stored []provider.Usage
			for _, m := range f.load().Messages {
				if m.Kind == KindModel {
					stored = append(stored, m.Usage)
				}
			}
			if len(stored) != 2 || stored[0] != tc.calls[0] || stored[1] != tc.calls[1] {
				t.Errorf("stored usage %+v, want %+v", stored, tc.calls)
			}
			for i, r := range srv.Requests() {
				key, has := r.JSON()["prompt_cache_key"]
				if tc.proto == provider.APIOpenAI && key != sid {
					t.Errorf("request %d: prompt_cache_key = %v, want the session id", i+1, key)
				}
				if tc.proto == provider.APIAnthropic && has {
					t.Errorf("request %d: prompt_cache_key sent to Anthropic", i+1)
				}
			}
		})
	}
}

var cacheMarker = regexp.MustCompile(`,?"cache_control":\{"type":"ephemeral"\}`)

// anthropicPromptParts is a Messages request in the order the API caches
// it (tools, system, each message) without the cache markers, which are
// not part of the cached content; rolling is the last marked message.
func anthropicPromptParts(t testing.TB, body []byte) (parts [][]byte, rolling int) {
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
	parts = [][]byte{cacheMarker.ReplaceAll(req.Tools, nil), cacheMarker.ReplaceAll(req.System, nil)}
	for i, m := range req.Messages {
		if cacheMarker.Match(m) {
			rolling = i
		}
		parts = append(parts, cacheMarker.ReplaceAll(m, nil))
	}
	return parts, rolling
}

// Three consecutive requests of a session, over two prompts, as the agent
// builds them: each starts with the one before up to that one's rolling
// breakpoint (same tools in the same order, the same system prompt, the
// history as it was sent).
func TestWireSessionPromptStaysCacheable(t *testing.T) {
	f, srv, _ := newWireFixture(t, provider.APIAnthropic,
		providertest.Turn{Text: "Let me look.", ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": "a.go"}}}},
		providertest.Turn{Text: "It is short."},
		providertest.Turn{Text: "Still short."},
	)
	if _, err := f.run("check a.go"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.run("and again?"); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	whole := make([][]byte, len(reqs))
	for i, r := range reqs {
		parts, _ := anthropicPromptParts(t, r.Body)
		whole[i] = bytes.Join(parts, []byte("\n"))
	}
	for i, r := range reqs {
		if n := bytes.Count(r.Body, []byte(`"cache_control"`)); n < 2 || n > 4 {
			t.Errorf("request %d has %d breakpoints, want the system prompt's and a rolling one, at most 4", i+1, n)
		}
		parts, rolling := anthropicPromptParts(t, r.Body)
		if rolling < 0 {
			t.Fatalf("request %d has no rolling breakpoint", i+1)
		}
		prefix := bytes.Join(parts[:2+rolling+1], []byte("\n"))
		for j := i + 1; j < len(reqs); j++ {
			if !bytes.HasPrefix(whole[j], prefix) {
				t.Errorf("request %d does not start with request %d's prompt up to its rolling breakpoint", j+1, i+1)
			}
		}
	}
}
