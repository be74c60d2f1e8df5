package hostcore_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// After a restart the window rebuilds each Task row from storage: the
// delegation is listed under the Task call that started it (its tool call
// id in the parent's page), and its own conversation — the delegate's Read
// with its result, then its report — loads apart from the parent's pages.
func TestDelegationTranscriptSurvivesARestart(t *testing.T) {
	e := newDelegationEnvWith(t, true)
	e.parent.Push(
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Task", Input: map[string]any{
			"subagent": "explore", "description": "read main", "prompt": "What does main.go hold?"}}}, Stop: "tool_use"},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "TaskWait", Input: map[string]any{}}}, Stop: "tool_use"},
		providertest.Turn{Text: "The delegate reported.", Stop: "end_turn"},
	)
	e.router.route("You are a read-only investigator working for another agent.", providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Read", Input: map[string]any{"path": "main.go"}}}, Stop: "tool_use"},
		providertest.Turn{Text: "main.go declares **main**.", Stop: "end_turn"}))
	if res, err := e.core.RunTurn(t.Context(), e.session.ID, "Look at main.go."); err != nil || res.Text != "The delegate reported." {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	if err := e.core.Close(); err != nil {
		t.Fatal(err)
	}
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: e.data, Home: filepath.Join(filepath.Dir(e.data), "home"), RgPath: "-", Delegation: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })

	list, err := core.Delegations(t.Context(), e.session.ID)
	if err != nil || len(list) != 1 {
		t.Fatalf("delegations = %+v, %v", list, err)
	}
	d := list[0]
	if d.State != agent.DelegationDone || d.Subagent != "explore" || d.Description != "read main" || d.ToolCount != 1 ||
		d.Report != "main.go declares **main**." {
		t.Errorf("delegation = %+v", d)
	}
	page, err := core.TranscriptPage(t.Context(), e.session.ID, agent.PageQuery{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var taskCall string
	for _, m := range page.Messages {
		for _, c := range m.ToolCalls {
			if c.Tool == "Task" {
				taskCall = c.ID
			}
			if c.Tool == "Read" {
				t.Errorf("the delegate's Read is in the parent's page: %+v", c)
			}
		}
	}
	if taskCall == "" || d.ParentToolCallID != taskCall {
		t.Errorf("the delegation's parent call %q is not the page's Task call %q", d.ParentToolCallID, taskCall)
	}

	own, err := core.DelegationTranscript(t.Context(), e.session.ID, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if own.Delegation.ID != d.ID || len(own.Turns) != 1 || own.Turns[0].ID != d.TurnID {
		t.Fatalf("delegate page = %+v", own)
	}
	var read *agent.ToolCallRecord
	var texts []string
	for _, m := range own.Messages {
		for i := range m.ToolCalls {
			read = &m.ToolCalls[i]
		}
		for _, b := range m.Content {
			if b.Text != "" {
				texts = append(texts, b.Text)
			}
		}
	}
	if read == nil || read.Tool != "Read" || read.State != agent.CallDone {
		t.Fatalf("the delegate's call = %+v", read)
	}
	var res struct{ Content string }
	if err := json.Unmarshal(read.Result, &res); err != nil || !strings.Contains(res.Content, "func main() {}") {
		t.Errorf("the Read's stored result = %s, %v", read.Result, err)
	}
	if got := strings.Join(texts, "|"); got != "What does main.go hold?|main.go declares **main**." {
		t.Errorf("the delegate's texts = %q", got)
	}

	if _, err := core.DelegationTranscript(t.Context(), "another-session", d.ID); errs.CodeOf(err) != errs.DelegateNotFound {
		t.Errorf("another session's read = %v", err)
	}
}
