package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

func TestParallelReadBatchOverlaps(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse,
			use{"tu_1", "Read", `{"path":"a.go","delay_ms":150}`},
			use{"tu_2", "Glob", `{"pattern":"**/*.go","delay_ms":150}`},
			use{"tu_3", "Grep", `{"pattern":"func","delay_ms":150}`}),
		say("All read."))
	f.host.meetAt(3)
	res, err := f.run("look around")
	if err != nil || res.State != TurnDone || res.Text != "All read." || res.ModelCalls != 2 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if f.host.maxActive != 3 {
		t.Errorf("max concurrent calls = %d, want 3 (Read/Glob/Grep run in parallel)", f.host.maxActive)
	}
	recs := f.host.records()
	for _, r := range recs {
		if r.call.PromptID != res.TurnID || r.call.TurnID != res.TurnID || r.call.MessageID == "" || r.call.ShellID != "bash" || r.call.ShellDialect != "bash" {
			t.Errorf("call ids: %+v", r.call)
		}
		if r.call.ToolCallID == "" || strings.HasPrefix(r.call.ToolCallID, "tu_") {
			t.Errorf("tool call id %q must be the agent's own, not the model's", r.call.ToolCallID)
		}
	}
	reqs := f.prov.requests()
	got := lastResults(t, reqs[1])
	if ids := toolUseIDs(got); !slices.Equal(ids, []string{"tu_1", "tu_2", "tu_3"}) {
		t.Errorf("results order = %v", ids)
	}
	if got[0].Text != "Read a.go ok" || got[0].IsError {
		t.Errorf("result = %+v", got[0])
	}
	var names []string
	for _, td := range reqs[0].Tools {
		names = append(names, td.Name)
	}
	if !slices.Equal(names, []string{"Read", "Glob", "Grep", "Write", "Edit", "Bash", "TodoWrite", "asktool", "new_context", "EnterPlanMode", "EnterGoalMode"}) ||
		!strings.Contains(reqs[0].System, "/work/proj") {
		t.Errorf("first request tools = %v", names)
	}
}

func TestMixedBatchStaysSequential(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse,
			use{"tu_1", "Read", `{"path":"a.go","delay_ms":60}`},
			use{"tu_2", "Write", `{"path":"b.go","delay_ms":60}`},
			use{"tu_3", "Read", `{"path":"c.go","delay_ms":60}`}),
		say("Done."))
	// Every call of the batch is persisted as pending before the first runs.
	var pendingAtFirst atomic.Int64
	pendingAtFirst.Store(-1)
	f.host.onStart = func(call ToolCall) {
		var n int64
		if err := f.db.QueryRow(`SELECT COUNT(*) FROM agent_tool_calls WHERE message_id = ?`, call.MessageID).Scan(&n); err != nil {
			t.Error(err)
		}
		pendingAtFirst.CompareAndSwap(-1, n)
	}
	if _, err := f.run("change b"); err != nil {
		t.Fatal(err)
	}
	if f.host.maxActive != 1 {
		t.Errorf("max concurrent calls = %d, want 1 (a Write makes the batch sequential)", f.host.maxActive)
	}
	recs := f.host.records()
	var order []string
	for i, r := range recs {
		order = append(order, r.call.Tool)
		if i > 0 && r.start.Before(recs[i-1].end) {
			t.Errorf("call %d started before call %d ended", i, i-1)
		}
	}
	if !slices.Equal(order, []string{"Read", "Write", "Read"}) {
		t.Errorf("execution order = %v", order)
	}
	if pendingAtFirst.Load() != 3 {
		t.Errorf("tool call rows when the first call started = %d, want 3", pendingAtFirst.Load())
	}
}

func TestResultsInSourceOrderDespiteCompletionOrder(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse,
			use{"tu_a", "Read", `{"path":"a","delay_ms":200}`},
			use{"tu_b", "Read", `{"path":"b","delay_ms":10}`},
			use{"tu_c", "Read", `{"path":"c","delay_ms":100}`}),
		say("ok"))
	if _, err := f.run("read three"); err != nil {
		t.Fatal(err)
	}
	var completed []string
	for _, p := range f.rec.named(EventToolResult) {
		completed = append(completed, p.(ToolResultEvent).ToolUseID)
	}
	if !slices.Equal(completed, []string{"tu_b", "tu_c", "tu_a"}) {
		t.Errorf("completion events = %v, want b, c, a", completed)
	}
	if ids := toolUseIDs(lastResults(t, f.prov.requests()[1])); !slices.Equal(ids, []string{"tu_a", "tu_b", "tu_c"}) {
		t.Errorf("results to the model = %v, want source order", ids)
	}
	// The transcript restores the same order.
	ctx := f.load().Context()
	if ids := toolUseIDs(ctx[2].Content); !slices.Equal(ids, []string{"tu_a", "tu_b", "tu_c"}) {
		t.Errorf("restored results = %v", ids)
	}
}

func TestDenialResultText(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", "Bash", `{"command":"rm -rf build"}`}),
		say("Understood."))
	f.host.behave = func(ctx context.Context, call ToolCall) tools.Result {
		r := tools.Failure(errs.New(errs.ToolDenied, "the user denied Bash"))
		r.Decision = "denied"
		return r
	}
	if _, err := f.run("clean"); err != nil {
		t.Fatal(err)
	}
	got := lastResults(t, f.prov.requests()[1])
	if len(got) != 1 || !got[0].IsError || !strings.HasPrefix(got[0].Text, "user denied permission") {
		t.Fatalf("denial result = %+v", got)
	}
	// A policy refusal is not a user denial: it carries its code.
	text, isErr := ModelText("Write", tools.Failure(errs.New(errs.WriteDisabledInPlan, "Write is not available in plan mode")))
	if !isErr || !strings.HasPrefix(text, "Error WRITE_DISABLED_IN_PLAN: Write is not available") {
		t.Errorf("policy refusal text = %q", text)
	}
}

func TestMaxTokensReissuesAndRunsNothing(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopMaxTokens,
			use{"tu_1", "Read", `{"path":"a"}`},
			use{"tu_2", "Write", `{"path":"b","content":"trunc"}`}),
		say("I will re-issue."))
	if _, err := f.run("write it"); err != nil {
		t.Fatal(err)
	}
	if n := len(f.host.records()); n != 0 {
		t.Fatalf("%d calls executed; a cut response runs nothing", n)
	}
	got := lastResults(t, f.prov.requests()[1])
	if len(got) != 2 {
		t.Fatalf("results = %+v", got)
	}
	for _, b := range got {
		if !b.IsError || !strings.Contains(b.Text, string(errs.ToolCallTruncated)) || !strings.Contains(b.Text, "Re-issue") {
			t.Errorf("result = %+v", b)
		}
	}
	for _, c := range f.load().Messages[1].ToolCalls {
		if c.State != CallFailed || c.ErrorCode != string(errs.ToolCallTruncated) {
			t.Errorf("persisted call = %+v", c)
		}
	}
}

func TestStopMidStreamKeepsPartialText(t *testing.T) {
	started := make(chan struct{})
	f := newFixture(t, hang([]string{"Hel", "lo "}, started))
	f.a.flushEvery = 0 // write every delta
	done := make(chan error, 1)
	go func() { _, err := f.run("say hello"); done <- err }()
	<-started
	// Written as it streams: a crash now would keep "Hello ".
	var content, stop string
	if err := f.db.QueryRow(`SELECT content, stop_reason FROM agent_messages WHERE kind = 'model'`).Scan(&content, &stop); err != nil ||
		stop != "" || !strings.Contains(content, `"text":"Hello "`) {
		t.Errorf("streaming row = %q %q %v", content, stop, err)
	}
	if !f.a.Stop(sid) {
		t.Fatal("Stop found no running turn")
	}
	err := <-done
	mustCode(t, err, errs.TurnAborted)
	tr := f.load()
	if tr.Turns[0].State != TurnAborted || tr.Turns[0].ErrorCode != string(errs.TurnAborted) {
		t.Errorf("turn = %+v", tr.Turns[0])
	}
	m := tr.Messages[1]
	if m.StopReason != stopAborted || len(m.Content) != 1 || m.Content[0].Text != "Hello " {
		t.Errorf("partial message = %+v", m)
	}
	ctx := tr.Context()
	if len(ctx) != 3 || ctx[1].Content[0].Text != "Hello " || !strings.Contains(ctx[2].Content[0].Text, "stopped") {
		t.Errorf("context after stop = %+v", ctx)
	}
	if f.a.Stop(sid) || f.a.Running(sid) {
		t.Error("the turn is still registered after Run returned")
	}
	var states []string
	for _, p := range f.rec.named(EventTurn) {
		states = append(states, p.(TurnEvent).State)
	}
	if !slices.Equal(states, []string{TurnRunning, TurnAborted}) {
		t.Errorf("turn events = %v", states)
	}
}

func TestStopDuringSlowTool(t *testing.T) {
	t.Run("bash returns its collected output", func(t *testing.T) {
		f := newFixture(t, callTools(provider.StopToolUse,
			use{"tu_1", "Bash", `{"command":"sleep 100"}`},
			use{"tu_2", "Read", `{"path":"never"}`}))
		running, aborted := make(chan struct{}), make(chan struct{})
		f.host.onAbort = func(string) { close(aborted) }
		f.host.behave = func(ctx context.Context, call ToolCall) tools.Result {
			close(running)
			<-aborted // the process tree is stopped by the abort
			r := tools.Failure(errs.New(errs.ToolAborted, "the command was stopped; the output collected before it ended is included"))
			r.Content = "partial output"
			return r
		}
		done := make(chan error, 1)
		go func() { _, err := f.run("run it"); done <- err }()
		<-running
		f.a.Stop(sid)
		mustCode(t, <-done, errs.TurnAborted)
		if ab := f.host.abortList(); len(ab) != 1 || !strings.HasPrefix(ab[0], "Bash:") {
			t.Errorf("aborts = %v", ab)
		}
		if n := len(f.host.records()); n != 1 {
			t.Errorf("%d calls executed; the Read after a stopped Bash never starts", n)
		}
		calls := f.load().Messages[1].ToolCalls
		if calls[0].State != CallAborted || !strings.Contains(calls[0].ModelText, "partial output") ||
			calls[1].State != CallSkipped || !strings.Contains(calls[1].ModelText, "not run") {
			t.Errorf("calls = %+v", calls)
		}
		if f.load().Turns[0].State != TurnAborted {
			t.Error("turn not aborted")
		}
	})
	t.Run("read ends the wait at once", func(t *testing.T) {
		f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "Read", `{"path":"slow"}`}))
		release := make(chan struct{})
		defer close(release)
		running := make(chan struct{})
		f.host.behave = func(ctx context.Context, call ToolCall) tools.Result {
			close(running)
			<-release // a blocking filesystem worker that ignores ctx
			return tools.Result{OK: true, Content: "late"}
		}
		done := make(chan error, 1)
		go func() { _, err := f.run("read slow"); done <- err }()
		<-running
		f.a.Stop(sid)
		select {
		case err := <-done:
			mustCode(t, err, errs.TurnAborted)
		case <-time.After(5 * time.Second):
			t.Fatal("Stop waited for a Read")
		}
		c := f.load().Messages[1].ToolCalls[0]
		if c.State != CallAborted || c.ErrorCode != string(errs.ToolAborted) || len(f.host.abortList()) != 1 {
			t.Errorf("call = %+v, aborts %v", c, f.host.abortList())
		}
	})
	t.Run("bash silent past the grace period", func(t *testing.T) {
		f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "Bash", `{"command":"hang"}`}))
		f.a.bashGrace = 50 * time.Millisecond
		release := make(chan struct{})
		defer close(release)
		running := make(chan struct{})
		f.host.behave = func(ctx context.Context, call ToolCall) tools.Result {
			close(running)
			<-release
			return tools.Result{OK: true}
		}
		done := make(chan error, 1)
		go func() { _, err := f.run("hang"); done <- err }()
		<-running
		f.a.Stop(sid)
		mustCode(t, <-done, errs.TurnAborted)
		if c := f.load().Messages[1].ToolCalls[0]; c.State != CallAborted || !strings.Contains(c.ModelText, "no output within") {
			t.Errorf("call = %+v", c)
		}
	})
}

func TestStreamFailedRetriedOnce(t *testing.T) {
	t.Run("then succeeds", func(t *testing.T) {
		f := newFixture(t, fail(errs.StreamFailed, "half a sen"), say("A whole sentence."))
		res, err := f.run("talk")
		if err != nil || res.Text != "A whole sentence." || res.ModelCalls != 2 {
			t.Fatalf("Run = %+v, %v", res, err)
		}
		reqs := f.prov.requests()
		if !jsonEqual(reqs[0].Messages, reqs[1].Messages) {
			t.Errorf("the retry sent a different context:\n%+v\n%+v", reqs[0].Messages, reqs[1].Messages)
		}
		tr := f.load()
		if len(tr.Messages) != 3 || tr.Messages[1].StopReason != stopFailed || tr.Messages[2].StopReason != "end_turn" {
			t.Fatalf("messages = %+v", tr.Messages)
		}
		if ctx := tr.Context(); len(ctx) != 2 || ctx[1].Content[0].Text != "A whole sentence." {
			t.Errorf("the broken partial must not reach the model again: %+v", ctx)
		}
		var retries int
		for _, p := range f.rec.named(EventTurn) {
			if p.(TurnEvent).Retry == errs.StreamFailed {
				retries++
			}
		}
		if retries != 1 {
			t.Errorf("retry events = %d", retries)
		}
	})
	t.Run("then fails", func(t *testing.T) {
		f := newFixture(t, fail(errs.StreamFailed, "a"), fail(errs.StreamFailed, "b"))
		res, err := f.run("talk")
		mustCode(t, err, errs.StreamFailed)
		if res.State != TurnFailed || f.load().Turns[0].ErrorCode != string(errs.StreamFailed) {
			t.Errorf("result = %+v", res)
		}
	})
	t.Run("other errors are not retried", func(t *testing.T) {
		f := newFixture(t, fail(errs.ProviderUnauthorized, ""))
		_, err := f.run("talk")
		mustCode(t, err, errs.ProviderUnauthorized)
		if n := len(f.prov.requests()); n != 1 {
			t.Errorf("%d calls", n)
		}
	})
}

func TestEmptyResponseRerunOnce(t *testing.T) {
	empty := func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
		return provider.Response{Message: provider.Message{Role: provider.RoleAssistant}, StopReason: provider.StopEndTurn}, nil
	}
	t.Run("then answers", func(t *testing.T) {
		f := newFixture(t, empty, say("Here."))
		res, err := f.run("hi")
		if err != nil || res.Text != "Here." || res.ModelCalls != 2 {
			t.Fatalf("Run = %+v, %v", res, err)
		}
	})
	t.Run("twice", func(t *testing.T) {
		f := newFixture(t, fail(errs.EmptyModelResponse, ""), empty)
		_, err := f.run("hi")
		mustCode(t, err, errs.EmptyModelResponse)
	})
}

func TestAgentBusy(t *testing.T) {
	started := make(chan struct{})
	f := newFixture(t, hang(nil, started))
	done := make(chan error, 1)
	go func() { _, err := f.run("first"); done <- err }()
	<-started
	_, err := f.a.Run(t.Context(), sid, "second")
	mustCode(t, err, errs.AgentBusy)
	f.a.Stop(sid)
	mustCode(t, <-done, errs.TurnAborted)
	if n := len(f.load().Turns); n != 1 {
		t.Errorf("%d turns persisted; a busy refusal persists nothing", n)
	}
}

func TestLoopGuardTerminates(t *testing.T) {
	for _, tc := range []struct {
		name   string
		result tools.Result
	}{
		{"guard field", func() tools.Result {
			r := tools.Failure(errs.New(errs.EditTagMismatch, "stale tag"))
			r.Fields = map[string]any{"guard": hashline.GuardState{Attempt: 3, Limit: 3, Terminate: true}}
			return r
		}()},
		{"host refusal", tools.Failure(errs.New(errs.MutationRetryBudgetExhausted, "edit attempts are used up"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, callTools(provider.StopToolUse,
				use{"tu_1", "Edit", `{"path":"a.go"}`},
				use{"tu_2", "Edit", `{"path":"b.go"}`},
				use{"tu_3", "Read", `{"path":"c.go"}`}))
			f.host.behave = func(ctx context.Context, call ToolCall) tools.Result { return tc.result }
			res, err := f.run("fix it")
			mustCode(t, err, errs.MutationRetryBudgetExhausted)
			if !res.Retriable || res.State != TurnFailed || res.ModelCalls != 1 {
				t.Errorf("result = %+v", res)
			}
			if n := len(f.host.records()); n != 1 {
				t.Errorf("%d calls executed, want 1", n)
			}
			calls := f.load().Messages[1].ToolCalls
			for _, c := range calls[1:] {
				if c.State != CallSkipped || !strings.Contains(c.ModelText, "skipped: mutation guard") {
					t.Errorf("call %s = %+v", c.ToolUseID, c)
				}
			}
			if e := errs.As(err); e == nil || e.Details["retriable"] != true {
				t.Errorf("error = %#v", err)
			}
		})
	}
}

func TestInvalidArgsNotRun(t *testing.T) {
	f := newFixture(t,
		func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
			return provider.Response{Message: provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{
				{Type: provider.BlockToolUse, ToolUseID: "tu_1", ToolName: "Read", Input: json.RawMessage(`"a.go"`)},
			}}, StopReason: provider.StopToolUse}, nil
		},
		say("ok"))
	if _, err := f.run("read"); err != nil {
		t.Fatal(err)
	}
	got := lastResults(t, f.prov.requests()[1])
	if len(f.host.records()) != 0 || len(got) != 1 || !got[0].IsError || !strings.Contains(got[0].Text, "INVALID_ARGUMENT") {
		t.Errorf("results = %+v", got)
	}
}

func TestRestartRestoresTranscript(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", "Read", `{"path":"a"}`}, use{"tu_2", "Grep", `{"pattern":"x"}`}),
		say("First answer."),
		say("Second answer."))
	if _, err := f.run("first"); err != nil {
		t.Fatal(err)
	}
	// A new process: a fresh Agent over the same database.
	f.a = f.newAgent()
	if n, err := f.a.MarkInterrupted(t.Context()); err != nil || n != 0 {
		t.Fatalf("MarkInterrupted = %d, %v", n, err)
	}
	if _, err := f.run("second"); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	want := append(reqs[2].Messages, provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{{Type: provider.BlockText, Text: "Second answer."}}})
	if got := f.load().Context(); !jsonEqual(got, want) {
		t.Errorf("restored context differs from what the model saw:\n got %s\nwant %s", must(json.Marshal(got)), must(json.Marshal(want)))
	}
	// The first turn's request history is a prefix of the second's.
	if !jsonEqual(reqs[2].Messages[:4], append(reqs[1].Messages, reqs[2].Messages[3])) {
		t.Errorf("second turn does not continue the first")
	}
	tr := f.load()
	if len(tr.Turns) != 2 || tr.Turns[0].State != TurnDone || len(tr.Messages[1].ToolCalls) != 2 {
		t.Fatalf("transcript = %+v", tr)
	}
	var full map[string]any
	if err := json.Unmarshal(tr.Messages[1].ToolCalls[0].Result, &full); err != nil || full["ok"] != true || full["content"] != "Read a ok" {
		t.Errorf("stored result = %s", tr.Messages[1].ToolCalls[0].Result)
	}
}

func TestMarkInterrupted(t *testing.T) {
	f := newFixture(t, say("Picking up."))
	ctx := t.Context()
	st := f.a.st
	// A turn cut by a crash: a streamed assistant message with two calls,
	// one running, one pending.
	seq, err := st.beginTurn(ctx, Turn{ID: "t1", SessionID: sid, Prompt: "do it", CreatedAt: 1}, "m0")
	if err != nil {
		t.Fatal(err)
	}
	content := []provider.Block{{Type: provider.BlockText, Text: "Working"},
		{Type: provider.BlockToolUse, ToolUseID: "tu_1", ToolName: "Write", Input: json.RawMessage(`{"path":"a"}`)},
		{Type: provider.BlockToolUse, ToolUseID: "tu_2", ToolName: "Read", Input: json.RawMessage(`{"path":"b"}`)}}
	if _, err := st.insertMessage(ctx, Message{ID: "m1", SessionID: sid, TurnID: "t1", Role: provider.RoleAssistant, Kind: KindModel,
		Content: content, StopReason: "tool_use", CreatedAt: 2}); err != nil {
		t.Fatal(err)
	}
	calls := []*prepared{
		{id: "c1", toolUseID: "tu_1", tool: "Write", sessionID: sid, turnID: "t1", position: 0, args: json.RawMessage(`{"path":"a"}`)},
		{id: "c2", toolUseID: "tu_2", tool: "Read", sessionID: sid, turnID: "t1", position: 1, args: json.RawMessage(`{"path":"b"}`)},
	}
	if err := st.prepareCalls(ctx, "m1", calls); err != nil {
		t.Fatal(err)
	}
	if err := st.startCall(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	_ = seq

	f.a = f.newAgent()
	n, err := f.a.MarkInterrupted(ctx)
	if err != nil || n != 1 {
		t.Fatalf("MarkInterrupted = %d, %v", n, err)
	}
	tr := f.load()
	if tr.Turns[0].State != TurnInterrupted || tr.Turns[0].ErrorCode != string(errs.TurnInterrupted) {
		t.Errorf("turn = %+v", tr.Turns[0])
	}
	got := tr.Messages[1].ToolCalls
	if got[0].State != CallInterrupted || !strings.Contains(got[0].ModelText, "effect is unknown") ||
		got[1].State != CallInterrupted || !strings.Contains(got[1].ModelText, "not run") {
		t.Errorf("calls = %+v", got)
	}
	// Never replayed: the next turn asks the model once, with the
	// interrupted results and a note in its context.
	if _, err := f.run("continue"); err != nil {
		t.Fatal(err)
	}
	if len(f.host.records()) != 0 {
		t.Error("an interrupted call was replayed")
	}
	req := f.prov.requests()[0]
	last := req.Messages[len(req.Messages)-1]
	if len(req.Messages) != 3 || last.Content[0].Type != provider.BlockToolResult || last.Content[1].Type != provider.BlockToolResult ||
		!strings.Contains(last.Content[2].Text, "interrupted") || last.Content[3].Text != "continue" {
		t.Errorf("context after restart = %s", must(json.Marshal(req.Messages)))
	}
}

func TestCompactionOnSmallWindow(t *testing.T) {
	summaryReq := make(chan provider.Request, 1)
	summarize := func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
		summaryReq <- req
		return say("The user asked for a long story; it was told.")(ctx, req, emit)
	}
	long := strings.Repeat("word ", 1600) // ~2000 tokens
	f := newFixture(t, say(long), summarize, say("Short answer."))
	f.prov.info.ContextWindow, f.prov.info.MaxOutputTokens = 3000, 500
	if _, err := f.run("tell me a long story " + strings.Repeat("please ", 200)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.run("now be brief"); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls, want 3 (answer, summary, answer)", len(reqs))
	}
	sreq := <-summaryReq
	if len(sreq.Tools) != 0 || sreq.System != summarySystem || !strings.Contains(sreq.Messages[0].Content[0].Text, "tell me a long story") {
		t.Errorf("summary request: tools %v, system %q", sreq.Tools, sreq.System)
	}
	next := reqs[2].Messages
	if len(next) != 3 || !strings.Contains(next[0].Content[0].Text, "tell me a long story") ||
		!strings.Contains(next[1].Content[0].Text, "it was told") || next[2].Content[0].Text != "now be brief" {
		t.Fatalf("request after compaction = %s", must(json.Marshal(next)))
	}
	tr := f.load()
	if tr.Checkpoint == nil || len(tr.Checkpoint.Retained) != 1 || tr.Checkpoint.TokensBefore <= 2500 {
		t.Fatalf("checkpoint = %+v", tr.Checkpoint)
	}
	want := append(next, provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{{Type: provider.BlockText, Text: "Short answer."}}})
	if got := tr.Context(); !jsonEqual(got, want) {
		t.Errorf("Load does not continue from the checkpoint:\n got %s\nwant %s", must(json.Marshal(got)), must(json.Marshal(want)))
	}
	// The full transcript stays for the UI: both prompts, the long story,
	// the summary and the short answer.
	var kinds []string
	for _, m := range tr.Messages {
		kinds = append(kinds, m.Kind)
	}
	if !slices.Equal(kinds, []string{KindPrompt, KindModel, KindPrompt, KindSummary, KindModel}) {
		t.Errorf("messages = %v", kinds)
	}
	var states []string
	for _, p := range f.rec.named(EventContext) {
		states = append(states, p.(ContextEvent).State)
	}
	if !slices.Equal(states, []string{"compacting", "done"}) {
		t.Errorf("context events = %v", states)
	}
}

func TestRetainPromptsClipsTheOldest(t *testing.T) {
	got := retainPrompts([]string{strings.Repeat("x", 3000), strings.Repeat("a", 3000), strings.Repeat("b", 1500), "c"}, 2000)
	if len(got) != 4 || got[0] != "[clipped: 1 earlier messages omitted]" {
		t.Fatalf("got %q", got)
	}
	if !strings.HasPrefix(got[1], strings.Repeat("a", 499)+"\n[clipped: only the first 499 of 3000") || got[2] != strings.Repeat("b", 1500) || got[3] != "c" {
		t.Errorf("got %q", got)
	}
	if got := retainPrompts([]string{"one", "two"}, 2000); !slices.Equal(got, []string{"one", "two"}) {
		t.Errorf("got %q", got)
	}
}

func TestStreamingEvents(t *testing.T) {
	f := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", "Read", `{"path":"a"}`}), say("one two three"))
	if _, err := f.run("go"); err != nil {
		t.Fatal(err)
	}
	var deltas []string
	for _, p := range f.rec.named(EventText) {
		d := p.(DeltaEvent)
		if d.SessionID != sid || d.TurnID == "" || d.MessageID == "" {
			t.Errorf("delta = %+v", d)
		}
		deltas = append(deltas, d.Delta)
	}
	if !slices.Equal(deltas, []string{"Let me look.", "one ", "two ", "three"}) {
		t.Errorf("text deltas = %q", deltas)
	}
	var phases []string
	ids := map[string]bool{}
	for _, p := range f.rec.named(EventToolCall) {
		e := p.(ToolCallEvent)
		phases = append(phases, e.Phase)
		ids[e.ToolCallID] = true
	}
	if !slices.Equal(phases, []string{PhaseStreaming, PhaseStreaming, PhaseReady, PhaseRunning}) || len(ids) != 1 {
		t.Errorf("tool call phases = %v, ids %v", phases, ids)
	}
	res := f.rec.named(EventToolResult)
	if len(res) != 1 || !ids[res[0].(ToolResultEvent).ToolCallID] {
		t.Errorf("tool results = %+v", res)
	}
}

func must(b []byte, err error) string {
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func TestCompactionMidTurn(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", "Read", `{"path":"big.txt"}`}),
		say("Summary: read big.txt, it holds many lines."),
		say("big.txt is large."))
	f.prov.info.ContextWindow, f.prov.info.MaxOutputTokens = 3000, 500
	f.host.behave = func(ctx context.Context, call ToolCall) tools.Result {
		return tools.Result{OK: true, Content: strings.Repeat("line of text\n", 800)}
	}
	res, err := f.run("read big.txt")
	if err != nil || res.Text != "big.txt is large." || res.ModelCalls != 3 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	reqs := f.prov.requests()
	if len(reqs[1].Tools) != 0 || !strings.Contains(reqs[1].Messages[0].Content[0].Text, "[assistant called Read]") {
		t.Errorf("summary request = %s", must(json.Marshal(reqs[1])))
	}
	next := reqs[2].Messages
	if len(next) != 3 || !strings.Contains(next[0].Content[0].Text, "read big.txt") || !strings.Contains(next[1].Content[0].Text, "Summary: read big.txt") ||
		!strings.Contains(next[2].Content[0].Text, "Continue the current request") {
		t.Fatalf("request after compaction = %s", must(json.Marshal(next)))
	}
	want := append(next, provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{{Type: provider.BlockText, Text: "big.txt is large."}}})
	if got := f.load().Context(); !jsonEqual(got, want) {
		t.Errorf("restored context:\n got %s\nwant %s", must(json.Marshal(got)), must(json.Marshal(want)))
	}
}

func TestPromptTooLargeForWindow(t *testing.T) {
	f := newFixture(t)
	f.prov.info.ContextWindow, f.prov.info.MaxOutputTokens = 1000, 200
	res, err := f.run(strings.Repeat("huge ", 2000))
	mustCode(t, err, errs.ContextTooLarge)
	if res.State != TurnFailed || len(f.prov.requests()) != 0 {
		t.Errorf("result = %+v, %d calls", res, len(f.prov.requests()))
	}
}
