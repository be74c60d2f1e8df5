package agent

import (
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// Retry sends a failed turn's prompt again. When the failed turn left the
// model nothing (its first request failed), the model reads the prompt once,
// without the failure note, in the retry and in every later request, so the
// prefix a later request repeats is the retry's own.
func TestResentPromptIsReadOnce(t *testing.T) {
	for _, proto := range []string{provider.APIAnthropic, provider.APIOpenAI} {
		t.Run(proto, func(t *testing.T) {
			f, srv, _ := newWireFixture(t, proto,
				providertest.Turn{Status: 400, ErrorMessage: "bad request"},
				providertest.Turn{Text: "Done."},
				providertest.Turn{Text: "Next done."},
			)
			if _, err := f.run("check a.go"); err == nil {
				t.Fatal("the first turn should fail on the 400")
			}
			if _, err := f.run("check a.go"); err != nil {
				t.Fatal(err)
			}
			if _, err := f.run("and b.go"); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 3", len(reqs))
			}
			for i, r := range reqs[1:] {
				body := string(r.Body)
				if n := strings.Count(body, "check a.go"); n != 1 {
					t.Errorf("request %d carries the prompt %d times, want once", i+2, n)
				}
				if strings.Contains(body, "previous turn ended with an error") {
					t.Errorf("request %d still carries the failure note", i+2)
				}
			}
			retry, later := cachedPrompt(t, proto, reqs[1].Body), cachedPrompt(t, proto, reqs[2].Body)
			if n := commonPrefix(retry, later); n < len(retry)-len(`],"role":"user"}`) {
				t.Errorf("the request after the retry does not repeat it: they part at %d of %d bytes: %q", n, len(retry), retry[n:])
			}
		})
	}
}

// The rule is narrow: a different prompt after a failure, or a failed turn
// the model already acted in, keeps the turn and its note.
func TestFailedTurnKeptUnlessResentEmpty(t *testing.T) {
	tests := []struct {
		name  string
		turns []providertest.Turn
		again string
	}{
		{"another prompt", []providertest.Turn{{Status: 400, ErrorMessage: "bad request"}, {Text: "ok"}}, "something else"},
		{"the model acted first", []providertest.Turn{
			{Text: "Let me look.", ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": "a.go"}}}},
			{Status: 400, ErrorMessage: "bad request"},
			{Text: "ok"},
		}, "check a.go"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, srv, _ := newWireFixture(t, provider.APIAnthropic, tc.turns...)
			if _, err := f.run("check a.go"); err == nil {
				t.Fatal("the first turn should fail on the 400")
			}
			if _, err := f.run(tc.again); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			body := string(reqs[len(reqs)-1].Body)
			if !strings.Contains(body, "previous turn ended with an error") || !strings.Contains(body, "check a.go") {
				t.Errorf("the failed turn or its note is missing: %s", body)
			}
		})
	}
}
