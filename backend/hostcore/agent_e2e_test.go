package hostcore_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// e2e builds a host whose model is a scripted fake server speaking the
// provider's real wire protocol, driven through the official SDK.
func e2e(t *testing.T, srv *providertest.Server) (*hostcore.Core, *cards, api.Session, string) {
	t.Helper()
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(project, "main.go"), "package main\n\nfunc main() {}\n")
	write(t, filepath.Join(project, "AGENTS.md"), "Always run the tests.\n")
	sink := &cards{reqs: make(chan permission.Request, 16)}
	core, err := hostcore.New(t.Context(), hostcore.Config{
		// Delegation as the app has it: the model is offered what a user's is.
		DataDir: filepath.Join(root, "data"), Sink: sink, RgPath: "-", Delegation: true,
		Provider: func(string) (provider.Provider, error) {
			return provider.New(srv.Config(), provider.WithSleeper(providertest.NoSleep))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	p, _ := core.AddProject(t.Context(), project)
	s, _ := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	return core, sink, s, project
}

func TestAgentTurnThroughAnthropicWire(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{Text: "Let me look.", ToolCalls: []providertest.Call{
			{Name: "Read", Input: map[string]any{"path": "main.go"}},
			{Name: "Grep", Input: map[string]any{"pattern": "func", "outputMode": "count"}},
		}, Stop: "tool_use"},
		providertest.Turn{Text: "main.go has one function.", Stop: "end_turn"},
	)
	core, _, s, _ := e2e(t, srv)
	res, err := core.RunTurn(t.Context(), s.ID, "What is in main.go?")
	if err != nil || res.State != "done" || !strings.Contains(res.Text, "one function") {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	first, second := string(reqs[0].Body), string(reqs[1].Body)
	if !strings.Contains(first, "Always run the tests.") || !strings.Contains(first, `"name":"Read"`) {
		t.Error("the first request lacks AGENTS.md or the tool list")
	}
	if !strings.Contains(second, "[main.go#") || !strings.Contains(second, "tool_result") {
		t.Errorf("the tool results did not reach the model: %.400s", second)
	}
	rows, _ := core.AuditRows(t.Context(), s.ID)
	if len(rows) != 2 || rows[0].TurnID != res.TurnID {
		t.Errorf("audit rows = %+v", rows)
	}
	tr, err := core.Transcript(t.Context(), s.ID)
	if err != nil || len(tr.Turns) != 1 || len(tr.Messages) < 3 {
		t.Errorf("transcript = %+v, %v", tr, err)
	}
}

func TestAgentWriteNeedsTheUsersApproval(t *testing.T) {
	srv := providertest.NewOpenAIServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Write", Input: map[string]any{"path": "notes.md", "content": "hello\n"}}}, Stop: "tool_calls"},
		providertest.Turn{Text: "Could not write: denied.", Stop: "stop"},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Write", Input: map[string]any{"path": "notes.md", "content": "hello\n"}}}, Stop: "tool_calls"},
		providertest.Turn{Text: "Written.", Stop: "stop"},
	)
	core, sink, s, project := e2e(t, srv)
	answer := func(o permission.Outcome) {
		go func() {
			select {
			case req := <-sink.reqs:
				_ = core.ResolveApproval(req.SessionID, req.ID, o)
			case <-time.After(20 * time.Second):
			}
		}()
	}
	answer(permission.Denied)
	if res, err := core.RunTurn(t.Context(), s.ID, "write notes"); err != nil || res.State != "done" {
		t.Fatalf("denied turn = %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(project, "notes.md")); !os.IsNotExist(err) {
		t.Fatal("a denied Write ran")
	}
	if !strings.Contains(string(srv.Requests()[1].Body), "user denied permission") {
		t.Error("the model was not told the user denied permission")
	}
	answer(permission.AllowOnce)
	if res, err := core.RunTurn(t.Context(), s.ID, "try again"); err != nil || res.State != "done" {
		t.Fatalf("allowed turn = %+v, %v", res, err)
	}
	if b, err := os.ReadFile(filepath.Join(project, "notes.md")); err != nil || string(b) != "hello\n" {
		t.Errorf("file = %q, %v", b, err)
	}
}
