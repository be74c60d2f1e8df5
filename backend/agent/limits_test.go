package agent

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	dbstore "github.com/pi-desktop/pi-desktop/backend/store"
)

// A known model whose profile leaves the window at 0 is compacted at the
// window of the built-in table (gpt-3.5-turbo: 16,385 tokens, 4,096 kept
// for output), through a real provider against the fake OpenAI server; an
// unknown model on the same server gets the API's default window (128k)
// and the same two prompts need no compaction.
func TestCompactionFollowsTheModelTable(t *testing.T) {
	tests := []struct {
		model    string
		requests int
	}{
		{"gpt-3.5-turbo", 3}, // answer, summary, answer
		{"house-model-7b", 2},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			srv := providertest.NewOpenAIServer(t,
				providertest.Turn{Text: "Noted."},
				providertest.Turn{Text: "The user sent two long notes about the parser."},
				providertest.Turn{Text: "Done."})
			cfg := srv.Config()
			cfg.Model, cfg.ContextWindow, cfg.MaxOutputTokens = tt.model, 0, 0
			p, err := provider.New(cfg, provider.WithSleeper(providertest.NoSleep))
			if err != nil {
				t.Fatal(err)
			}
			st, err := dbstore.Open(t.Context(), filepath.Join(t.TempDir(), "pi.sqlite"), dbstore.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = st.Close() })
			if _, err := st.DB().ExecContext(t.Context(), `INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, 't', 1, 1)`, sid); err != nil {
				t.Fatal(err)
			}
			now := func() time.Time { return time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC) }
			a := New(st.DB(), newHost(), func(string) (provider.Provider, error) { return p, nil }, nil, now)
			note := strings.Repeat("The parser reads tokens one at a time. ", 800) // ~31k chars, ~7.8k tokens
			for _, prompt := range []string{"First note: " + note, "Second note: " + note} {
				if _, err := a.Run(t.Context(), sid, prompt); err != nil {
					t.Fatal(err)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != tt.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tt.requests)
			}
			if tt.requests == 3 {
				summary := reqs[1].JSON()
				if _, ok := summary["tools"]; ok || !strings.Contains(string(reqs[1].Body), "Summarize this conversation") {
					t.Errorf("the second request is not the summary: %.300s", reqs[1].Body)
				}
				if strings.Contains(string(reqs[2].Body), "First note") && !strings.Contains(string(reqs[2].Body), "The user sent two long notes") {
					t.Errorf("the request after compaction does not continue from the summary")
				}
			}
			if got := reqs[0].JSON()["max_completion_tokens"]; tt.requests == 3 && got != float64(4096) {
				t.Errorf("max_completion_tokens = %v, want the table's 4096", got)
			}
		})
	}
}
