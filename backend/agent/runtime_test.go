package agent

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// waitFor polls the recorded events until one named name satisfies ok.
func (r *recorder) waitFor(t *testing.T, name string, ok func(any) bool) any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, p := range r.named(name) {
			if ok == nil || ok(p) {
				return p
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("no %s event", name)
	return nil
}

func toolNames(req provider.Request) []string {
	var out []string
	for _, td := range req.Tools {
		out = append(out, td.Name)
	}
	return out
}

// runAsync runs a turn in the background.
func (f *fixture) runAsync(prompt string) <-chan error {
	done := make(chan error, 1)
	go func() { _, err := f.a.Run(f.t.Context(), sid, prompt); done <- err }()
	return done
}

func wait(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the turn did not end")
		return nil
	}
}

func (h *fakeHost) auditOf(tool string) []auditRow {
	var out []auditRow
	for _, a := range h.auditList() {
		if a.Tool == tool {
			out = append(out, a)
		}
	}
	return out
}

func TestTodoWritePersistsAndRestores(t *testing.T) {
	first := `{"todos":[{"content":"Read the code","status":"in_progress","activeForm":"Reading the code"},{"content":"Fix the bug","status":"pending"}]}`
	second := `{"todos":[{"content":"Read the code","status":"completed"},{"content":"Fix the bug","status":"in_progress"},{"content":"Run tests","status":"pending"}]}`
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", "TodoWrite", first}),
		callTools(provider.StopToolUse, use{"tu_2", "TodoWrite", second}),
		callTools(provider.StopToolUse, use{"tu_3", "TodoWrite", `{"todos":[{"content":"x","status":"in_progress"},{"content":"y","status":"in_progress"}]}`}),
		say("Working."))
	if _, err := f.run("fix it"); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	if r := lastResults(t, reqs[1]); r[0].IsError || !strings.Contains(r[0].Text, "2 item(s)") || !strings.Contains(r[0].Text, "[~] Read the code") {
		t.Errorf("first result = %+v", r)
	}
	if r := lastResults(t, reqs[3]); !r[0].IsError || !strings.Contains(r[0].Text, "INVALID_ARGUMENT") || !strings.Contains(r[0].Text, `"field":"todos[1].status"`) {
		t.Errorf("invalid result = %+v", r)
	}
	if n := len(f.host.records()); n != 0 {
		t.Errorf("%d calls reached host-core Execute; TodoWrite runs in the agent", n)
	}
	// The rejected third call left the second snapshot in place, in order.
	want := []Todo{{"Read the code", TodoCompleted, ""}, {"Fix the bug", TodoInProgress, ""}, {"Run tests", TodoPending, ""}}
	f.a = f.newAgent() // a restart
	if got, err := f.a.Todos(t.Context(), sid); err != nil || !slices.Equal(got, want) {
		t.Errorf("Todos = %+v, %v", got, err)
	}
	evs := f.rec.named(EventTodos)
	if len(evs) != 2 || !slices.Equal(evs[1].(TodosEvent).Todos, want) || evs[1].(TodosEvent).TurnID == "" {
		t.Errorf("todo events = %+v", evs)
	}
	if got, _ := f.a.Todos(t.Context(), "other"); got == nil || len(got) != 0 {
		t.Errorf("no checklist = %#v", got)
	}
	audits := f.host.auditOf("TodoWrite")
	if len(audits) != 3 || !audits[0].OK || audits[0].Decision != "allow" || audits[0].OperatingMode != "agent" || audits[0].ToolCallID == "" ||
		audits[2].OK || audits[2].ErrorCode != errs.InvalidArgument {
		t.Errorf("audit = %+v", audits)
	}
}

func TestTodoWriteRefusedInPlan(t *testing.T) {
	f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "TodoWrite", `{"todos":[]}`}), say("ok"))
	f.host.setMode("plan")
	if _, err := f.run("plan it"); err != nil {
		t.Fatal(err)
	}
	r := lastResults(t, f.prov.requests()[1])
	if !r[0].IsError || !strings.Contains(r[0].Text, "TOOL_DISABLED_IN_PLAN") {
		t.Errorf("result = %+v", r)
	}
	if a := f.host.auditOf("TodoWrite"); len(a) != 1 || a[0].Decision != "deny" || a[0].OperatingMode != "plan" {
		t.Errorf("audit = %+v", a)
	}
}

func TestNewContextCompactsAtTheNextBoundary(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", "new_context", `{}`}),
		say("Summary: the user asked for a fresh start."),
		say("Fresh."))
	res, err := f.run("start over")
	if err != nil || res.Text != "Fresh." {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	reqs := f.prov.requests()
	if len(reqs) != 3 || len(reqs[1].Tools) != 0 || reqs[1].System != summarySystem {
		t.Fatalf("the second call is not the summary: %d calls", len(reqs))
	}
	if !strings.Contains(reqs[1].Messages[0].Content[0].Text, "A new context window starts at the next turn boundary") {
		t.Errorf("the new_context result is not in the summarized history: %s", must(json.Marshal(reqs[1].Messages)))
	}
	if tr := f.load(); tr.Checkpoint == nil {
		t.Error("no checkpoint")
	}
	if !strings.Contains(reqs[2].Messages[1].Content[0].Text, "fresh start") {
		t.Errorf("the next request does not start from the checkpoint: %s", must(json.Marshal(reqs[2].Messages)))
	}
	// Parameters are refused.
	f2 := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "new_context", `{"why":"x"}`}), say("ok"))
	if _, err := f2.run("go"); err != nil {
		t.Fatal(err)
	}
	if r := lastResults(t, f2.prov.requests()[1]); !r[0].IsError || !strings.Contains(r[0].Text, "takes no parameters") {
		t.Errorf("result = %+v", r)
	}
	if f2.a.takeCompactionRequest(sid) {
		t.Error("a refused new_context still asked for compaction")
	}
}

const askArgs = `{"questions":[
	{"question":"Which database?","options":["Postgres",{"label":"SQLite","description":"embedded"}]},
	{"question":"Which features?","options":["auth","search","export"],"multiSelect":true},
	{"question":"Anything else?"}]}`

func TestAskToolAnswers(t *testing.T) {
	f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "asktool", askArgs}), say("Thanks."))
	done := f.runAsync("build an app")
	ev := f.rec.waitFor(t, EventQuestion, nil).(QuestionEvent)
	if ev.State != QuestionPending || ev.QuestionID == "" || ev.TurnID == "" || ev.ToolCallID == "" || len(ev.Questions) != 3 ||
		ev.Questions[0].Options[0] != (Option{Label: "Postgres"}) || ev.Questions[0].Options[1] != (Option{"SQLite", "embedded"}) ||
		!ev.Questions[1].MultiSelect {
		t.Fatalf("question event = %+v", ev)
	}
	if p := f.a.PendingQuestions(sid); len(p) != 1 || p[0].QuestionID != ev.QuestionID {
		t.Errorf("pending = %+v", p)
	}
	// Invalid answers are refused and the question keeps waiting.
	for _, bad := range [][]Answer{
		{{Selected: []string{"MySQL"}}},
		{{Selected: []string{"Postgres", "SQLite"}}},
		{{}, {Selected: []string{"auth", "auth"}}},
		{{}, {}, {Selected: []string{"x"}}},
		{{}, {}, {}, {}},
		{{Text: strings.Repeat("x", maxAnswerLen+1)}},
	} {
		if err := f.a.Answer(sid, ev.QuestionID, bad); !errs.Is(err, errs.InvalidArgument) {
			t.Errorf("answer %+v: %v", bad, err)
		}
	}
	if err := f.a.Answer("other", ev.QuestionID, nil); !errs.Is(err, errs.NotFound) {
		t.Errorf("another session's answer: %v", err)
	}
	if err := f.a.Answer(sid, ev.QuestionID, []Answer{{Selected: []string{"SQLite"}}, {Selected: []string{"auth", "export"}, Text: "and a CLI"}}); err != nil {
		t.Fatal(err)
	}
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	if err := f.a.Answer(sid, ev.QuestionID, nil); !errs.Is(err, errs.NotFound) {
		t.Errorf("a second answer: %v", err)
	}
	r := lastResults(t, f.prov.requests()[1])
	var got struct {
		Answers []struct {
			Question string   `json:"question"`
			Selected []string `json:"selected"`
			Text     string   `json:"text"`
		} `json:"answers"`
	}
	if r[0].IsError || json.Unmarshal([]byte(r[0].Text), &got) != nil || len(got.Answers) != 3 {
		t.Fatalf("result = %+v", r)
	}
	if got.Answers[0].Selected[0] != "SQLite" || !slices.Equal(got.Answers[1].Selected, []string{"auth", "export"}) || got.Answers[1].Text != "and a CLI" ||
		got.Answers[2].Question != "Anything else?" || len(got.Answers[2].Selected) != 0 || got.Answers[2].Text != "" {
		t.Errorf("answers = %+v", got.Answers)
	}
	last := f.rec.named(EventQuestion)
	if end := last[len(last)-1].(QuestionEvent); end.State != QuestionAnswered || len(end.Answers) != 3 {
		t.Errorf("final event = %+v", end)
	}
	if len(f.a.PendingQuestions(sid)) != 0 {
		t.Error("still pending")
	}
	if a := f.host.auditOf("asktool"); len(a) != 1 || !a[0].OK || !a[0].Prompted || a[0].Decision != "user" {
		t.Errorf("audit = %+v", a)
	}
}

func TestAskToolSkippedOnStop(t *testing.T) {
	f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "asktool", askArgs}, use{"tu_2", "Read", `{"path":"a"}`}))
	done := f.runAsync("ask me")
	ev := f.rec.waitFor(t, EventQuestion, nil).(QuestionEvent)
	f.a.Stop(sid)
	mustCode(t, wait(t, done), errs.TurnAborted)
	calls := f.load().Messages[1].ToolCalls
	if calls[0].State != CallDone || calls[0].IsError || !strings.Contains(calls[0].ModelText, `{"question":"Which database?","selected":[],"text":""}`) ||
		!strings.Contains(calls[0].ModelText, "stopped before the user answered") {
		t.Errorf("asktool call = %+v", calls[0])
	}
	if calls[1].State != CallSkipped || len(f.host.records()) != 0 {
		t.Errorf("the Read after the stop = %+v", calls[1])
	}
	last := f.rec.named(EventQuestion)
	if end := last[len(last)-1].(QuestionEvent); end.State != QuestionSkipped || end.QuestionID != ev.QuestionID {
		t.Errorf("final event = %+v", end)
	}
	if err := f.a.Answer(sid, ev.QuestionID, nil); !errs.Is(err, errs.NotFound) || len(f.a.PendingQuestions(sid)) != 0 {
		t.Errorf("answer after stop: %v", err)
	}
}

const planMD = "# Plan: fix login\r\n\n1. Read `auth.go`  \n2. Fix the check ✓\n\ttrailing tab\t\n"

func submitArgs(md string) string {
	return string(must(json.Marshal(map[string]string{"title": "Fix login", "markdown": md, "question": "Go ahead?"})))
}

func awaitProposal(t *testing.T, f *fixture) Proposal {
	t.Helper()
	return f.rec.waitFor(t, EventProposal, func(p any) bool { return p.(Proposal).State == ProposalPending }).(Proposal)
}

func TestPlanSubmitApprove(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", "SubmitPlan", submitArgs(planMD)}),
		say("Implementing."))
	f.host.setMode("plan")
	done := f.runAsync("plan the login fix")
	p := awaitProposal(t, f)
	if p.Kind != "plan" || p.Version != 1 || p.Title != "Fix login" || p.Question != "Go ahead?" || p.Markdown != planMD ||
		p.Path != ".pi/plan/fix-login-1.md" || p.Size != int64(len(planMD)) || len(p.SHA256) != 64 {
		t.Fatalf("proposal = %+v", p)
	}
	if b, ok := f.host.artifact(p.Path); !ok || string(b) != planMD {
		t.Errorf("artifact = %q", b)
	}
	if list, err := f.a.Proposals(t.Context(), sid); err != nil || len(list) != 1 || list[0].State != ProposalPending || list[0].Markdown != planMD {
		t.Errorf("Proposals = %+v, %v", list, err)
	}
	ok := ProposalDecision{SessionID: sid, TurnID: p.TurnID, ProposalID: p.ID, Version: 1, Approve: true, PermissionMode: "accept-edits"}
	for _, bad := range []ProposalDecision{
		func() ProposalDecision { d := ok; d.Version = 2; return d }(),
		func() ProposalDecision { d := ok; d.TurnID = "t-old"; return d }(),
		func() ProposalDecision { d := ok; d.SessionID = "other"; return d }(),
		func() ProposalDecision { d := ok; d.ProposalID = "nope"; return d }(),
	} {
		if _, err := f.a.ResolveProposal(t.Context(), bad); !errs.Is(err, errs.PlanApprovalStale) {
			t.Errorf("decision %+v: %v, want PLAN_APPROVAL_STALE", bad, err)
		}
	}
	for _, pm := range []string{"", "inherit", "yolo"} {
		d := ok
		d.PermissionMode = pm
		if _, err := f.a.ResolveProposal(t.Context(), d); !errs.Is(err, errs.InvalidArgument) {
			t.Errorf("approval with permission mode %q: %v", pm, err)
		}
	}
	if mode, _ := f.host.state(); mode != "plan" {
		t.Fatalf("refused decisions changed the mode to %s", mode)
	}
	got, err := f.a.ResolveProposal(t.Context(), ok)
	if err != nil || got.State != ProposalApproved || got.PermissionMode != "accept-edits" {
		t.Fatalf("ResolveProposal = %+v, %v", got, err)
	}
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	if _, err := f.a.ResolveProposal(t.Context(), ok); !errs.Is(err, errs.PlanApprovalStale) {
		t.Errorf("a second approval: %v", err)
	}
	if mode, pm := f.host.state(); mode != "agent" || pm != "accept-edits" {
		t.Errorf("session = %s/%s, want agent/accept-edits", mode, pm)
	}
	reqs := f.prov.requests()
	r := lastResults(t, reqs[1])
	if r[0].IsError || !strings.Contains(r[0].Text, "approved the plan") || !strings.Contains(r[0].Text, "Carry out the plan") ||
		!strings.Contains(r[0].Text, "Agent mode with permission mode accept-edits") {
		t.Errorf("result = %+v", r)
	}
	// The next request is an Agent request: its tools and prompt.
	if names := toolNames(reqs[1]); !slices.Contains(names, "Write") || slices.Contains(names, "SubmitPlan") || !strings.Contains(reqs[1].System, "Operating mode: Agent") {
		t.Errorf("request after approval: tools %v", names)
	}
	if names := toolNames(reqs[0]); slices.Contains(names, "Write") || !slices.Contains(names, "SubmitPlan") {
		t.Errorf("plan request tools %v", names)
	}
	if list, _ := f.a.Proposals(t.Context(), sid); list[0].State != ProposalApproved || list[0].PermissionMode != "accept-edits" || list[0].ResolvedAt == 0 {
		t.Errorf("stored proposal = %+v", list[0])
	}
	if m := f.rec.named(EventMode); len(m) != 1 || m[0].(ModeEvent).OperatingMode != "agent" || m[0].(ModeEvent).PermissionMode != "accept-edits" {
		t.Errorf("mode events = %+v", m)
	}
	if a := f.host.auditOf("SubmitPlan"); len(a) != 1 || !a[0].OK || a[0].Decision != "user" || !a[0].Prompted || a[0].Path != p.Path {
		t.Errorf("audit = %+v", a)
	}
}

func TestPlanSubmitReject(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", "SubmitPlan", submitArgs("# v1\n")}),
		callTools(provider.StopToolUse, use{"tu_2", "SubmitPlan", submitArgs("# v2\n")}),
		say("Revised."))
	f.host.setMode("plan")
	done := f.runAsync("plan")
	p := awaitProposal(t, f)
	if _, err := f.a.ResolveProposal(t.Context(), ProposalDecision{SessionID: sid, TurnID: p.TurnID, ProposalID: p.ID, Version: p.Version,
		Feedback: "Use the existing session table."}); err != nil {
		t.Fatal(err)
	}
	p2 := f.rec.waitFor(t, EventProposal, func(x any) bool { return x.(Proposal).Version == 2 }).(Proposal)
	// The first card is settled: answering it again is stale.
	if _, err := f.a.ResolveProposal(t.Context(), ProposalDecision{SessionID: sid, TurnID: p.TurnID, ProposalID: p.ID, Version: 1, Approve: true, PermissionMode: "ask"}); !errs.Is(err, errs.PlanApprovalStale) {
		t.Errorf("old proposal: %v", err)
	}
	if p2.Path == p.Path {
		t.Errorf("the second submission reused %s", p.Path)
	}
	if _, err := f.a.ResolveProposal(t.Context(), ProposalDecision{SessionID: sid, TurnID: p2.TurnID, ProposalID: p2.ID, Version: 2}); err != nil {
		t.Fatal(err)
	}
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	r := lastResults(t, reqs[1])
	if r[0].IsError || !strings.Contains(r[0].Text, "did not approve") || !strings.Contains(r[0].Text, "Use the existing session table.") ||
		!strings.Contains(r[0].Text, "still in Plan mode") {
		t.Errorf("reject result = %+v", r)
	}
	if r := lastResults(t, reqs[2]); !strings.Contains(r[0].Text, "no feedback given") {
		t.Errorf("reject without feedback = %+v", r)
	}
	if mode, _ := f.host.state(); mode != "plan" || !slices.Contains(toolNames(reqs[2]), "SubmitPlan") {
		t.Errorf("mode after reject = %s", mode)
	}
	list, _ := f.a.Proposals(t.Context(), sid)
	if len(list) != 2 || list[0].State != ProposalRejected || list[0].Feedback != "Use the existing session table." || list[1].State != ProposalRejected {
		t.Errorf("proposals = %+v", list)
	}
}

func TestGoalEnterSubmitApprove(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", "EnterGoalMode", `{}`}),
		callTools(provider.StopToolUse, use{"tu_2", "SubmitGoal", `{"title":"Fast CI","markdown":"- [ ] CI under 5 min\n"}`}),
		say("Working on it."))
	done := f.runAsync("make CI fast")
	p := awaitProposal(t, f)
	if p.Kind != "goal" || p.Path != ".pi/goal/fast-ci-1.md" || p.Question != "Approve this goal?" {
		t.Errorf("proposal = %+v", p)
	}
	if _, err := f.a.ResolveProposal(t.Context(), ProposalDecision{SessionID: sid, TurnID: p.TurnID, ProposalID: p.ID, Version: p.Version,
		Approve: true, PermissionMode: "ask"}); err != nil {
		t.Fatal(err)
	}
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	if r := lastResults(t, reqs[1]); r[0].IsError || !strings.Contains(r[0].Text, "now in Goal mode") || !strings.Contains(r[0].Text, "SubmitGoal") {
		t.Errorf("enter result = %+v", r)
	}
	if names := toolNames(reqs[1]); !slices.Contains(names, "SubmitGoal") || slices.Contains(names, "Write") || slices.Contains(names, "EnterGoalMode") ||
		!strings.Contains(reqs[1].System, "# Goal mode") {
		t.Errorf("goal request tools = %v", names)
	}
	if r := lastResults(t, reqs[2]); !strings.Contains(r[0].Text, "acceptance criterion") || !strings.Contains(r[0].Text, "verify") {
		t.Errorf("approval result = %+v", r)
	}
	if mode, pm := f.host.state(); mode != "agent" || pm != "ask" {
		t.Errorf("session = %s/%s", mode, pm)
	}
	var modes []string
	for _, e := range f.rec.named(EventMode) {
		modes = append(modes, e.(ModeEvent).OperatingMode+":"+e.(ModeEvent).Reason)
	}
	if !slices.Equal(modes, []string{"goal:EnterGoalMode", "agent:approved"}) {
		t.Errorf("mode events = %v", modes)
	}
}

// A mode switch beside reads is refused without running, so the reads
// still run together, as in a batch of reads alone.
func TestRefusedExclusiveCallLeavesReadsParallel(t *testing.T) {
	f := newFixture(t, callTools(provider.StopToolUse,
		use{"tu_1", "Read", `{"path":"a.go","delay_ms":150}`},
		use{"tu_2", "Grep", `{"pattern":"func","delay_ms":150}`},
		use{"tu_3", "EnterPlanMode", `{}`}), say("ok"))
	f.host.meetAt(2)
	if _, err := f.run("plan"); err != nil {
		t.Fatal(err)
	}
	r := lastResults(t, f.prov.requests()[1])
	if r[0].IsError || r[1].IsError || !strings.Contains(r[2].Text, "TOOL_MUST_BE_ALONE") {
		t.Errorf("results = %+v", r)
	}
	if f.host.maxActive < 2 {
		t.Errorf("max concurrent calls = %d, want the two reads together", f.host.maxActive)
	}
	if mode, _ := f.host.state(); mode != "agent" {
		t.Errorf("mode = %s", mode)
	}
}

func TestControlToolsMustBeAlone(t *testing.T) {
	t.Run("enter", func(t *testing.T) {
		f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "Read", `{"path":"a"}`}, use{"tu_2", "EnterPlanMode", `{}`}), say("ok"))
		if _, err := f.run("plan"); err != nil {
			t.Fatal(err)
		}
		r := lastResults(t, f.prov.requests()[1])
		if r[0].IsError || !r[1].IsError || !strings.Contains(r[1].Text, "TOOL_MUST_BE_ALONE") || !strings.Contains(r[1].Text, "only tool call") {
			t.Errorf("results = %+v", r)
		}
		if mode, _ := f.host.state(); mode != "agent" || len(f.host.records()) != 1 {
			t.Errorf("mode %s, %d host calls", mode, len(f.host.records()))
		}
		if a := f.host.auditOf("EnterPlanMode"); len(a) != 1 || a[0].Decision != "deny" || a[0].ErrorCode != errs.ToolMustBeAlone {
			t.Errorf("audit = %+v", a)
		}
	})
	t.Run("submit", func(t *testing.T) {
		f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "SubmitPlan", submitArgs("# p\n")}, use{"tu_2", "asktool", `{"questions":[{"question":"ok?"}]}`}), say("ok"))
		f.host.setMode("plan")
		done := f.runAsync("plan")
		q := f.rec.waitFor(t, EventQuestion, nil).(QuestionEvent)
		if err := f.a.Answer(sid, q.QuestionID, nil); err != nil {
			t.Fatal(err)
		}
		if err := wait(t, done); err != nil {
			t.Fatal(err)
		}
		calls := f.load().Messages[1].ToolCalls
		if calls[0].State != CallFailed || calls[0].ErrorCode != string(errs.ToolMustBeAlone) || len(f.rec.named(EventProposal)) != 0 {
			t.Errorf("SubmitPlan call = %+v", calls[0])
		}
		if len(f.host.artifacts) != 0 {
			t.Error("an artifact was written")
		}
	})
}

func TestControlToolsInTheWrongMode(t *testing.T) {
	for i, tc := range []struct {
		mode, tool, args string
		code             errs.Code
	}{
		{"plan", "SubmitGoal", `{"title":"g","markdown":"m"}`, errs.PlanKindMismatch},
		{"goal", "SubmitPlan", `{"title":"p","markdown":"m"}`, errs.PlanKindMismatch},
		{"agent", "SubmitPlan", `{"title":"p","markdown":"m"}`, errs.PlanNotActive},
		{"agent", "SubmitGoal", `{"title":"g","markdown":"m"}`, errs.PlanNotActive},
		{"plan", "EnterPlanMode", `{}`, errs.ToolDisabledInPlan},
		{"goal", "EnterPlanMode", `{}`, errs.ToolDisabledInPlan},
		{"plan", "SubmitPlan", `{"title":"p"}`, errs.InvalidArgument},
		{"plan", "SubmitPlan", `{"title":"p","markdown":"m","extra":1}`, errs.InvalidArgument},
	} {
		// Unique names: a "#01" suffix would end up in the database path.
		t.Run(fmt.Sprintf("%d_%s_%s", i, tc.mode, tc.tool), func(t *testing.T) {
			f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", tc.tool, tc.args}), say("ok"))
			f.host.setMode(tc.mode)
			if _, err := f.run("go"); err != nil {
				t.Fatal(err)
			}
			r := lastResults(t, f.prov.requests()[1])
			if !r[0].IsError || !strings.Contains(r[0].Text, string(tc.code)) {
				t.Errorf("result = %+v", r)
			}
			if mode, _ := f.host.state(); mode != tc.mode || len(f.host.artifacts) != 0 || len(f.rec.named(EventProposal)) != 0 {
				t.Errorf("mode %s, artifacts %v", mode, f.host.artifacts)
			}
			if a := f.host.auditOf(tc.tool); len(a) != 1 || a[0].OK {
				t.Errorf("audit = %+v", a)
			}
		})
	}
}

func TestProposalCancelledByStop(t *testing.T) {
	f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "SubmitPlan", submitArgs("# p\n")}))
	f.host.setMode("plan")
	done := f.runAsync("plan")
	p := awaitProposal(t, f)
	f.a.Stop(sid)
	mustCode(t, wait(t, done), errs.TurnAborted)
	if _, err := f.a.ResolveProposal(t.Context(), ProposalDecision{SessionID: sid, TurnID: p.TurnID, ProposalID: p.ID, Version: p.Version,
		Approve: true, PermissionMode: "auto"}); !errs.Is(err, errs.PlanApprovalStale) {
		t.Errorf("approval after stop: %v", err)
	}
	if mode, _ := f.host.state(); mode != "plan" {
		t.Errorf("mode = %s", mode)
	}
	c := f.load().Messages[1].ToolCalls[0]
	if c.State != CallAborted || !strings.Contains(c.ModelText, "saved at .pi/plan/") {
		t.Errorf("call = %+v", c)
	}
	if list, _ := f.a.Proposals(t.Context(), sid); list[0].State != ProposalCancelled {
		t.Errorf("proposal = %+v", list[0])
	}
}

func TestProposalInterruptedByRestart(t *testing.T) {
	f := newFixture(t)
	p := Proposal{ID: "p1", SessionID: sid, TurnID: "t1", ToolCallID: "c1", Kind: "plan", Title: "t", Question: "q", Markdown: "m",
		Path: ".pi/plan/t-1.md", SHA256: strings.Repeat("0", 64), Size: 1, CreatedAt: 1}
	v, err := f.a.st.insertProposal(t.Context(), p)
	if err != nil || v != 1 {
		t.Fatal(v, err)
	}
	f.a = f.newAgent()
	if _, err := f.a.MarkInterrupted(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, err = f.a.ResolveProposal(t.Context(), ProposalDecision{SessionID: sid, TurnID: "t1", ProposalID: "p1", Version: 1, Approve: true, PermissionMode: "ask"})
	mustCode(t, err, errs.PlanApprovalInterrupted)
	if list, _ := f.a.Proposals(t.Context(), sid); list[0].State != ProposalInterrupted {
		t.Errorf("proposal = %+v", list[0])
	}
}

func TestApprovalAfterTheModeChanged(t *testing.T) {
	f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "SubmitPlan", submitArgs("# p\n")}), say("ok"))
	f.host.setMode("plan")
	done := f.runAsync("plan")
	p := awaitProposal(t, f)
	f.host.setMode("goal") // the user switched modes in the UI meanwhile
	d := ProposalDecision{SessionID: sid, TurnID: p.TurnID, ProposalID: p.ID, Version: p.Version, Approve: true, PermissionMode: "ask"}
	if _, err := f.a.ResolveProposal(t.Context(), d); !errs.Is(err, errs.PlanApprovalStale) {
		t.Errorf("approval in goal mode: %v", err)
	}
	// Still pending: a rejection goes through.
	d.Approve = false
	if _, err := f.a.ResolveProposal(t.Context(), d); err != nil {
		t.Fatal(err)
	}
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
}

func TestShutdownInterruptsProposalAndSkipsQuestions(t *testing.T) {
	f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "SubmitPlan", submitArgs("# p\n")}))
	f.host.setMode("plan")
	done := f.runAsync("plan")
	p := awaitProposal(t, f)
	f.a.Shutdown()
	mustCode(t, wait(t, done), errs.TurnAborted)
	_, err := f.a.ResolveProposal(t.Context(), ProposalDecision{SessionID: sid, TurnID: p.TurnID, ProposalID: p.ID, Version: p.Version})
	mustCode(t, err, errs.PlanApprovalInterrupted)
	if a := f.host.auditOf("SubmitPlan"); len(a) != 1 || a[0].Decision != "cancelled" || a[0].ErrorCode != errs.ToolAborted {
		t.Errorf("audit = %+v", a)
	}
}
