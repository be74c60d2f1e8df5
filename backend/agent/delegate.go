package agent

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
)

// Delegation states (spec §10.2).
const (
	DelegationRunning     = "running"
	DelegationWaiting     = "waiting" // waiting for the user (an approval card)
	DelegationDone        = "done"
	DelegationFailed      = "failed"
	DelegationStopped     = "stopped"
	DelegationInterrupted = "interrupted"
)

// MaxRunningDelegations is how many delegates one session may have running
// at once.
const MaxRunningDelegations = 10

// Delegation is one delegate run as the parent, the UI and the store see it.
type Delegation struct {
	ID               string `json:"id"`
	SessionID        string `json:"sessionId"`
	ParentTurnID     string `json:"parentTurnId"`
	ParentToolCallID string `json:"parentToolCallId"`
	// TurnID is the delegate's own turn in the transcript tables.
	TurnID       string   `json:"turnId"`
	Subagent     string   `json:"subagent"`
	Source       string   `json:"source"`
	Description  string   `json:"description"`
	Prompt       string   `json:"prompt"`
	Tools        []string `json:"tools"` // the tools it may call, fixed at spawn
	State        string   `json:"state"`
	Report       string   `json:"report"`
	ErrorCode    string   `json:"errorCode,omitempty"`
	ErrorMessage string   `json:"errorMessage,omitempty"`
	TurnsUsed    int      `json:"turnsUsed"`
	ToolCount    int      `json:"toolCount"`
	CreatedAt    int64    `json:"createdAt"`
	FinishedAt   int64    `json:"finishedAt,omitempty"`
	// Branch is its own worktree's branch ("" = it shared the session's
	// root); MergeState how its work came back (Merge*).
	Branch     string `json:"branch"`
	MergeState string `json:"mergeState"`
}

// Finished reports whether the delegate no longer runs.
func (d Delegation) Finished() bool {
	return d.State != DelegationRunning && d.State != DelegationWaiting
}

// DelegateSpec is what StartDelegation runs: a definition (resolved by the
// caller from the session's subagent catalog) and the Task call's input.
type DelegateSpec struct {
	Definition       subagent.Definition
	Description      string
	Prompt           string
	ParentTurnID     string
	ParentToolCallID string
	// Provider runs the delegate's model (the definition's saved profile,
	// resolved by the caller); nil means the session's model.
	Provider provider.Provider
}

// delegateScope is what makes a run a delegate's: its identity on every
// call, and the tools it may call.
type delegateScope struct {
	id, name, override string
	allowed            []string // the names offered at spawn, in order
	maxTurns           int
	branch             string // its own worktree's branch; "" = the session's root
	parentTurnID       string
	parentToolCallID   string

	mu        sync.Mutex
	d         Delegation // the live record (state, counters)
	collected bool       // a TaskWait without ids returned its report
	recorded  bool       // its outcome is stored: the row can stand in for it
	cards     int        // approval cards of its calls now open
	start     time.Time
	done      chan struct{}
	run       *run // nil once it ended: its conversation is not kept in memory
}

// stop cancels the delegate's run (a no-op once it ended); byUser says it
// was stopped on purpose (TaskStop, the parent's Stop), not by shutdown.
func (s *delegateScope) stop(byUser bool) {
	s.mu.Lock()
	r := s.run
	s.mu.Unlock()
	if r == nil {
		return
	}
	if byUser {
		r.stopped.Store(true)
	}
	r.cancel()
}

func (s *delegateScope) snapshot() Delegation {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.d
	d.Tools = slices.Clone(s.d.Tools)
	return d
}

// refusedTools are the tools a delegate never gets: what inherit never
// passes on (subagent.NeverInherited), and TodoWrite, which would replace
// the parent's checklist (a delegate reports through its text instead).
func refusedTools() []string { return append(subagent.NeverInherited(), ToolTodoWrite) }

// StartDelegation starts a delegate in sessionID and returns at once with
// its record (state running). The delegate's tools are its definition's,
// resolved against the session's catalog now and kept for the whole run;
// only names the host offers are kept. Its calls go through Host.Execute
// with its name, id, permission override and allowed tools. It fails with
// DELEGATE_LIMIT when MaxRunningDelegations already run in the session.
func (a *Agent) StartDelegation(ctx context.Context, sessionID string, spec DelegateSpec) (Delegation, error) {
	def := spec.Definition
	if strings.TrimSpace(spec.Prompt) == "" {
		return Delegation{}, invalid("prompt", "the Task prompt is empty; say what the %s subagent should do", def.Name)
	}
	prov := spec.Provider
	if prov == nil {
		p, err := a.providers(sessionID)
		if err != nil {
			return Delegation{}, err
		}
		prov = p
	}
	if prov == nil {
		return Delegation{}, errs.New(errs.ModelNotConfigured, "no model is configured; choose a provider and model in Settings → Models")
	}
	info, err := a.host.Binding(ctx, sessionID)
	if err != nil {
		return Delegation{}, err
	}
	// A delegate has its own cancellation: it outlives the Task call that
	// started it, and the parent's Stop or Shutdown ends it.
	dctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	maxTurns := def.MaxTurns
	if maxTurns <= 0 {
		maxTurns = subagent.DefaultMaxTurns
	}
	scope := &delegateScope{id: a.newID(), name: def.Name, override: def.PermissionOverride(), maxTurns: maxTurns,
		parentTurnID: spec.ParentTurnID, parentToolCallID: spec.ParentToolCallID, done: make(chan struct{}), start: time.Now()}
	r := &run{a: a, sessionID: sessionID, turnID: a.newID(), prompt: spec.Prompt, cancel: cancel, firstCall: true,
		info: info, prov: prov, model: prov.Info(), delegation: scope, active: map[string]bool{}}
	r.delegateTools(ctx, def.Tools)
	scope.allowed = catalogNamesOf(r.tools)
	if err := a.isolateDelegate(ctx, sessionID, scope, r); err != nil {
		cancel()
		return Delegation{}, err
	}
	r.system = DelegatePrompt(def.Prompt, r.info, a.now()) + isolationPrompt(scope.branch)
	scope.run = r
	now := a.now().UnixMilli()
	scope.d = Delegation{ID: scope.id, SessionID: sessionID, ParentTurnID: spec.ParentTurnID, ParentToolCallID: spec.ParentToolCallID,
		TurnID: r.turnID, Subagent: def.Name, Source: string(def.Source), Description: spec.Description, Prompt: spec.Prompt,
		Tools: slices.Clone(scope.allowed), State: DelegationRunning, CreatedAt: now, Branch: scope.branch}

	a.mu.Lock()
	if err := a.refuseStartLocked(ctx, sessionID); err != nil {
		a.mu.Unlock()
		cancel()
		a.abandonIsolation(ctx, scope)
		return Delegation{}, err
	}
	if n := a.runningDelegations(sessionID); n >= MaxRunningDelegations {
		a.mu.Unlock()
		cancel()
		a.abandonIsolation(ctx, scope)
		return Delegation{}, errs.New(errs.DelegateLimit,
			"not started: this session already has %d delegates running, the most at once (%d); wait for one with TaskWait or stop one with TaskStop, then try again",
			n, MaxRunningDelegations).With("limit", MaxRunningDelegations)
	}
	a.delegs[scope.id] = scope
	a.delegates.Add(1)
	a.mu.Unlock()

	dbctx := context.WithoutCancel(ctx)
	seq, err := a.st.beginDelegation(dbctx, scope.d, Turn{ID: r.turnID, SessionID: sessionID, Prompt: spec.Prompt, CreatedAt: now, delegationID: scope.id}, a.newID())
	if err != nil {
		defer a.delegates.Done()
		a.mu.Lock()
		delete(a.delegs, scope.id)
		a.mu.Unlock()
		cancel()
		a.abandonIsolation(ctx, scope)
		return Delegation{}, err
	}
	r.promptSeq, r.lastSeq = seq, seq
	r.msgs = appendMessage(nil, promptMessage(userText(spec.Prompt).Content))
	r.prompts = []string{spec.Prompt}
	first := scope.snapshot()
	a.emitDelegation(scope, first)
	go a.runDelegate(dctx, scope)
	return first, nil
}

// refuseStartLocked says why no delegate may start now (a.mu held): the
// host is shutting down, or the Task's turn was stopped (a Stop sweeps the
// delegates only after it cancelled the turn, so one registered later
// would escape it).
func (a *Agent) refuseStartLocked(ctx context.Context, sessionID string) error {
	if a.closing {
		return errs.New(errs.TurnAborted, "not started: PI-Desktop is shutting down; the delegation can be asked for again once it is open")
	}
	if r := a.runs[sessionID]; ctx.Err() != nil || (r != nil && r.stopped.Load()) {
		return errs.New(errs.TurnAborted, "not started: the turn was stopped; send a new prompt to delegate again")
	}
	return nil
}

// runningDelegations counts sessionID's delegates still running (a.mu held).
func (a *Agent) runningDelegations(sessionID string) int {
	n := 0
	for _, s := range a.delegs {
		if s.d.SessionID == sessionID && !s.finished() {
			n++
		}
	}
	return n
}

// finishedLocked reports whether the record says the delegate ended (s.mu held).
func (s *delegateScope) finishedLocked() bool { return s.d.Finished() }

func (s *delegateScope) finished() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// runDelegate runs the delegate's loop to its end and records how it ended.
func (a *Agent) runDelegate(ctx context.Context, s *delegateScope) {
	defer a.delegates.Done()
	r := s.run
	defer r.cancel()
	out := r.loop(ctx)
	dbctx := context.WithoutCancel(ctx)
	if err := a.st.finishTurn(dbctx, r.turnID, out.state, out.code, out.message); err != nil && out.state == TurnDone {
		out = failOutcome(err)
	}
	state := DelegationDone
	switch {
	case out.state == TurnAborted:
		state = DelegationStopped
	case out.state != TurnDone:
		state = DelegationFailed
	}
	note := a.settleDelegate(dbctx, s, state)
	s.mu.Lock()
	s.d.State, s.d.Report, s.d.TurnsUsed = state, reportWithNote(r.lastText, note), r.calls
	s.d.ErrorCode, s.d.ErrorMessage = string(out.code), out.message
	s.d.FinishedAt = a.now().UnixMilli()
	d := s.d
	s.mu.Unlock()
	err := a.st.finishDelegation(dbctx, d)
	s.mu.Lock()
	if err != nil {
		s.d.State, s.d.ErrorCode, s.d.ErrorMessage = DelegationFailed, string(errs.CodeOf(err)), errs.ToPayload(err).Message
		d = s.d
	}
	s.recorded = err == nil
	s.run = nil // its conversation is stored; only the record stays live
	s.mu.Unlock()
	if h, ok := a.host.(DelegationEnder); ok {
		h.DelegationEnded(d.SessionID, d.ID)
	}
	close(s.done)
	a.emitDelegation(s, d)
}

// DelegationEnder is the Host seam told when a delegate ended, so the host
// drops what it keeps per delegation (its edit snapshot store and loop
// guard). No call of the delegate is in flight any more.
type DelegationEnder interface {
	DelegationEnded(sessionID, delegationID string)
}

// delegateTools fixes the delegate's tools at spawn: the definition's spec
// resolved against the session's catalog (the tools offered up front and
// the on-demand ones), keeping only names the host offers and never a
// runtime tool that acts on the parent. On-demand tools a delegate gets are
// offered with their full schema: it has no ToolSearch.
func (r *run) delegateTools(ctx context.Context, spec subagent.ToolSpec) {
	mode := r.info.OperatingMode
	offered := r.a.host.Tools(mode)
	deferred := r.a.host.Deferred(ctx, r.sessionID, mode)
	var parent []string
	for _, t := range offered {
		parent = append(parent, t.Def.Name)
	}
	parent = append(parent, catalogNames(deferred)...)
	want := spec.Resolve(parent)
	r.tools, r.parallel, r.exclusive = nil, map[string]bool{}, map[string]bool{}
	refused := refusedTools()
	keep := func(name string) bool { return slices.Contains(want, name) && !slices.Contains(refused, name) }
	for _, t := range offered {
		if keep(t.Def.Name) {
			r.tools = append(r.tools, t.Def)
			r.parallel[t.Def.Name] = t.Parallel
			r.exclusive[t.Def.Name] = t.Exclusive
		}
	}
	for _, d := range deferred {
		if keep(d.Name) && !r.offered(d.Name) {
			r.tools = append(r.tools, d.Def)
			r.parallel[d.Name] = d.Parallel
			r.catalog = append(r.catalog, d)
			r.load(d.Name)
		}
	}
}

func catalogNamesOf(defs []provider.ToolDef) []string {
	out := make([]string, 0, len(defs))
	for _, d := range defs {
		out = append(out, d.Name)
	}
	return out
}

// Delegation returns one delegation of sessionID: the live record while
// this process runs it, else the stored one.
func (a *Agent) Delegation(ctx context.Context, sessionID, id string) (Delegation, error) {
	a.mu.Lock()
	s := a.delegs[id]
	a.mu.Unlock()
	if s != nil && s.d.SessionID == sessionID {
		return s.snapshot(), nil
	}
	return a.st.delegation(ctx, sessionID, id)
}

// Delegations lists sessionID's delegations in the order their parent
// asked for them (turn, then Task call; a fanned-out batch starts its
// delegates in any order): live records for the ones this process runs.
func (a *Agent) Delegations(ctx context.Context, sessionID string) ([]Delegation, error) {
	stored, err := a.st.delegations(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	live := map[string]*delegateScope{}
	for id, s := range a.delegs {
		live[id] = s
	}
	a.mu.Unlock()
	for i, d := range stored {
		if s := live[d.ID]; s != nil {
			stored[i] = s.snapshot()
		}
	}
	return stored, nil
}

// StopDelegation stops one running delegate of sessionID: its model stream
// is cancelled and its in-flight tools are aborted as on a turn's Stop
// (§3); it ends stopped with its partial report. It reports whether the
// delegate was running.
func (a *Agent) StopDelegation(sessionID, id string) bool {
	a.mu.Lock()
	s := a.delegs[id]
	a.mu.Unlock()
	if s == nil || s.d.SessionID != sessionID || s.finished() {
		return false
	}
	s.stop(true)
	return true
}

// stopDelegations stops every running delegate of sessionID (the parent's
// Stop) and reports how many it stopped.
func (a *Agent) stopDelegations(sessionID string) int {
	a.mu.Lock()
	var ids []string
	for id, s := range a.delegs {
		if s.d.SessionID == sessionID {
			ids = append(ids, id)
		}
	}
	a.mu.Unlock()
	n := 0
	for _, id := range ids {
		if a.StopDelegation(sessionID, id) {
			n++
		}
	}
	return n
}

// DelegationDone returns a channel closed when the delegate ends (nil for
// one this process does not run).
func (a *Agent) delegationDone(id string) <-chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.delegs[id]; s != nil {
		return s.done
	}
	return nil
}
