package agent

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// prepared is one tool call of an assistant message, from preparation to
// its settled result.
type prepared struct {
	id, toolUseID, tool          string
	sessionID, turnID, messageID string
	position                     int
	args                         json.RawMessage
	batch                        int  // calls in its assistant message
	settled, persisted           bool // has its result; result written and emitted
	state                        string
	result                       tools.Result
	modelText                    string
	isError                      bool
	// instructions are the path instruction files preflight loaded for
	// this call; finish appends them to the model's text.
	instructions []InstructionFile
}

func (c *prepared) finish(state string, res tools.Result) {
	c.settled, c.state, c.result = true, state, res
	c.modelText, c.isError = ModelText(c.tool, res)
	c.modelText = withInstructions(c.modelText, c.instructions)
}

// prepare turns the tool_use blocks of a response into calls, in source
// order: ids assigned (the ones the UI saw while streaming), arguments
// checked. A call whose arguments are not a JSON object is failed here and
// never runs.
func (r *run) prepare(msgID string, m provider.Message) []*prepared {
	var calls []*prepared
	used := map[string]bool{}
	for _, b := range m.Content {
		if b.Type != provider.BlockToolUse {
			continue
		}
		id := r.callIDs[b.ToolUseID]
		if id == "" || used[id] {
			id = r.a.newID()
		}
		used[id] = true
		c := &prepared{id: id, toolUseID: b.ToolUseID, tool: b.ToolName, sessionID: r.sessionID, turnID: r.turnID,
			messageID: msgID, position: len(calls), args: b.Input}
		if len(c.args) == 0 {
			c.args = json.RawMessage("{}")
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(c.args, &obj); err != nil || obj == nil {
			c.args = json.RawMessage(mustJSON(string(b.Input))) // keep what was sent, as a JSON string
			c.finish(CallFailed, tools.Failure(errs.New(errs.InvalidArgument,
				"not run: the arguments of this %s call are not a JSON object; re-issue the call with valid JSON arguments", b.ToolName)))
		}
		calls = append(calls, c)
	}
	for _, c := range calls {
		c.batch = len(calls)
	}
	return calls
}

// runBatch runs the calls of one assistant message (spec §0): calls of
// Parallel tools (Read, Glob, Grep) together run in parallel; any other
// tool makes the whole batch run in source order. An Exclusive call beside
// others, or an on-demand tool not loaded, is refused by Execute and leaves
// the order to the others. Completion events may arrive in any order; the
// caller returns the results in source order. It reports whether the edit loop
// guard ended the turn; calls not yet started then are skipped.
func (r *run) runBatch(ctx context.Context, calls []*prepared) bool {
	for _, c := range calls {
		if c.settled {
			r.settle(ctx, c) // failed in preparation
		}
	}
	var runnable []*prepared
	parallel, allTask := true, true
	for _, c := range calls {
		if !c.settled {
			runnable = append(runnable, c)
			parallel = parallel && (r.parallel[c.tool] || r.refusedUnrun(c))
			allTask = allTask && c.tool == tools.Task
		}
	}
	// Task-only batches fan out; a batch mixing Task with anything else runs
	// in order, and a call after a writing delegate's Task waits for it to
	// settle (§0).
	parallel = parallel || allTask
	r.writers = &batchWriters{}
	terminate := false
	if parallel && len(runnable) > 1 {
		// Every call is prepared, in source order, before any starts (§0).
		for _, c := range runnable {
			r.preflight(ctx, c)
		}
		done := make(chan *prepared, len(runnable))
		for _, c := range runnable {
			r.start(ctx, c)
		}
		for _, c := range runnable {
			go func() {
				r.exec(ctx, c)
				done <- c
			}()
		}
		for range runnable {
			c := <-done
			r.settle(ctx, c)
			terminate = terminate || guardTerminates(c.result)
		}
		return terminate
	}
	for _, c := range runnable {
		switch {
		case terminate:
			c.finish(CallSkipped, tools.Failure(errs.New(errs.MutationRetryBudgetExhausted,
				"skipped: mutation guard — an earlier call in this batch used up the edit attempts of this prompt, so this %s call did not run", c.tool)))
		case ctx.Err() != nil:
			c.finish(CallSkipped, tools.Failure(errs.New(errs.ToolAborted, "not run: the turn was stopped before this %s call started", c.tool)))
		default:
			if c.tool != tools.Task {
				r.writers.await(ctx)
			}
			if ctx.Err() != nil {
				c.finish(CallSkipped, tools.Failure(errs.New(errs.ToolAborted, "not run: the turn was stopped before this %s call started", c.tool)))
				break
			}
			r.preflight(ctx, c)
			r.start(ctx, c)
			r.exec(ctx, c)
			terminate = guardTerminates(c.result)
		}
		r.settle(ctx, c)
	}
	return terminate
}

// refusedUnrun reports whether Execute refuses c before running anything
// (an Exclusive call beside others, an on-demand tool not loaded), so it
// does not make the rest of its batch sequential.
func (r *run) refusedUnrun(c *prepared) bool {
	return (r.exclusive[c.tool] && c.batch > 1) || (!r.offered(c.tool) && inCatalog(r.catalog, c.tool))
}

// start marks a call running (persisted, then shown).
func (r *run) start(ctx context.Context, c *prepared) {
	if err := r.a.st.startCall(context.WithoutCancel(ctx), c.id); err != nil && r.dbErr == nil {
		r.dbErr = err
	}
	r.emit(EventToolCall, ToolCallEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: c.messageID, ToolCallID: c.id,
		ToolUseID: c.toolUseID, Tool: c.tool, Phase: PhaseRunning, Args: c.args, MCP: r.origin(c.tool)})
}

// RunStarted restarts a call's clock once the user allowed it: its stored
// start and the window's timer then measure the run, not the wait.
func (t callTurn) RunStarted(ctx context.Context, waited time.Duration) {
	r, c := t.r, t.c
	// Called on the host's goroutine: a failed write costs only the shown
	// time (the call's outcome is written by settle), so it is not kept.
	_ = r.a.st.startCall(context.WithoutCancel(ctx), c.id)
	r.emit(EventToolCall, ToolCallEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: c.messageID, ToolCallID: c.id,
		ToolUseID: c.toolUseID, Tool: c.tool, Phase: PhaseStarted, WaitedMs: waited.Milliseconds(), MCP: r.origin(c.tool)})
}

// exec runs one call through the host. On Stop it aborts the call and
// waits as the spec says (§3): not at all for Read/Glob/Grep, up to
// bashGrace for Bash's collected output, and until the host returns for
// anything else (a started Write or Edit drains).
func (r *run) exec(ctx context.Context, c *prepared) {
	done := make(chan tools.Result, 1)
	call := r.toolCall(c)
	go func() { done <- r.a.host.Execute(ctx, call) }()
	var res tools.Result
	select {
	case res = <-done:
	case <-ctx.Done():
		r.a.host.Abort(c.sessionID, c.id, c.tool)
		// The runtime's own tools honour ctx themselves (asktool skips, a
		// pending proposal is cancelled): they are waited for.
		switch {
		case r.parallel[c.tool]:
			res = tools.Failure(errs.New(errs.ToolAborted, "%s was stopped", c.tool))
		case c.tool == ToolBash:
			t := time.NewTimer(r.a.bashGrace)
			select {
			case res = <-done:
			case <-t.C:
				res = tools.Failure(errs.New(errs.ToolAborted, "the command was stopped and returned no output within %s", r.a.bashGrace))
			}
			t.Stop()
		default:
			res = <-done
		}
	}
	c.finish(callState(res))
}

// toolCall is c as the host receives it.
func (r *run) toolCall(c *prepared) ToolCall {
	call := ToolCall{SessionID: c.sessionID, TurnID: c.turnID, ToolCallID: c.id, MessageID: c.messageID, PromptID: c.turnID,
		Tool: c.tool, Args: c.args, ShellID: r.info.ShellID, ShellDialect: r.info.ShellDialect,
		Turn: callTurn{r: r, c: c}, BatchSize: c.batch}
	if d := r.delegation; d != nil {
		// A call outside its tools goes to the host too: the host refuses
		// it, given the allowed set, and audits the refusal.
		call.Delegate, call.DelegationID, call.PermissionOverride = d.name, d.id, d.override
		call.AllowedTools = slices.Clone(d.allowed)
	}
	return call
}

// callState is the persisted state of a finished call.
func callState(res tools.Result) (string, tools.Result) {
	switch {
	case res.OK:
		return CallDone, res
	case res.Code == errs.ToolAborted:
		return CallAborted, res
	}
	return CallFailed, res
}

// settle writes a call's result and shows it.
func (r *run) settle(ctx context.Context, c *prepared) {
	if c.persisted {
		return
	}
	c.persisted = true
	s := shown(c) // stored and shown redacted; the live turn reads c
	if err := r.a.st.finishCall(context.WithoutCancel(ctx), s); err != nil && r.dbErr == nil {
		r.dbErr = err
	}
	r.countTool()
	r.emit(EventToolResult, ToolResultEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: c.messageID, ToolCallID: c.id,
		ToolUseID: c.toolUseID, Tool: c.tool, State: c.state, Result: s.result, ModelText: s.modelText, IsError: c.isError,
		Instructions: c.instructions})
}
