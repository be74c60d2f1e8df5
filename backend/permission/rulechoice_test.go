package permission_test

import (
	"context"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// An "Always allow" answer picks one of the card's own choices: any other
// is refused and leaves the card open; the chosen one lets the call run,
// names the rule in the resolution and installs no session grant.
func TestRuleChoiceAnswers(t *testing.T) {
	ev := newEvents()
	b := permission.NewBroker(ev.emit, nil)
	choice := permission.RuleChoice{ID: "0-project", Words: "git status", Scope: "project", Label: "Always allow git status in this project"}
	out := make(chan permission.Answer, 1)
	go func() {
		out <- b.AskAnswer(context.Background(), permission.Request{ID: "r1", SessionID: "s", Tool: "Bash",
			RuleChoices: []permission.RuleChoice{choice}}, 0)
	}()
	<-ev.reqs
	for _, bad := range []string{"allow-rule:", "allow-rule:1-project", "allow-rules:0-project", "always"} {
		if err := b.Resolve("s", "r1", permission.Outcome(bad)); errs.CodeOf(err) != errs.InvalidArgument {
			t.Errorf("%q = %v", bad, err)
		}
	}
	if err := b.Resolve("s", "r1", permission.Outcome(permission.AnswerAllowRule+choice.ID)); err != nil {
		t.Fatal(err)
	}
	a := <-out
	if a.Outcome != permission.AllowRule || !a.Outcome.Allowed() || a.Choice != choice {
		t.Fatalf("answer = %+v", a)
	}
	if b.Granted("s", "Bash") {
		t.Error("an Always-allow answer installed a grant for every command")
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if len(ev.res) != 1 || ev.res[0].Outcome != permission.AllowRule || ev.res[0].Rule != choice.Label {
		t.Errorf("resolutions = %+v", ev.res)
	}
}

// A plain answer carries no choice, and a card offering none refuses a
// rule answer.
func TestRuleAnswerWithoutChoices(t *testing.T) {
	ev := newEvents()
	b := permission.NewBroker(ev.emit, nil)
	out := make(chan permission.Answer, 1)
	go func() {
		out <- b.AskAnswer(context.Background(), permission.Request{ID: "r", SessionID: "s", Tool: "Bash"}, 0)
	}()
	<-ev.reqs
	if err := b.Resolve("s", "r", permission.Outcome(permission.AnswerAllowRule+"0-session")); errs.CodeOf(err) != errs.InvalidArgument {
		t.Fatalf("rule answer on a card without choices = %v", err)
	}
	if err := b.Resolve("s", "r", permission.AllowOnce); err != nil {
		t.Fatal(err)
	}
	if a := <-out; a.Outcome != permission.AllowOnce || a.Choice != (permission.RuleChoice{}) {
		t.Fatalf("answer = %+v", a)
	}
}
