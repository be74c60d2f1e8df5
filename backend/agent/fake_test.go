package agent

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	dbstore "github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// ---- scripted provider ----

// step answers one model call.
type step func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error)

// fakeProvider answers model calls from a script, one step per call, and
// records every request (deep-copied).
type fakeProvider struct {
	t    *testing.T
	info provider.ModelInfo
	mu   sync.Mutex
	reqs []provider.Request
	play []step
}

func newProvider(t *testing.T, steps ...step) *fakeProvider {
	return &fakeProvider{t: t, info: provider.ModelInfo{API: "fake", Model: "fake-1", ContextWindow: 200_000, MaxOutputTokens: 8_000}, play: steps}
}

func (p *fakeProvider) Info() provider.ModelInfo { return p.info }

func (p *fakeProvider) Stream(ctx context.Context, req provider.Request, onEvent func(provider.Event) error) (provider.Response, error) {
	p.mu.Lock()
	p.reqs = append(p.reqs, cloneRequest(req))
	n := len(p.reqs)
	if n > len(p.play) {
		p.mu.Unlock()
		p.t.Errorf("unexpected model call %d (script has %d)", n, len(p.play))
		return provider.Response{}, errs.New(errs.ProviderError, "script exhausted")
	}
	s := p.play[n-1]
	p.mu.Unlock()
	return s(ctx, req, onEvent)
}

func (p *fakeProvider) requests() []provider.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]provider.Request(nil), p.reqs...)
}

func cloneRequest(r provider.Request) provider.Request {
	b, _ := json.Marshal(r.Messages)
	var msgs []provider.Message
	_ = json.Unmarshal(b, &msgs)
	// Image bytes and references are not JSON (never persisted): copy them.
	for i, m := range r.Messages {
		for j, blk := range m.Content {
			msgs[i].Content[j].Images = slices.Clone(blk.Images)
			msgs[i].Content[j].ImageRefs = slices.Clone(blk.ImageRefs)
		}
	}
	r.Messages = msgs
	r.Tools = append([]provider.ToolDef(nil), r.Tools...)
	return r
}

// say streams text token by token and ends the turn.
func say(text string) step {
	return func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
		for _, tok := range strings.SplitAfter(text, " ") {
			if err := emit(provider.Event{Type: provider.EventText, Text: tok}); err != nil {
				return provider.Response{}, err
			}
		}
		return provider.Response{Message: provider.Message{Role: provider.RoleAssistant,
			Content: []provider.Block{{Type: provider.BlockText, Text: text}}},
			StopReason: provider.StopEndTurn, Usage: provider.Usage{InputTokens: 10, OutputTokens: 5}}, nil
	}
}

type use struct {
	id, tool string
	args     string
}

// callTools streams a little text, then tool calls, stopping with stop.
func callTools(stop provider.StopReason, uses ...use) step {
	return func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
		content := []provider.Block{{Type: provider.BlockText, Text: "Let me look."}}
		if err := emit(provider.Event{Type: provider.EventText, Text: "Let me look."}); err != nil {
			return provider.Response{}, err
		}
		for _, u := range uses {
			evs := []provider.Event{
				{Type: provider.EventToolUseStart, ToolUseID: u.id, ToolName: u.tool},
				{Type: provider.EventToolUseDelta, ToolUseID: u.id, Text: u.args},
				{Type: provider.EventToolUseFinish, ToolUseID: u.id, ToolName: u.tool, Input: json.RawMessage(u.args)},
			}
			for _, ev := range evs {
				if err := emit(ev); err != nil {
					return provider.Response{}, err
				}
			}
			content = append(content, provider.Block{Type: provider.BlockToolUse, ToolUseID: u.id, ToolName: u.tool, Input: json.RawMessage(u.args)})
		}
		return provider.Response{Message: provider.Message{Role: provider.RoleAssistant, Content: content},
			StopReason: stop, Usage: provider.Usage{InputTokens: 20, OutputTokens: 10}}, nil
	}
}

// fail returns an error with code after streaming partial text.
func fail(code errs.Code, partial string) step {
	return func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
		if partial != "" {
			if err := emit(provider.Event{Type: provider.EventText, Text: partial}); err != nil {
				return provider.Response{}, err
			}
		}
		return provider.Response{}, errs.New(code, "scripted %s", code)
	}
}

// hang streams partial text, signals started, then waits for ctx.
func hang(partial []string, started chan<- struct{}) step {
	return func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
		for _, tok := range partial {
			if err := emit(provider.Event{Type: provider.EventText, Text: tok}); err != nil {
				return provider.Response{}, err
			}
		}
		close(started)
		<-ctx.Done()
		return provider.Response{}, errs.Wrap(ctx.Err(), errs.TurnAborted, "stopped")
	}
}

// ---- fake host ----

type execRecord struct {
	call       ToolCall
	start, end time.Time
}

// fakeHost records calls; behave decides each result (default: wait
// delay_ms from the args, honouring ctx, then succeed).
type fakeHost struct {
	mu        sync.Mutex
	info      SessionInfo
	instr     string
	execs     []execRecord
	aborts    []string
	active    int
	maxActive int
	behave    func(ctx context.Context, call ToolCall) tools.Result
	onStart   func(call ToolCall)
	onAbort   func(toolCallID string)

	deferred map[string][]DeferredTool // on-demand catalog by mode

	artifacts      map[string][]byte
	configs        []ModeChange
	permissionMode string
	audits         []auditRow
	runtime        *tools.Registry // the runtime tools, run as Execute runs them
	ended          []string        // delegation ids DelegationEnded was told of

	pathInstr  func(call ToolCall, path string) []InstructionFile // PathInstructions' answer
	preflights []ToolCall                                         // the calls PathInstructions was asked about
}

// DelegationEnded records the ids, as host-core drops its per-delegation state.
func (h *fakeHost) DelegationEnded(sessionID, delegationID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ended = append(h.ended, delegationID)
}

func (h *fakeHost) endedList() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.ended)
}

// auditRow is what host-core's audit row records of a call the fake host
// refused or ran as a runtime tool.
type auditRow struct {
	Tool, ToolCallID, TurnID string
	OperatingMode, Decision  string
	Prompted, OK             bool
	Wait                     time.Duration
	ErrorCode                errs.Code
	Path                     string
	Delegate                 string
}

func newHost() *fakeHost {
	reg, err := tools.NewRegistry(tools.Runtime()...)
	if err != nil {
		panic(err)
	}
	return &fakeHost{info: SessionInfo{Workspace: "/work/proj", Scratch: "/data/scratch/s1", OperatingMode: "agent",
		Platform: "linux", ShellID: "bash", ShellDialect: "bash"}, instr: "Run go test before you finish.", runtime: reg}
}

func specInput(s tools.Spec, mode string) permission.Input {
	return permission.Input{Tool: s.Name, Class: s.Class, Risk: s.Risk, OperatingMode: mode, Modes: s.Modes}
}

// pipeline does what the loop relies on host-core's Execute for: it
// refuses an Exclusive call beside others, a call outside the tool's
// operating modes and an on-demand tool the turn did not offer, and runs
// the runtime tools (validated by the real registry) with the turn; each
// of those calls gets one audit row. Other calls return handled=false.
func (h *fakeHost) pipeline(ctx context.Context, call ToolCall) (res tools.Result, handled bool) {
	h.mu.Lock()
	mode := h.info.OperatingMode
	deferred := slices.ContainsFunc(h.deferred[mode], func(d DeferredTool) bool { return d.Name == call.Tool })
	h.mu.Unlock()
	t, runtime := h.runtime.Lookup(call.Tool)
	row := auditRow{Tool: call.Tool, ToolCallID: call.ToolCallID, TurnID: call.TurnID, OperatingMode: mode, Delegate: call.Delegate}
	defer func() {
		if handled {
			row.OK, row.ErrorCode = res.OK, res.Code
			h.mu.Lock()
			h.audits = append(h.audits, row)
			h.mu.Unlock()
		}
	}()
	if (call.Delegate != "" || call.DelegationID != "") && !slices.Contains(call.AllowedTools, call.Tool) {
		row.Decision = "deny"
		return tools.Failure(errs.New(errs.ToolNotFound, "not run: the %s subagent cannot call %s; its tools are: %s",
			call.Delegate, call.Tool, strings.Join(call.AllowedTools, ", "))), true
	}
	if runtime {
		s := t.Spec()
		if s.Exclusive && call.BatchSize > 1 {
			row.Decision = "deny"
			return tools.Failure(errs.New(errs.ToolMustBeAlone, "not run: %s must be the only tool call in its response", s.Name)), true
		}
		if v, denied := permission.ContractDeny(specInput(s, mode)); denied {
			row.Decision = "deny"
			return tools.Failure(errs.New(v.Code, "%s", v.Reason)), true
		}
	}
	if deferred && call.Turn != nil && !call.Turn.Offered(call.Tool) {
		row.Decision = "deny"
		return tools.Failure(errs.New(errs.ToolNotFound, "not run: %s is an on-demand tool that is not loaded. Call ToolSearch with query \"select:%s\" first", call.Tool, call.Tool)), true
	}
	if !runtime {
		return tools.Result{}, false
	}
	args, _, err := h.runtime.Validate(call.Tool, call.Args)
	if err != nil {
		return tools.Failure(err), true
	}
	var o tools.Outcome
	res = t.Run(ctx, &tools.Call{SessionID: call.SessionID, Args: args, Turn: call.Turn, Outcome: &o})
	row.Decision, row.Prompted, row.Wait, row.Path = "allow", o.Prompted, o.Wait, o.Path
	if o.Decision != "" {
		row.Decision = o.Decision
	}
	return res, true
}

func (h *fakeHost) Execute(ctx context.Context, call ToolCall) tools.Result {
	if res, handled := h.pipeline(ctx, call); handled {
		return res
	}
	h.mu.Lock()
	h.active++
	h.maxActive = max(h.maxActive, h.active)
	i := len(h.execs)
	h.execs = append(h.execs, execRecord{call: call, start: time.Now()})
	behave, onStart := h.behave, h.onStart
	h.mu.Unlock()
	if onStart != nil {
		onStart(call)
	}
	var res tools.Result
	if behave != nil {
		res = behave(ctx, call)
	} else {
		res = defaultBehave(ctx, call)
	}
	h.mu.Lock()
	h.active--
	h.execs[i].end = time.Now()
	h.mu.Unlock()
	return res
}

// meetAt makes each call wait (up to 10 s) until n calls are running, then
// behave as usual, so a test of parallel calls does not depend on a loaded
// machine starting them within their delay of one another. Calls that do
// not run together still finish, only late, and the test sees maxActive < n.
func (h *fakeHost) meetAt(n int) {
	var arrived atomic.Int64
	all := make(chan struct{})
	h.mu.Lock()
	defer h.mu.Unlock()
	h.behave = func(ctx context.Context, call ToolCall) tools.Result {
		if arrived.Add(1) == int64(n) {
			close(all)
		}
		select {
		case <-all:
		case <-time.After(10 * time.Second):
		case <-ctx.Done():
		}
		return defaultBehave(ctx, call)
	}
}

func defaultBehave(ctx context.Context, call ToolCall) tools.Result {
	var a struct {
		DelayMs int    `json:"delay_ms"`
		Path    string `json:"path"`
	}
	_ = json.Unmarshal(call.Args, &a)
	select {
	case <-time.After(time.Duration(a.DelayMs) * time.Millisecond):
	case <-ctx.Done():
		return tools.Failure(errs.New(errs.ToolAborted, "%s was stopped", call.Tool))
	}
	return tools.Result{OK: true, Content: fmt.Sprintf("%s %s ok", call.Tool, a.Path)}
}

func (h *fakeHost) Abort(sessionID, toolCallID, tool string) bool {
	h.mu.Lock()
	h.aborts = append(h.aborts, tool+":"+toolCallID)
	onAbort := h.onAbort
	h.mu.Unlock()
	if onAbort != nil {
		onAbort(toolCallID)
	}
	return true
}

func (h *fakeHost) Binding(ctx context.Context, sessionID string) (SessionInfo, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.info, nil
}

func (h *fakeHost) WriteArtifact(ctx context.Context, sessionID, kind, title string, markdown []byte) (Artifact, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.artifacts == nil {
		h.artifacts = map[string][]byte{}
	}
	path := fmt.Sprintf(".pi/%s/%s-%d.md", kind, strings.ToLower(strings.ReplaceAll(title, " ", "-")), len(h.artifacts)+1)
	h.artifacts[path] = append([]byte(nil), markdown...)
	sum := sha256.Sum256(markdown)
	return Artifact{Path: path, AbsPath: h.info.Workspace + "/" + path, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(markdown))}, nil
}

func (h *fakeHost) Configure(ctx context.Context, sessionID string, change ModeChange) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.configs = append(h.configs, change)
	if h.info.OperatingMode != change.From {
		return errs.New(errs.Conflict, "the session is in %s mode, not %s", h.info.OperatingMode, change.From)
	}
	h.info.OperatingMode = change.To
	if change.PermissionMode != "" {
		h.permissionMode = change.PermissionMode
	}
	return nil
}

func (h *fakeHost) setMode(mode string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.info.OperatingMode = mode
}

func (h *fakeHost) state() (mode, permissionMode string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.info.OperatingMode, h.permissionMode
}

func (h *fakeHost) auditList() []auditRow {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]auditRow(nil), h.audits...)
}

func (h *fakeHost) artifact(path string) ([]byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b, ok := h.artifacts[path]
	return b, ok
}

func (h *fakeHost) Instructions(ctx context.Context, sessionID string) (string, error) {
	return h.instr, nil
}

// Tools offers stand-ins of the builtin tools (Write and Edit in Agent
// mode only, as the policy decides) and the real runtime tools the policy
// offers in mode, as host-core does.
func (h *fakeHost) Tools(mode string) []OfferedTool {
	var out []OfferedTool
	for _, n := range []string{ToolRead, ToolGlob, ToolGrep, ToolWrite, ToolEdit, ToolBash} {
		if (n == ToolWrite || n == ToolEdit) && mode != "agent" {
			continue
		}
		out = append(out, OfferedTool{Def: provider.ToolDef{Name: n, Description: n + " tool", Schema: json.RawMessage(`{"type":"object"}`)},
			Parallel: n == ToolRead || n == ToolGlob || n == ToolGrep})
	}
	onDemand := len(h.Deferred(context.Background(), "", mode)) > 0
	for _, name := range h.runtime.Names() {
		t, _ := h.runtime.Lookup(name)
		s := t.Spec()
		if (s.Loader && !onDemand) || !permission.Offered(specInput(s, mode)) {
			continue
		}
		out = append(out, OfferedTool{Def: provider.ToolDef{Name: s.Name, Description: s.Description, Schema: s.Schema}, Parallel: s.Parallel, Exclusive: s.Exclusive})
	}
	return out
}

func (h *fakeHost) Deferred(_ context.Context, _, mode string) []DeferredTool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]DeferredTool(nil), h.deferred[mode]...)
}

func (h *fakeHost) records() []execRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]execRecord(nil), h.execs...)
}

func (h *fakeHost) abortList() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.aborts...)
}

// ---- events ----

type event struct {
	name    string
	payload any
}

type recorder struct {
	mu     sync.Mutex
	events []event
	hook   func(name string, payload any)
}

func (r *recorder) emit(name string, payload any) {
	r.mu.Lock()
	r.events = append(r.events, event{name, payload})
	hook := r.hook
	r.mu.Unlock()
	if hook != nil {
		hook(name, payload)
	}
}

func (r *recorder) named(name string) []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []any
	for _, e := range r.events {
		if e.name == name {
			out = append(out, e.payload)
		}
	}
	return out
}

// ---- fixture ----

const sid = "s1"

type fixture struct {
	t    *testing.T
	db   *sql.DB
	file string
	host *fakeHost
	prov *fakeProvider
	rec  *recorder
	a    *Agent
}

func newFixture(t *testing.T, steps ...step) *fixture {
	t.Helper()
	file := filepath.Join(t.TempDir(), "pi.sqlite")
	st, err := dbstore.Open(t.Context(), file, dbstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if _, err := st.DB().ExecContext(t.Context(),
		`INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, 'test', 1, 1)`, sid); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, db: st.DB(), file: file, host: newHost(), prov: newProvider(t, steps...), rec: &recorder{}}
	f.a = f.newAgent()
	return f
}

func (f *fixture) newAgent() *Agent {
	now := func() time.Time { return time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC) }
	return New(f.db, f.host, func(string) (provider.Provider, error) { return f.prov, nil }, f.rec.emit, now)
}

func (f *fixture) run(prompt string) (TurnResult, error) {
	f.t.Helper()
	return f.a.Run(f.t.Context(), sid, prompt)
}

func (f *fixture) load() Transcript {
	f.t.Helper()
	tr, err := f.a.Load(f.t.Context(), sid)
	if err != nil {
		f.t.Fatal(err)
	}
	return tr
}

// lastResults returns the tool_result blocks of request i's last message.
func lastResults(t *testing.T, req provider.Request) []provider.Block {
	t.Helper()
	last := req.Messages[len(req.Messages)-1]
	var out []provider.Block
	for _, b := range last.Content {
		if b.Type == provider.BlockToolResult {
			out = append(out, b)
		}
	}
	return out
}

func toolUseIDs(blocks []provider.Block) []string {
	var out []string
	for _, b := range blocks {
		out = append(out, b.ToolUseID)
	}
	return out
}

func mustCode(t *testing.T, err error, want errs.Code) {
	t.Helper()
	if got := errs.CodeOf(err); got != want {
		t.Fatalf("error code = %q (%v), want %s", got, err, want)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// PathInstructions answers from pathInstr (nil: none), keyed by the call's
// path argument, and records the calls it was asked about.
func (h *fakeHost) PathInstructions(ctx context.Context, call ToolCall) []InstructionFile {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.preflights = append(h.preflights, call)
	if h.pathInstr == nil {
		return nil
	}
	var a struct {
		Path string `json:"path"`
	}
	_ = json.Unmarshal(call.Args, &a)
	return slices.Clone(h.pathInstr(call, a.Path))
}
