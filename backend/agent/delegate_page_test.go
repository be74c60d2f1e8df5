package agent

import (
	"encoding/json"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
)

// A finished delegate's row is rebuilt from storage alone: its record with
// the report, and its own turn with the prompt, the tool call and its
// result, and the final text — while the parent's transcript stays empty.
func TestLoadDelegationReturnsTheDelegatesOwnConversation(t *testing.T) {
	f := newDelegateFixture(t)
	def := readOnly("explore")
	f.script(def,
		callTools(provider.StopToolUse, use{"tu_1", "Read", `{"path":"main.go"}`}),
		say("main.go defines main."))
	d := f.start(def, "What is in main.go?")
	f.waitAll(d.ID)

	p, err := f.a.LoadDelegation(t.Context(), sid, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := p.Delegation
	if got.ID != d.ID || got.State != DelegationDone || got.Report != "main.go defines main." || got.ToolCount != 1 ||
		got.ParentToolCallID != "parent-call" || got.Subagent != "explore" || got.FinishedAt == 0 {
		t.Errorf("delegation = %+v", got)
	}
	if len(p.Turns) != 1 || p.Turns[0].ID != d.TurnID || p.Turns[0].State != TurnDone || p.Turns[0].Prompt != "What is in main.go?" {
		t.Fatalf("turns = %+v", p.Turns)
	}
	var kinds []string
	var calls []ToolCallRecord
	for _, m := range p.Messages {
		if m.TurnID != d.TurnID {
			t.Errorf("message %s of turn %s", m.ID, m.TurnID)
		}
		kinds = append(kinds, m.Kind)
		calls = append(calls, m.ToolCalls...)
	}
	if len(kinds) != 3 || kinds[0] != KindPrompt || kinds[1] != KindModel || kinds[2] != KindModel {
		t.Errorf("message kinds = %v", kinds)
	}
	if len(calls) != 1 || calls[0].Tool != "Read" || calls[0].State != CallDone || len(calls[0].Result) == 0 {
		t.Fatalf("calls = %+v", calls)
	}
	var res struct{ OK bool }
	if err := json.Unmarshal(calls[0].Result, &res); err != nil || !res.OK {
		t.Errorf("result = %s, %v", calls[0].Result, err)
	}
	last := p.Messages[len(p.Messages)-1]
	if len(last.Content) == 0 || last.Content[0].Text != "main.go defines main." {
		t.Errorf("last message = %+v", last.Content)
	}
	if tr := f.load(); len(tr.Turns) != 0 || len(tr.Messages) != 0 {
		t.Errorf("parent transcript = %+v", tr)
	}
	page, err := f.a.LoadPage(t.Context(), sid, PageQuery{Limit: 100})
	if err != nil || len(page.Turns) != 0 || len(page.Messages) != 0 {
		t.Errorf("parent page = %+v, %v", page, err)
	}
}

func TestLoadDelegationNeverReachesAnotherSession(t *testing.T) {
	f := newDelegateFixture(t)
	def := definition("explore", subagent.ToolSpec{Names: subagent.DefaultTools()})
	f.script(def, say("nothing to do"))
	d := f.start(def, "look")
	f.waitAll(d.ID)
	for name, id := range map[string]string{"unknown id": "nope", "other session's id": d.ID} {
		t.Run(name, func(t *testing.T) {
			session := sid
			if id == d.ID {
				session = "other-session"
			}
			_, err := f.a.LoadDelegation(t.Context(), session, id)
			if errs.CodeOf(err) != errs.DelegateNotFound {
				t.Errorf("err = %v, want %s", err, errs.DelegateNotFound)
			}
		})
	}
}
