package agent

import (
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// A per-turn note (here: the previous turn failed) is appended after the
// history the failed request sent, never inserted before it: the next
// request repeats that request's prompt byte for byte up to its last
// block, and only the end of the last message (Anthropic) moves, as the
// note and the new prompt join that user message.
func TestTurnNoteKeepsThePromptPrefix(t *testing.T) {
	tests := []struct {
		proto string
		moved string // the bytes of the failed request the next one does not repeat
	}{
		{provider.APIAnthropic, `],"role":"user"}`},
		{provider.APIOpenAI, ``},
	}
	for _, tc := range tests {
		t.Run(tc.proto, func(t *testing.T) {
			f, srv, _ := newWireFixture(t, tc.proto,
				providertest.Turn{Text: "Let me look.", ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": "a.go"}}}},
				providertest.Turn{Status: 400, ErrorMessage: "bad request"},
				providertest.Turn{Text: "Fine now."},
			)
			if _, err := f.run("check a.go"); err == nil {
				t.Fatal("the first turn should fail on the 400")
			}
			if _, err := f.run("try again"); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 3", len(reqs))
			}
			prev, cur := cachedPrompt(t, tc.proto, reqs[1].Body), cachedPrompt(t, tc.proto, reqs[2].Body)
			n := commonPrefix(prev, cur)
			if got := string(prev[n:]); got != tc.moved {
				t.Errorf("the next request does not repeat %q of the failed one, want only %q", got, tc.moved)
			}
			if rest := string(cur[n:]); !strings.Contains(rest, "[The previous turn ended with an error") || !strings.Contains(rest, "try again") {
				t.Errorf("the note and the prompt are not after the shared prefix: %q", rest)
			}
		})
	}
}
