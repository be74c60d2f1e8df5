// Package agent is the agent loop: one user prompt becomes one turn of
// repeated model calls and tool batches until the model ends its turn. It
// reaches the world only through Host (host-core's Execute); it streams
// every token to the UI and persists every message, tool call and result as
// it happens, so a restart restores a session exactly.
package agent

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// TurnResult is how a turn ended.
type TurnResult struct {
	TurnID    string    `json:"turnId"`
	State     string    `json:"state"` // done | failed | aborted
	Code      errs.Code `json:"code,omitempty"`
	Message   string    `json:"message,omitempty"`
	Retriable bool      `json:"retriable,omitempty"`
	Text      string    `json:"text"` // the last assistant message's text
	// StopReason is why the last model response of the turn ended
	// (end_turn, tool_use, max_tokens, other; empty if none answered).
	StopReason provider.StopReason `json:"stopReason,omitempty"`
	// Usage sums the turn's model calls (compaction's included).
	Usage      provider.Usage `json:"usage"`
	ModelCalls int            `json:"modelCalls"`
	// Cost is what Usage cost at the turn's price (nil: unknown).
	Cost *provider.Cost `json:"cost,omitempty"`
}

// Agent runs turns, at most one per session at a time.
type Agent struct {
	st        *store
	host      Host
	providers func(sessionID string) (provider.Provider, error)
	emitFn    func(event string, payload any)
	now       func() time.Time
	newID     func() string

	// bashGrace is how long Stop waits for Bash to return the output it
	// collected (spec §3: 10 s); flushEvery throttles writes of a streaming
	// message (a crash loses at most that much of the stream).
	bashGrace  time.Duration
	flushEvery time.Duration

	mu          sync.Mutex
	runs        map[string]*run
	compactNext map[string]bool
	questions   map[string]*pendingQuestion // asktool calls waiting, by question id

	// pmu serializes proposal decisions with the stop of their turn (a
	// decision holds it across the mode switch).
	pmu       sync.Mutex
	proposals map[string]*pendingProposal // by proposal id

	delegs map[string]*delegateScope // delegations this process runs or has unread, by id (under mu)
	// unread are the ids, by session, of finished delegates whose report no
	// wait returned yet, once their live scope went at the end of a turn
	// (under mu): their stored rows answer the next wait.
	unread map[string][]string
	// closing is set by Shutdown (under mu): no delegate starts after it.
	closing bool
	// delegates counts the delegate goroutines, so Drain can wait for them
	// to record how they ended (Add only under mu while !closing).
	delegates sync.WaitGroup
}

// New returns an Agent over db (migrated by backend/store). providers
// returns the session's configured model; emit receives UI events (nil
// drops them); now may be nil (time.Now).
func New(db *sql.DB, host Host, providers func(sessionID string) (provider.Provider, error), emit func(event string, payload any), now func() time.Time) *Agent {
	if now == nil {
		now = time.Now
	}
	if emit == nil {
		emit = func(string, any) {}
	}
	return &Agent{
		st:          &store{db: db, now: now},
		host:        host,
		providers:   providers,
		emitFn:      emit,
		now:         now,
		newID:       func() string { return uuid.Must(uuid.NewV7()).String() },
		bashGrace:   10 * time.Second,
		flushEvery:  100 * time.Millisecond,
		runs:        map[string]*run{},
		compactNext: map[string]bool{},
		questions:   map[string]*pendingQuestion{},
		proposals:   map[string]*pendingProposal{},
		delegs:      map[string]*delegateScope{},
		unread:      map[string][]string{},
	}
}

func (a *Agent) emit(event string, payload any) { a.emitFn(event, payload) }

// Load returns a session's transcript (for the UI and the next request).
func (a *Agent) Load(ctx context.Context, sessionID string) (Transcript, error) {
	return a.st.load(ctx, sessionID)
}

// MarkInterrupted ends every turn left running by a crash or kill as
// interrupted; call it once at startup, before any Run. Interrupted turns
// are never replayed. It returns how many turns it marked.
func (a *Agent) MarkInterrupted(ctx context.Context) (int, error) {
	return a.st.markInterrupted(ctx)
}

// Running reports whether a turn is running in sessionID.
func (a *Agent) Running(sessionID string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.runs[sessionID] != nil
}

// Stop stops the session's running turn: the model stream is cancelled,
// every in-flight tool call is aborted through Host.Abort (Read, Glob and
// Grep end at once with TOOL_ABORTED; Bash returns its collected output
// within 10 s; a started Write or Edit drains), unstarted calls are
// skipped, partial text is kept, and the turn ends aborted (TURN_ABORTED).
// Run returns once everything settled. Every running delegate of the
// session is stopped too. Stop reports whether a turn or a delegate was
// running.
func (a *Agent) Stop(sessionID string) bool {
	// The parent first: once its context is cancelled no Task of it can
	// start a delegate (StartDelegation checks under mu), so the sweep
	// below sees every delegate there will be.
	a.mu.Lock()
	r := a.runs[sessionID]
	a.mu.Unlock()
	if r != nil {
		r.stopped.Store(true)
		r.cancel()
	}
	stopped := a.stopDelegations(sessionID) > 0
	return r != nil || stopped
}

// Shutdown cancels every running turn because the host is closing: each
// ends aborted as on Stop, except that a pending Plan/Goal proposal becomes
// interrupted (PLAN_APPROVAL_INTERRUPTED), as after a restart, and pending
// questions are skipped. No delegate starts afterwards. It does not wait
// for the turns to settle; Drain waits for the delegates.
func (a *Agent) Shutdown() {
	a.mu.Lock()
	a.closing = true
	runs := make([]*run, 0, len(a.runs))
	for _, r := range a.runs {
		runs = append(runs, r)
	}
	scopes := make([]*delegateScope, 0, len(a.delegs))
	for _, s := range a.delegs {
		scopes = append(scopes, s)
	}
	a.mu.Unlock()
	for _, r := range runs {
		r.cancel()
	}
	for _, s := range scopes {
		s.stop(false)
	}
}

// Drain waits until every delegate this process started has ended and
// recorded how it ended, or ctx ends (its error). Call it after Shutdown,
// before the database closes.
func (a *Agent) Drain(ctx context.Context) error {
	done := make(chan struct{})
	go func() { a.delegates.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RequestCompaction asks for a compaction at the session's next request
// boundary (the new_context tool's hook).
func (a *Agent) RequestCompaction(sessionID string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.compactNext[sessionID] = true
}

func (a *Agent) takeCompactionRequest(sessionID string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	v := a.compactNext[sessionID]
	delete(a.compactNext, sessionID)
	return v
}

// run is one turn in flight.
type run struct {
	a                 *Agent
	attachments       []api.Attachment // the prompt's files
	sessionID, turnID string
	info              SessionInfo
	prov              provider.Provider
	model             provider.ModelInfo
	system            string
	instructions      string
	tools             []provider.ToolDef
	parallel          map[string]bool // tools of r.tools that may run in a parallel batch
	exclusive         map[string]bool // tools of r.tools that must be alone in their batch
	cancel            context.CancelFunc
	stopped           atomic.Bool
	modeChanged       bool // a runtime tool switched the operating mode: refresh before the next request
	toolsChanged      bool // ToolSearch loaded tools: rebuild the tool list before the next request

	skillCatalog string // the system prompt's skills section
	offerSkill   bool   // the Skill tool is offered (a catalog, or a /skill: invocation)
	invokedSkill string // the skill the prompt invoked with /skill:, "" for none

	catalog []DeferredTool  // the mode's on-demand tools
	active  map[string]bool // the loaded ones (names in catalog)
	loaded  []string        // the same names, in the order they were loaded

	msgs      []provider.Message // what the next request sends
	prompt    string             // this turn's prompt
	prompts   []string           // the user's messages since the last checkpoint (for the next one)
	promptSeq int64              // seq of this turn's prompt message
	lastSeq   int64              // seq of the newest message of this turn
	firstCall bool               // no model call has answered in this turn yet
	callIDs   map[string]string  // tool_use id → tool call id of the last response
	dbErr     error              // the first failed transcript write of a batch

	usage      provider.Usage
	stopReason provider.StopReason // of the last response
	calls      int
	lastText   string
	reported   int // tokens of the context as the provider last reported them
	reportedAt int // estimateChars at that moment

	// delegation is set on a delegate's run (nil for a session's turn).
	delegation *delegateScope
	// writers are the writing delegates the current batch started.
	writers *batchWriters
	// instr is what this prompt loaded of path-scoped instructions.
	instr pathInstructions
}

// outcome is how a turn ends.
type outcome struct {
	state     string
	code      errs.Code
	message   string
	retriable bool
}

const errBusy = "a turn is already running in this session; wait for it to finish or stop it first"

// Run runs one user prompt as one turn: model calls and tool batches until
// the model ends its turn. It returns AGENT_BUSY while another turn of the
// session runs, and a failure before the turn exists (no model configured,
// unknown session) as an error without persisting anything. Otherwise the
// turn is persisted and the result says how it ended; the error is non-nil
// (with the turn's code) unless it ended done.
func (a *Agent) Run(ctx context.Context, sessionID, prompt string) (TurnResult, error) {
	return a.RunWith(ctx, sessionID, prompt, RunOptions{})
}

// RunOptions are the options of one prompt.
type RunOptions struct {
	// Preload names on-demand tools loaded for this prompt without a
	// ToolSearch round trip (the composer's MCP selection, checked by the
	// host before the turn); a name the session's catalog lacks by the
	// time the turn starts is ignored. Later prompts restore them only from
	// evidence, as for ToolSearch (a successful call).
	Preload []string
	// Attachments are the prompt's files, already verified by the host
	// (copies in the session's pasted folder): stored with the prompt and
	// sent as @ paths, and images as images to a model that accepts them.
	Attachments []api.Attachment
}

// RunWith is Run with the prompt's options.
func (a *Agent) RunWith(ctx context.Context, sessionID, prompt string, opts RunOptions) (TurnResult, error) {
	if strings.TrimSpace(prompt) == "" && len(opts.Attachments) == 0 {
		return TurnResult{}, errs.New(errs.InvalidArgument, "the prompt is empty; type what the agent should do").With("field", "prompt")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &run{a: a, sessionID: sessionID, turnID: a.newID(), prompt: prompt, attachments: opts.Attachments, cancel: cancel, firstCall: true}
	if name, text, ok := ParseSkillInvocation(prompt); ok {
		if name == "" {
			return TurnResult{}, errs.New(errs.SkillNotFound, "/skill: needs the skill's name right after the colon, e.g. /skill:pdf; pi-desktop skills list shows them").With("field", "prompt")
		}
		// The model reads the prompt with the instruction to call Skill;
		// the transcript keeps it that way, as sent.
		r.invokedSkill = name
		prompt = skillPrompt(name, text)
		r.prompt = prompt
	}
	a.mu.Lock()
	if a.runs[sessionID] != nil {
		a.mu.Unlock()
		return TurnResult{}, errs.New(errs.AgentBusy, "%s", errBusy).With("sessionId", sessionID)
	}
	a.runs[sessionID] = r
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.runs, sessionID)
		a.settleDelegationsLocked(sessionID)
		a.mu.Unlock()
	}()

	dbctx := context.WithoutCancel(ctx)
	if err := r.setup(ctx, opts.Preload); err != nil {
		return TurnResult{}, err
	}
	now := a.now().UnixMilli()
	promptID := a.newID()
	seq, err := a.st.beginTurn(dbctx, Turn{ID: r.turnID, SessionID: sessionID, Prompt: prompt, CreatedAt: now, attachments: r.attachments}, promptID)
	if err != nil {
		return TurnResult{}, err
	}
	r.promptSeq, r.lastSeq = seq, seq
	r.msgs = appendMessage(r.msgs, promptMessage(promptContent(prompt, r.attachments)))
	r.prompts = append(r.prompts, prompt)
	a.emit(EventTurn, TurnEvent{SessionID: sessionID, TurnID: r.turnID, State: TurnRunning})
	a.emit(EventMessage, MessageEvent{SessionID: sessionID, TurnID: r.turnID, MessageID: promptID, Role: provider.RoleUser, Kind: KindPrompt, State: string(provider.StopEndTurn)})

	out := r.loop(ctx)
	if err := a.st.finishTurn(dbctx, r.turnID, out.state, out.code, out.message); err != nil && out.state == TurnDone {
		out = outcome{state: TurnFailed, code: errs.CodeOf(err), message: errs.ToPayload(err).Message}
	}
	a.emit(EventTurn, TurnEvent{SessionID: sessionID, TurnID: r.turnID, State: out.state, Code: out.code, Message: out.message, Retriable: out.retriable})
	res := TurnResult{TurnID: r.turnID, State: out.state, Code: out.code, Message: out.message, Retriable: out.retriable,
		Text: r.lastText, StopReason: r.stopReason, Usage: r.usage, ModelCalls: r.calls, Cost: r.price(r.usage).cost}
	if out.state != TurnDone {
		e := errs.New(out.code, "%s", out.message).With("turnId", r.turnID)
		if out.retriable {
			e = e.With("retriable", true)
		}
		return res, e
	}
	return res, nil
}

// setup resolves everything a turn needs before it is persisted.
func (r *run) setup(ctx context.Context, preload []string) error {
	a := r.a
	prov, err := a.providers(r.sessionID)
	if err != nil {
		return err
	}
	if prov == nil {
		return errs.New(errs.ModelNotConfigured, "no model is configured; choose a provider and model in Settings → Models")
	}
	r.prov, r.model = prov, prov.Info()
	info, err := a.host.Binding(ctx, r.sessionID)
	if err != nil {
		return err
	}
	instr, err := a.host.Instructions(ctx, r.sessionID)
	if err != nil {
		return err
	}
	r.info, r.instructions = info, instr
	if err := r.setupSkills(ctx); err != nil {
		return err
	}
	r.catalog = a.host.Deferred(ctx, r.sessionID, info.OperatingMode)
	r.system = BuildPrompt(PromptInput{Info: info, Instructions: instr, Today: a.now(), OnDemand: r.catalog,
		Subagents: a.subagentsFor(ctx, r.sessionID, info.OperatingMode), Skills: r.skillCatalog})
	tr, err := a.st.load(context.WithoutCancel(ctx), r.sessionID)
	if err != nil {
		return err
	}
	// One reading of which earlier turns this prompt resends, for both.
	resent := tr.resentTurns(promptContent(r.prompt, r.attachments))
	r.msgs = tr.contextWithout(resent)
	r.prompts = promptsSince(tr, resent)
	// A new prompt starts from what the effective context proves was
	// loaded, never from the previous turn's memory (spec §2.1).
	for _, name := range restoreActive(tr, r.catalog) {
		r.load(name)
	}
	for _, name := range preload {
		if inCatalog(r.catalog, name) {
			r.load(name)
		}
	}
	r.buildTools()
	return nil
}

func (r *run) stopOutcome() outcome {
	if r.stopped.Load() {
		return outcome{state: TurnAborted, code: errs.TurnAborted, message: "the turn was stopped; partial output is kept"}
	}
	return outcome{state: TurnAborted, code: errs.TurnAborted, message: "the turn was cancelled because PI-Desktop is shutting down"}
}

func failOutcome(err error) outcome {
	p := errs.ToPayload(err)
	retriable, _ := p.Details["retriable"].(bool)
	return outcome{state: TurnFailed, code: p.Code, message: p.Message, retriable: retriable}
}

// loop alternates model calls and tool batches until the model ends.
func (r *run) loop(ctx context.Context) outcome {
	for {
		if ctx.Err() != nil {
			return r.stopOutcome()
		}
		if d := r.delegation; d != nil && r.calls >= d.maxTurns {
			return outcome{state: TurnFailed, code: errs.DelegateTurnsExhausted, retriable: true,
				message: fmt.Sprintf("the %s subagent used its %d turns before it finished; its report so far is partial, and the work can be resumed with a new Task that says what is left", d.name, d.maxTurns)}
		}
		if err := r.maybeCompact(ctx); err != nil {
			if ctx.Err() != nil {
				return r.stopOutcome()
			}
			return failOutcome(err)
		}
		resp, msgID, err := r.modelCall(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return r.stopOutcome()
			}
			return failOutcome(err)
		}
		r.msgs = appendMessage(r.msgs, resp.Message)
		r.noteUsage(resp.Usage)
		calls := r.prepare(msgID, resp.Message)
		if len(calls) == 0 {
			return outcome{state: TurnDone}
		}
		if err := r.a.st.prepareCalls(context.WithoutCancel(ctx), msgID, calls); err != nil {
			return failOutcome(err)
		}
		terminate := false
		if resp.StopReason == provider.StopMaxTokens {
			// The response was cut by the output limit: its calls may be
			// truncated, so none runs and the model is told to re-issue.
			for _, c := range calls {
				if !c.settled {
					c.finish(CallFailed, tools.Failure(errs.New(errs.ToolCallTruncated,
						"not run: the response hit the output token limit, so this %s call may be incomplete. Re-issue it; split large content across smaller calls", c.tool)))
				}
			}
		} else {
			terminate = r.runBatch(ctx, calls)
		}
		results := provider.Message{Role: provider.RoleUser}
		for _, c := range calls {
			if !c.persisted {
				r.settle(ctx, c)
			}
			results.Content = append(results.Content, toolResult(c.toolUseID, c.modelText, c.isError, c.result.Images))
		}
		r.msgs = appendMessage(r.msgs, results)
		if r.dbErr != nil {
			return failOutcome(r.dbErr)
		}
		if r.modeChanged {
			r.modeChanged, r.toolsChanged = false, false
			if err := r.refresh(context.WithoutCancel(ctx)); err != nil {
				return failOutcome(err)
			}
		} else if r.toolsChanged {
			r.toolsChanged = false
			r.buildTools()
		}
		if terminate {
			return outcome{state: TurnFailed, code: errs.MutationRetryBudgetExhausted, retriable: true,
				message: "the turn ended after repeated failed edits of one file; review the last error, then send a new prompt to continue"}
		}
		if ctx.Err() != nil {
			return r.stopOutcome()
		}
	}
}

// modelCall streams one response, retrying a broken stream once, an empty
// response once, and a context overflow once after compacting.
func (r *run) modelCall(ctx context.Context) (provider.Response, string, error) {
	var streamRetried, emptyRetried, compacted bool
	for {
		resp, msgID, err := r.streamOnce(ctx)
		if err == nil {
			r.firstCall = false
			return resp, msgID, nil
		}
		if ctx.Err() != nil {
			return resp, msgID, err
		}
		code := errs.CodeOf(err)
		retry := false
		switch code {
		case errs.StreamFailed:
			retry, streamRetried = !streamRetried, true
		case errs.EmptyModelResponse:
			retry, emptyRetried = !emptyRetried, true
		case errs.ContextTooLarge:
			if !compacted && r.canCompact() {
				compacted = true
				if cerr := r.compact(ctx); cerr != nil {
					return resp, msgID, cerr
				}
				retry = true
			}
		}
		if !retry {
			return resp, msgID, err
		}
		r.emit(EventTurn, TurnEvent{SessionID: r.sessionID, TurnID: r.turnID, State: TurnRunning, Retry: code})
	}
}

func emptyResponse(m provider.Message) bool {
	for _, b := range m.Content {
		if b.Type == provider.BlockToolUse || (b.Type == provider.BlockText && strings.TrimSpace(b.Text) != "") {
			return false
		}
	}
	return true
}

func textOf(m provider.Message) string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == provider.BlockText && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
