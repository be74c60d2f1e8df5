package hostcore_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/cmdrule"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// addRule saves a command rule for the env's project (or globally, or for
// its session).
func (e *env) addRule(d cmdrule.Decision, scope cmdrule.Scope, program string, args ...string) cmdrule.Rule {
	e.t.Helper()
	r := cmdrule.Rule{Decision: d, Program: program, Args: args, Scope: scope}
	switch scope {
	case cmdrule.ScopeProject:
		r.ProjectID = e.session.ProjectID
	case cmdrule.ScopeSession:
		r.SessionID = e.session.ID
	}
	saved, err := hostcore.CommandRulesForTest(e.core).Add(e.t.Context(), r)
	if err != nil {
		e.t.Fatal(err)
	}
	return saved
}

// bash runs a command that must not show a card.
func (e *env) bash(command string) tools.Result {
	e.t.Helper()
	done := make(chan tools.Result, 1)
	go func() { done <- e.call(e.session.ID, "Bash", map[string]any{"command": command}) }()
	select {
	case res := <-done:
		return res
	case req := <-e.cards.reqs:
		_ = e.core.ResolveApproval(req.SessionID, req.ID, permission.Denied)
		<-done
		e.t.Fatalf("%q showed a card: %s", command, req.Reason)
	case <-time.After(30 * time.Second):
		e.t.Fatalf("%q did not finish", command)
	}
	return tools.Result{}
}

// lastRow is the session's newest audit row.
func (e *env) lastRow() hostcoreRow {
	e.t.Helper()
	rows, err := e.core.AuditRows(e.t.Context(), e.session.ID)
	if err != nil || len(rows) == 0 {
		e.t.Fatalf("audit rows: %d, %v", len(rows), err)
	}
	r := rows[len(rows)-1]
	return hostcoreRow{decision: r.Decision, code: r.ErrorCode, prompted: r.Prompted, rules: r.CommandRules}
}

type hostcoreRow struct {
	decision, code, rules string
	prompted              bool
}

// A deny rule refuses the command in every permission and operating mode,
// auto included, naming the rule; nothing runs.
func TestDenyRuleWinsInEveryMode(t *testing.T) {
	e := newEnv(t)
	rule := e.addRule(cmdrule.Deny, cmdrule.ScopeGlobal, "rm", "-rf")
	e.addRule(cmdrule.Allow, cmdrule.ScopeProject, "touch")
	for _, mode := range []string{api.ModeAgent, api.ModePlan, api.ModeGoal} {
		for _, perm := range []string{api.PermissionAsk, api.PermissionAcceptEdits, api.PermissionAuto} {
			e.configure(mode, perm)
			res := e.bash("touch made && timeout 5 rm -rf main.go")
			if res.OK || res.Code != errs.CommandDeniedByRule || res.Details["ruleId"] != rule.ID ||
				!strings.Contains(res.Message, "deny rm -rf (global)") {
				t.Fatalf("%s/%s: %+v", mode, perm, res)
			}
			if _, err := os.Stat(filepath.Join(e.project, "made")); err == nil {
				t.Fatalf("%s/%s: the allowed first half ran", mode, perm)
			}
			row := e.lastRow()
			if row.decision != "deny" || row.code != string(errs.CommandDeniedByRule) || row.prompted ||
				!strings.Contains(row.rules, `"decision":"deny"`) || !strings.Contains(row.rules, rule.ID) {
				t.Fatalf("%s/%s: audit row %+v", mode, perm, row)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(e.project, "main.go")); err != nil {
		t.Fatal("main.go was removed")
	}
}

// "Always allow git status" saves the rule and runs this call; the next
// git status -s runs without a card, while git status && rm x still asks
// and shows both commands.
func TestAlwaysAllowAnswerSavesTheRule(t *testing.T) {
	e := newEnv(t)
	git(t, os.Getenv("HOME"), e.project, "init", "-q")
	write(t, filepath.Join(e.project, "x"), "x\n")
	done := make(chan tools.Result, 1)
	go func() { done <- e.call(e.session.ID, "Bash", map[string]any{"command": "git status"}) }()
	card := <-e.cards.reqs
	if card.Command == nil || len(card.Command.Commands) != 1 || card.Command.Commands[0].Decision != "ask" {
		t.Fatalf("card effect = %+v", card.Command)
	}
	var choice permission.RuleChoice
	for _, c := range card.RuleChoices {
		if c.Words == "git status" && c.Scope == "project" {
			choice = c
		}
	}
	if choice.ID == "" || len(card.RuleChoices) != 2 {
		t.Fatalf("choices = %+v", card.RuleChoices)
	}
	if err := e.core.ResolveApproval(e.session.ID, card.ID, permission.Outcome(permission.AnswerAllowRule+"nope")); errs.CodeOf(err) != errs.InvalidArgument {
		t.Fatalf("a choice the card did not offer = %v", err)
	}
	if err := e.core.ResolveApproval(e.session.ID, card.ID, permission.Outcome(permission.AnswerAllowRule+choice.ID)); err != nil {
		t.Fatal(err)
	}
	if res := <-done; !res.OK || res.Decision != string(permission.AllowRule) {
		t.Fatalf("git status = %+v", res)
	}
	if row := e.lastRow(); !strings.Contains(row.rules, `"saved":{"id":`) || !strings.Contains(row.rules, "allow git status (project)") {
		t.Fatalf("audit row = %+v", row)
	}
	rules, err := hostcore.CommandRulesForTest(e.core).InEffect(t.Context(), e.session.ID)
	if err != nil || len(rules) != 1 || rules[0].String() != "allow git status (project)" {
		t.Fatalf("rules = %+v, %v", rules, err)
	}

	res := e.bash("git status -s")
	if !res.OK || res.Decision != "allow" {
		t.Fatalf("git status -s = %+v", res)
	}
	if row := e.lastRow(); row.prompted || !strings.Contains(row.rules, `"byRules":true`) {
		t.Fatalf("audit row = %+v", row)
	}

	res, card = e.callAnswering(e.session.ID, "Bash", map[string]any{"command": "git status && rm x"}, permission.Denied)
	if res.OK || card.Command == nil || len(card.Command.Commands) != 2 {
		t.Fatalf("git status && rm x: %+v card %+v", res, card.Command)
	}
	if c := card.Command.Commands; c[0].Decision != "allow" || !slices.Contains(c[0].Rules, "allow git status (project)") ||
		c[1].Text != "rm x" || c[1].Decision != "ask" {
		t.Fatalf("lines = %+v", c)
	}
	if !slices.Contains(card.Command.Matched, "allow git status (project)") {
		t.Errorf("matched = %v", card.Command.Matched)
	}
	for _, c := range card.RuleChoices {
		if c.Words == "rm" {
			t.Errorf("rm offered for good: %+v", card.RuleChoices)
		}
	}
	if _, err := os.Stat(filepath.Join(e.project, "x")); err != nil {
		t.Fatal("x was removed after a deny")
	}
}

// A redirection is a Write to its target: into .git/hooks it is the
// protected write it is (a card even in auto); outside the workspace it
// meets the external-path gate; into the workspace it needs what a Write
// needs in the mode; /dev/null and the scratch folder are fine.
func TestRedirectionsAreWrites(t *testing.T) {
	e := newEnv(t)
	git(t, os.Getenv("HOME"), e.project, "init", "-q")
	e.addRule(cmdrule.Allow, cmdrule.ScopeGlobal, "echo")
	scratch, err := e.core.ScratchDirForTest(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}

	e.configure("", api.PermissionAuto)
	hook := filepath.Join(e.project, ".git", "hooks", "x")
	res, card := e.callAnswering(e.session.ID, "Bash", map[string]any{"command": "echo evil > .git/hooks/x"}, permission.Denied)
	if res.OK || !strings.Contains(card.Reason, "git folder") || len(card.Command.Writes) != 1 ||
		card.Command.Writes[0].Root != "workspace" || card.Command.Writes[0].Decision != "ask" {
		t.Fatalf("hook write: %+v card %+v", res, card)
	}
	if _, err := os.Stat(hook); err == nil {
		t.Fatal("the hook was written after a deny")
	}

	e.configure("", api.PermissionAcceptEdits)
	out := filepath.Join(e.outside, "o.txt")
	res, card = e.callAnswering(e.session.ID, "Bash", map[string]any{"command": "echo hi > " + out}, permission.Denied)
	if res.OK || !card.External || card.Command.Writes[0].Root != "external" || card.Command.Writes[0].Decision != "ask" {
		t.Fatalf("outside write: %+v card %+v", res, card.Command)
	}
	if res := e.bash("echo hi > in.txt && echo null > /dev/null && echo s > " + filepath.Join(scratch, "s.txt")); !res.OK {
		t.Fatalf("workspace, null and scratch writes in accept-edits: %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(e.project, "in.txt")); string(b) != "hi\n" {
		t.Errorf("in.txt = %q", b)
	}

	e.configure("", api.PermissionAsk)
	res, card = e.callAnswering(e.session.ID, "Bash", map[string]any{"command": "echo again > in.txt"}, permission.AllowOnce)
	if !res.OK || card.Command.Writes[0].Decision != "ask" || card.Command.Writes[0].Reason != "changes a file in the workspace" {
		t.Fatalf("workspace write in ask: %+v card %+v", res, card.Command)
	}
	if res := e.bash("echo s >> " + filepath.Join(scratch, "s.txt")); !res.OK {
		t.Fatalf("scratch write in ask: %+v", res)
	}

	// A relative target after a cd lands where only the shell knows.
	e.addRule(cmdrule.Allow, cmdrule.ScopeGlobal, "cd")
	e.configure("", api.PermissionAcceptEdits)
	res, card = e.callAnswering(e.session.ID, "Bash", map[string]any{"command": "cd " + e.outside + " && echo x > moved.txt"}, permission.Denied)
	if res.OK || card.Command.Writes[0].Root != permission.WriteRootUnknown {
		t.Fatalf("cd then write: %+v card %+v", res, card.Command)
	}
	if _, err := os.Stat(filepath.Join(e.outside, "moved.txt")); err == nil {
		t.Fatal("moved.txt was written after a deny")
	}
}

// Rules spare the card only in ask and accept-edits of Agent mode as the
// spec's matrix allows: in Plan a command writing to the workspace still
// asks, a read-only one runs; Allow-session still covers every command.
func TestRulesInPlanAndWithGrants(t *testing.T) {
	e := newEnv(t)
	e.addRule(cmdrule.Allow, cmdrule.ScopeProject, "echo")
	e.configure(api.ModePlan, api.PermissionAcceptEdits)
	if res := e.bash("echo plan"); !res.OK {
		t.Fatalf("echo in plan: %+v", res)
	}
	res, card := e.callAnswering(e.session.ID, "Bash", map[string]any{"command": "echo x > plan.txt"}, permission.Denied)
	if res.OK || card.Command.Writes[0].Decision != "ask" || !strings.Contains(card.Command.Writes[0].Reason, "Plan and Goal") {
		t.Fatalf("write in plan: %+v card %+v", res, card.Command)
	}
	e.configure(api.ModeAgent, api.PermissionAsk)
	res, _ = e.callAnswering(e.session.ID, "Bash", map[string]any{"command": "ls"}, permission.AllowSession)
	if !res.OK {
		t.Fatalf("ls: %+v", res)
	}
	if res := e.bash("true && echo granted > g.txt"); !res.OK || res.Decision != "granted" {
		t.Fatalf("after allow-session: %+v", res)
	}
}

// PowerShell and cmd commands are never allowed by a rule; deny rules
// still match their leading words.
func TestForeignDialectsNeverAutoAllow(t *testing.T) {
	e := newEnv(t)
	e.addRule(cmdrule.Allow, cmdrule.ScopeGlobal, "echo")
	e.addRule(cmdrule.Deny, cmdrule.ScopeGlobal, "Remove-Item")
	raw := []byte(`{"command":"echo hi"}`)
	req := hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "t", ToolCallID: "ps-1", Tool: "Bash", Args: raw,
		Shell: tools.ShellPin{ID: "bash", Dialect: "powershell"}}
	done := make(chan tools.Result, 1)
	go func() { done <- e.core.Execute(t.Context(), req) }()
	select {
	case card := <-e.cards.reqs:
		if card.Command == nil || card.Command.Dialect != "powershell" || len(card.RuleChoices) != 0 {
			t.Errorf("card = %+v", card.Command)
		}
		_ = e.core.ResolveApproval(card.SessionID, card.ID, permission.Denied)
		<-done
	case res := <-done:
		t.Fatalf("ran without a card: %+v", res)
	}
	req.ToolCallID, req.Args = "ps-2", []byte(`{"command":"Remove-Item -Recurse x"}`)
	e.configure("", api.PermissionAuto)
	if res := e.core.Execute(t.Context(), req); res.Code != errs.CommandDeniedByRule {
		t.Fatalf("deny in powershell = %+v", res)
	}
}
