package hostcore

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/audit"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// ToolRequest is one tool call from the agent, the UI or the CLI.
type ToolRequest struct {
	SessionID  string          `json:"sessionId"`
	TurnID     string          `json:"turnId"`
	ToolCallID string          `json:"toolCallId"`
	Tool       string          `json:"tool"`
	Args       json.RawMessage `json:"args"`
	// Delegate names the subagent asking, shown on its approval card.
	Delegate string `json:"delegate,omitempty"`
	// PermissionOverride is a delegate's declared permission scope.
	PermissionOverride string `json:"permissionOverride,omitempty"`
	// DelegationID is the delegate run making the call: it scopes the edit
	// snapshot store and loop guard to that run.
	DelegationID string `json:"delegationId,omitempty"`
	// AllowedTools are the only tools a delegate's call may name (its
	// resolved set, fixed at spawn); a delegate's call naming another, or
	// carrying none, is refused (fail closed).
	AllowedTools []string `json:"allowedTools,omitempty"`
	// MessageID is the assistant message carrying the call; review records
	// belong to it. Empty means the turn and call ids stand in for it.
	MessageID string `json:"messageId,omitempty"`
	// PromptID scopes the edit loop guard (one user prompt); empty = TurnID.
	PromptID string `json:"promptId,omitempty"`
	// Shell is the command shell the turn pinned (Bash); empty = the
	// default shell from settings.
	Shell tools.ShellPin `json:"shell,omitzero"`
	// Turn is the agent turn making the call (nil from the UI or the CLI):
	// the runtime tools act on it, and an on-demand tool it was not offered
	// is refused.
	Turn tools.Turn `json:"-"`
	// BatchSize is how many calls the assistant message carrying this one
	// has; 0 or 1 means it is alone (an Exclusive tool must be).
	BatchSize int `json:"-"`
}

func (r ToolRequest) messageID() string {
	if r.MessageID != "" {
		return r.MessageID
	}
	return r.TurnID + ":" + r.ToolCallID
}

// Decisions recorded in results and audit rows.
const (
	decisionAllow     = "allow"   // allowed by policy without a card
	decisionGranted   = "granted" // allowed by an earlier allow-session answer
	decisionDeny      = "deny"    // refused by policy
	decisionDenied    = "denied"  // the user said no
	decisionCancelled = "cancelled"
	decisionTimeout   = "timeout"
	decisionShutdown  = "shutdown"
)

// callState accumulates what the audit row needs as the call moves on.
type callState struct {
	row      audit.Row
	waitDur  time.Duration
	bodyDur  time.Duration
	resolved *pathguard.Resolved
	// canonical is the validated arguments (aliases folded): the audit
	// row's hash is of them when set, else of the request's bytes.
	canonical json.RawMessage
	// command is what the command rules said of a Bash call (nil otherwise).
	command *commandCheck
	// carded: a card was shown for the call (its answer is the decision).
	carded bool
	// allowedBy names what spared a card ask mode would have shown
	// (tools.ApprovedBy*); "" when nothing needed allowing.
	allowedBy string
	// settled: the tool decided the call itself (the user's answer or
	// decision on a proposal, a refusal of its own); its result then states
	// the outcome, not the policy's decision.
	settled bool
}

// Execute runs one tool call through the whole pipeline: cancellation,
// validation, roots, path resolution, policy, approval, admission,
// re-resolution, the tool body under its timeout, bounding and audit.
// Every outcome, including refusals, is a Result and an audit row.
func (c *Core) Execute(ctx context.Context, req ToolRequest) tools.Result {
	start := time.Now()
	st := &callState{row: audit.Row{
		TraceID: newTraceID(), SessionID: req.SessionID, TurnID: req.TurnID, ToolCallID: req.ToolCallID,
		Tool: req.Tool, Delegate: req.Delegate, PreviewOf: req.Args,
		CreatedAt: c.cfg.Now().UnixMilli(),
	}}
	var res tools.Result
	if c.enter() {
		res = c.execute(ctx, req, st)
		defer c.life.calls.Done() // after the audit row is queued
	} else {
		res = tools.Failure(errs.New(errs.ToolAborted, "PI-Desktop is shutting down; %s did not run", req.Tool))
	}
	res.TraceID = st.row.TraceID
	if !st.settled {
		res.Decision = st.row.Decision
		res.Approval = st.approval()
	}
	total := time.Since(start)
	st.row.OK, st.row.ErrorCode = res.OK, string(res.Code)
	// The preview and hash are derived by the audit writer, off this path.
	st.row.HashOf = st.canonical
	if st.row.HashOf == nil {
		st.row.HashOf = req.Args
	}
	if st.row.HashOf == nil {
		st.row.HashOf = []byte{} // no arguments still hash
	}
	if st.command != nil {
		st.row.CommandRules = st.command.auditJSON()
	}
	st.row.PermissionWaitMs = st.waitDur.Milliseconds()
	st.row.DurationMs = st.bodyDur.Milliseconds()
	st.row.TotalMs = total.Milliseconds()
	st.row.OverheadMs = (total - st.waitDur - st.bodyDur).Milliseconds()
	c.audit.Record(st.row)
	return res
}

func (c *Core) execute(ctx context.Context, req ToolRequest, st *callState) tools.Result {
	if req.SessionID == "" || req.ToolCallID == "" {
		return tools.Failure(errs.New(errs.InvalidArgument, "a tool request needs sessionId and toolCallId"))
	}
	ctx, release, err := c.cancels.register(ctx, req.SessionID, req.ToolCallID, req.Tool)
	if err != nil {
		return tools.Failure(err)
	}
	defer release()

	if (req.Delegate != "" || req.DelegationID != "") && !slices.Contains(req.AllowedTools, req.Tool) {
		st.row.Decision = decisionDeny
		return tools.Failure(errs.New(errs.ToolNotFound, "not run: the %s subagent cannot call %s; its tools are: %s",
			req.Delegate, req.Tool, strings.Join(req.AllowedTools, ", ")).With("tool", req.Tool))
	}
	view, err := c.config(ctx)
	if err != nil {
		return tools.Failure(err)
	}
	tool, known := c.registry.Lookup(req.Tool)
	var (
		spec   tools.Spec
		args   json.RawMessage
		fields map[string]any
		verr   error
	)
	if known {
		spec = tool.Spec()
		if args, fields, verr = c.registry.Validate(req.Tool, req.Args); verr == nil {
			st.canonical = args
		}
	}
	// A control tool (a checklist, a question, a mode switch) names no path
	// and starts nothing: it needs the session's mode, not its folders, so a
	// workspace deleted mid-turn leaves asktool to ask the user about it.
	control := known && spec.Class.Control() && spec.Shape == tools.NoPath && spec.PathArg == ""
	binding, worktreeEnv, err := c.bindFor(ctx, view, req.SessionID, req.DelegationID, control)
	if err != nil {
		return tools.Failure(err) // never falls back to another workspace
	}
	if !known && strings.HasPrefix(req.Tool, "plugin_") {
		// Perhaps a tool of a plugin enabled and consented to here.
		e, found, err := c.plugins.lookup(ctx, binding.Session.ProjectID, req.Tool)
		if err != nil {
			return tools.Failure(err)
		}
		if found {
			tool, known, spec = e.tool, true, e.tool.Spec()
			if args, fields, verr = e.validate(req.Args); verr == nil {
				st.canonical = args
			}
		}
	}
	if !known {
		// Not a builtin: perhaps one of the session's MCP tools, whose
		// catalog depends on the project.
		e, found, err := c.mcpTool(ctx, binding.Project, req.Tool)
		if err != nil && strings.HasPrefix(req.Tool, "mcp_") {
			return tools.Failure(err) // the catalog is unreadable: say why, not "no such tool"
		}
		switch {
		case found:
			st.row.MCPServer = e.ServerID
			tool, known, spec = e.tool, true, e.tool.Spec()
			if args, fields, verr = e.validate(req.Args); verr == nil {
				st.canonical = args
			}
		default:
			_, _, verr = c.registry.Validate(req.Tool, req.Args) // names the tools there are
		}
	}
	st.row.OperatingMode = binding.Session.OperatingMode
	settings, err := view.settings(ctx)
	if err != nil {
		return tools.Failure(err)
	}
	mode := permission.Effective(req.PermissionOverride, binding.Session.PermissionMode, settings.DefaultPermissionMode)
	st.row.PermissionMode = mode
	// Mode switches and submissions happen at a batch boundary only (spec
	// §10.1): such a call beside others runs not at all.
	if spec.Exclusive && req.BatchSize > 1 {
		st.row.Decision = decisionDeny
		return tools.Failure(errs.New(errs.ToolMustBeAlone,
			"not run: %s must be the only tool call in its response, and this response has %d calls; call it again on its own once the other results are in",
			spec.Name, req.BatchSize))
	}
	in := toolInput(req.Tool, tool, known, binding.Session.OperatingMode)
	// Spec §10: the operating mode's deny comes before anything else, a
	// malformed or unknown call included, and is audited as a policy denial.
	if v, denied := permission.ContractDeny(in); denied {
		st.row.Decision = decisionDeny
		return tools.Failure(verdictError(v))
	}
	// An on-demand tool is called only once the turn loaded it (spec §2.1).
	if spec.Deferred && req.Turn != nil && !req.Turn.Offered(spec.Name) {
		st.row.Decision = decisionDeny
		return tools.Failure(errs.New(errs.ToolNotFound,
			"not run: %s is an on-demand tool that is not loaded. Call ToolSearch with query \"select:%s\" first; it can be called from your next response on",
			spec.Name, spec.Name).With("tool", spec.Name))
	}
	if verr != nil {
		return tools.Failure(verr)
	}
	// Spec §11: in Plan and Goal a plugin tool runs only its plan-safe
	// actions; the host refuses any other before the plugin sees the call.
	if pa, ok := tool.(planActionChecker); ok && (binding.Session.OperatingMode == api.ModePlan || binding.Session.OperatingMode == api.ModeGoal) {
		if err := pa.CheckPlanAction(args, binding.Session.OperatingMode); err != nil {
			st.row.Decision = decisionDeny
			return tools.Failure(err)
		}
	}

	var resolver *pathguard.Resolver
	if needsRoots(spec, control) {
		if resolver, err = c.resolverFor(ctx, binding, settings.InlineVisualizations); err != nil {
			return tools.Failure(err)
		}
	}
	spelling, explicit, err := pathArgument(spec, fields)
	if err != nil {
		return tools.Failure(err)
	}
	if explicit {
		spelling = escapedSpelling(resolver, spelling)
	}
	edits := c.edits.get(editScope(req))
	prompt := cmp.Or(req.PromptID, req.TurnID)
	if spec.Mutates && edits.guard.Exhausted(prompt) {
		st.row.Decision = decisionDeny
		return tools.Failure(errs.New(errs.MutationRetryBudgetExhausted,
			"edit attempts in this prompt are used up after repeated failures; stop and report the last error to the user instead of retrying").With("retriable", true))
	}
	call := &tools.Call{SessionID: req.SessionID, Args: args, Resolver: resolver, Turn: req.Turn, Outcome: &tools.Outcome{},
		Review:   tools.ReviewScope{Store: c.review, SessionID: req.SessionID, MessageID: req.messageID(), ToolCallID: req.ToolCallID},
		Edits:    edits.store,
		Guard:    edits.guard,
		PromptID: prompt,
		Env: tools.CallEnv{
			Workspace:     binding.Workspace,
			EnsureScratch: func() (string, error) { return c.sessions.EnsureScratch(context.WithoutCancel(ctx), req.SessionID) },
			DefaultShell:  settings.DefaultCommandShell,
			Pin:           req.Shell,
			ToolCallID:    req.ToolCallID,
			Emit:          c.emit,
			SessionExists: func() bool { _, err := c.sessions.Get(context.WithoutCancel(ctx), req.SessionID); return err == nil },
			SpillSeq:      &c.spillSeq,
			ExtraEnv:      worktreeEnv,
			Environ:       func() []string { return c.commandEnviron(settings) },
		},
	}
	in.PermissionMode, in.Temporary = mode, binding.Temporary
	if req.PermissionOverride != "" {
		in.SessionMode = permission.Effective("", binding.Session.PermissionMode, settings.DefaultPermissionMode)
	}
	prechecked := false
	if spec.Shape != tools.NoPath {
		r, seen, err := resolver.ResolveTarget(spelling)
		if explicit && skillRetry(r, err) {
			if sr, res, ok := c.withSkillRoots(ctx, binding, settings.InlineVisualizations, spelling); ok {
				resolver, call.Resolver, r, seen, err = sr, sr, res, pathguard.Target{}, nil
			}
		}
		if err != nil {
			return tools.Failure(err)
		}
		call.Target = &r
		st.row.PathRoot = string(r.Root)
		st.row.ExternalPath = r.Root == pathguard.External
		if explicit {
			in.Lexical, in.Real = permission.PathClass(lexicalRoot(r, binding.Temporary)), permission.PathClass(r.Root)
		}
		if spec.Mutates {
			in.Protected = protectedChange(tool, args, resolver, r, call)
		}
		// A call that would fail anyway must not cost the user a card. A
		// target that is external, or that a link carried out of the root
		// its spelling names (scratch into the workspace), is only probed
		// once policy has allowed it: its refusal must come first, and no
		// fact about it may reach the model before.
		// A skill folder's refusal (read-only) comes first too.
		if r.Root != pathguard.External && r.Root != pathguard.Skill && lexicalRoot(r, binding.Temporary) == r.Root {
			// Fresh: r was resolved just above (and seen is what that saw of
			// it), and the target is resolved again right before the tool
			// runs.
			if err := precheck(tool, spec, call, &seen); err != nil {
				return tools.Failure(err)
			}
			prechecked = true
		}
	}
	in.Granted = c.broker.Granted(req.SessionID, spec.Name)
	if in.Protected != permission.NotProtected {
		in.ProtectedGranted = c.broker.Granted(req.SessionID, permission.ProtectedGrant(spec.Name, in.Protected, call.Target.Root == pathguard.External))
	}
	verdict := permission.Evaluate(in)
	if spec.Class == permission.ClassExec {
		// Command rules: a deny rule refuses in every mode; rules allowing
		// every command spare the card; its writes are judged as Writes.
		command, err := commandOf(fields)
		if err != nil {
			return tools.Failure(err)
		}
		cc, err := c.checkCommand(ctx, req, command, binding, resolver, in, settings)
		if err != nil {
			return tools.Failure(err)
		}
		st.command = cc
		if err := cc.res.DenyError(); err != nil {
			st.row.Decision = decisionDeny
			return tools.Failure(err)
		}
		if verdict, err = cc.decide(verdict, in.Granted); err != nil {
			st.row.Decision = decisionDeny
			return tools.Failure(err)
		}
	}
	switch verdict.Decision {
	case permission.Deny:
		st.row.Decision = decisionDeny
		return tools.Failure(verdictError(verdict))
	case permission.Ask:
		if res, ok := c.approve(ctx, req, tool, binding, call, verdict, settings, st); !ok {
			return res
		}
	default:
		st.row.Decision = decisionAllow
		if in.Granted || in.ProtectedGranted {
			in.Granted, in.ProtectedGranted = false, false
			if permission.Evaluate(in).Decision == permission.Ask {
				st.row.Decision = decisionGranted
			}
		}
		st.allowedBy = allowedBy(in, st)
	}
	if call.Target != nil && !prechecked {
		if err := precheck(tool, spec, call, nil); err != nil {
			return tools.Failure(err)
		}
	}
	lockKey := ""
	if call.Target != nil {
		lockKey = resolver.Key(*call.Target)
	}
	// A control tool may wait on the user for as long as they take: it
	// holds no admission slot meanwhile (it touches nothing to serialise).
	if !control {
		done, err := c.admission.admit(ctx, req.SessionID, []string{lockKey}, spec.Mutates)
		if err != nil {
			return tools.Failure(err)
		}
		defer done()
	}
	// A card may have been open a long time: an isolated delegate's
	// worktree is checked again before anything runs in it.
	if err := c.recheckDelegateRoot(req.SessionID, req.DelegationID); err != nil {
		return tools.Failure(err)
	}
	if call.Target != nil {
		// Canonicalise again right before running: an approval never skips
		// resolution, and a link swapped in meanwhile must not redirect us.
		again, err := resolver.Resolve(spelling)
		if err != nil {
			return tools.Failure(err)
		}
		if again.Root != call.Target.Root || again.Abs != call.Target.Abs {
			return tools.Failure(errs.New(errs.PathOutsideWorkspace, "%s now leads somewhere else than when the call was checked; nothing was done. Retry the call", clip(spelling)).With("field", spec.PathArg))
		}
		call.Target = &again
	}
	// A command that can change no file needs no snapshot around it.
	snapshots := st.command == nil || !st.command.res.ReadOnly()
	if snapshots {
		c.checkpointBefore(ctx, req, spec, binding)
	}
	if s, ok := req.Turn.(tools.RunStarter); ok && st.carded {
		s.RunStarted(ctx, st.waitDur) // the row's run time starts now, not at the card
	}
	res := c.run(ctx, tool, spec, call, st)
	c.recordArtifacts(ctx, req, res)
	if snapshots {
		c.checkpointAfter(ctx, req, spec, binding, call, res)
	}
	st.note(*call.Outcome)
	// Images become stored references before anything records the result:
	// its bytes never reach the audit row, the database or an event. Under
	// the call's own context, so a Stop cuts the preparation short.
	return c.storeImages(ctx, res)
}

// needsRoots reports whether a call needs the session's roots resolved. A
// control tool does not, nor an MCP tool: it names no path and its server
// already runs, so the app's servers stay usable in a session whose
// project folder is gone (as their catalog does), and a call does not pay
// the roots' file-system checks (issue #15). Every other tool resolves
// them, and fails closed on a missing workspace.
func needsRoots(spec tools.Spec, control bool) bool {
	if control {
		return false
	}
	return spec.Class != permission.ClassMCP || spec.Shape != tools.NoPath || spec.PathArg != ""
}

// note records what a tool reported of its own outcome: a decision the
// user made in it (asktool, a proposal) or a refusal of its own, and the
// time the user took, which is not the tool's run time.
func (st *callState) note(o tools.Outcome) {
	if o.Decision != "" {
		st.row.Decision, st.settled = o.Decision, true
	}
	st.row.Prompted = st.row.Prompted || o.Prompted
	st.waitDur += o.Wait
	st.bodyDur -= o.Wait
	if o.Path != "" {
		st.row.PathRoot = string(pathguard.Workspace)
	}
}

// allowedBy names what let an allowed call run without the card ask mode
// would have shown: an earlier allow-for-session answer, the command
// rules, or the permission mode; "" when no card was due anyway (a Read).
func allowedBy(in permission.Input, st *callState) string {
	switch {
	case st.row.Decision == decisionGranted:
		return tools.ApprovedBySession
	case st.command != nil && st.command.byRules:
		return tools.ApprovedByRule
	}
	in.PermissionMode, in.SessionMode = api.PermissionAsk, ""
	in.Granted, in.ProtectedGranted = false, false
	if permission.Evaluate(in).Decision == permission.Ask {
		return tools.ApprovedByMode
	}
	return ""
}

// approval is the result's account of the call's permission for the
// window (nil when nothing needed allowing).
func (st *callState) approval() *tools.Approval {
	by := st.allowedBy
	if st.carded {
		by = tools.ApprovedByUser
	}
	if by == "" {
		return nil
	}
	a := &tools.Approval{By: by, Mode: st.row.PermissionMode}
	if st.carded {
		a.WaitMs = st.waitDur.Milliseconds()
	}
	if st.command != nil {
		switch {
		case st.command.saved != nil:
			a.Rules = []string{st.command.saved.String()}
		case by == tools.ApprovedByRule:
			a.Rules = st.command.matched()
		}
	}
	return a
}

// verdictError is a policy denial as the model receives it.
func verdictError(v permission.Verdict) error {
	e := errs.New(v.Code, "%s", v.Reason)
	for k, val := range v.Details {
		e = e.With(k, val)
	}
	return e
}

// editScope keys the edit snapshot store and guard: a delegate run gets its
// own (edit-contract §2: subagents get their own store), so two delegates
// of one definition never share snapshots.
func editScope(req ToolRequest) string {
	switch {
	case req.DelegationID != "":
		return req.SessionID + "\x00" + req.DelegationID
	case req.Delegate != "":
		return req.SessionID + "\x00" + req.Delegate
	}
	return req.SessionID
}

// approve shows a card and waits. ok=false means the call must not run and
// res says why.
func (c *Core) approve(ctx context.Context, req ToolRequest, tool tools.Tool, b session.Binding, call *tools.Call,
	v permission.Verdict, settings api.Settings, st *callState) (res tools.Result, ok bool) {
	spec := tool.Spec()
	card := permission.Request{
		ID: req.SessionID + "/" + req.ToolCallID, SessionID: req.SessionID, TurnID: req.TurnID, ToolCallID: req.ToolCallID,
		Tool: spec.Name, Risk: spec.Risk, Reason: v.Reason, Preview: audit.Preview(req.Args), External: v.External,
		Workspace: b.Workspace, Delegate: req.Delegate, Grant: v.Grant, Protected: v.Protected(),
	}
	if p, ok := tool.(pluginOrigin); ok {
		id, name, own := p.Plugin()
		card.Reason = fmt.Sprintf("%s: %q of the plugin %q (%s)", v.Reason, own, name, id)
	}
	if m, ok := tool.(tools.MCPOrigin); ok {
		info := m.MCPInfo()
		card.Server, card.ServerTool, card.ToolTitle = info.Server, info.Tool, info.Title
	}
	if st.command != nil {
		card.Command, card.RuleChoices = st.command.effect(), st.command.choices
	}
	if call.Target != nil {
		card.Path = call.Target.Abs
		// What the change would do, computed read-only through the same
		// resolver; whatever it finds, the run below decides as before. An
		// external target is not touched at all before it is allowed.
		if p, ok := tool.(tools.Previewer); ok {
			if v.External {
				card.DiffNote = "outside the session's folders: not read before you allow it, so no preview"
			} else {
				d := p.Preview(ctx, call)
				card.Diff, card.DiffNote = d.Diff, d.Note
			}
		}
	}
	st.row.Prompted, st.carded = true, true
	waitStart := time.Now()
	if w, ok := req.Turn.(tools.ApprovalWaiter); ok {
		w.WaitingForApproval(true) // a delegate's row says it waits for the user
	}
	answer := c.broker.AskAnswer(ctx, card, time.Duration(settings.PermissionTimeoutSeconds)*time.Second)
	if w, ok := req.Turn.(tools.ApprovalWaiter); ok {
		w.WaitingForApproval(false)
	}
	st.waitDur = time.Since(waitStart)
	switch outcome := answer.Outcome; outcome {
	case permission.AllowOnce, permission.AllowSession:
		st.row.Decision = string(outcome)
		return tools.Result{}, true
	case permission.AllowRule:
		st.row.Decision = string(outcome)
		if st.command == nil {
			return tools.Failure(errs.New(errs.InvalidArgument, "%s has no command rules to save; nothing was run", spec.Name)), false
		}
		if err := c.saveChoice(ctx, st.command, answer.Choice); err != nil {
			// Not run: the audit row must not say it was allowed.
			st.row.Decision = decisionDeny
			return tools.Failure(err), false
		}
		return tools.Result{}, true
	case permission.TimedOut:
		st.row.Decision = decisionTimeout
		return tools.Failure(errs.New(errs.PermissionTimeout, "user denied permission: the approval for %s timed out, so it did not run", spec.Name)), false
	case permission.Cancelled:
		st.row.Decision = decisionCancelled
		return tools.Failure(errs.New(errs.ToolAborted, "permission was not granted: %s was stopped while its approval was pending, so it did not run", spec.Name)), false
	case permission.Shutdown:
		st.row.Decision = decisionShutdown
		return tools.Failure(errs.New(errs.ToolAborted, "PI-Desktop is shutting down; %s did not run", spec.Name)), false
	default:
		st.row.Decision = decisionDenied
		return tools.Failure(errs.New(errs.ToolDenied, "user denied permission for %s; do not retry it unchanged, ask the user how to proceed", spec.Name)), false
	}
}

// run executes the tool body under its timeout. Read-only tools are
// abandoned on Stop or timeout (they change nothing); a mutation that has
// started is always waited for, so a Stop can never hide a write.
func (c *Core) run(ctx context.Context, tool tools.Tool, spec tools.Spec, call *tools.Call, st *callState) tools.Result {
	if spec.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, spec.Timeout)
		defer cancel()
	}
	start := time.Now()
	defer func() { st.bodyDur = time.Since(start) }()
	// A mutation that has started, and a command (which stops its own process
	// tree and returns what it printed), is always waited for: a Stop can
	// never hide a write or leave a process behind. Commands bound their own
	// output (decisions.md: 96 KB per stream).
	// The runtime's own tools honour ctx themselves (a question is skipped,
	// a proposal cancelled) and report that as their result.
	switch {
	case spec.Class == permission.ClassExec || spec.Class.Control():
		return tool.Run(ctx, call)
	case spec.Class == permission.ClassMCP || spec.Class == permission.ClassPlugin:
		// A started MCP or plugin call is waited for (spec §3): a Stop sends
		// notifications/cancelled and the call returns once the SDK has.
		// The tool bounds and spills its own result.
		return tools.Bound(tool.Run(ctx, call))
	case spec.Mutates:
		return tools.Bound(tool.Run(ctx, call))
	}
	out := make(chan tools.Result, 1)
	go func() { out <- tool.Run(ctx, call) }()
	select {
	case res := <-out:
		return tools.Bound(res)
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return tools.Failure(timedOut(spec))
		}
		return tools.Failure(errs.New(errs.ToolAborted, "%s was stopped", spec.Name))
	}
}

// timedOut is a read-class call's TOOL_TIMEOUT, naming the tool's own next
// step.
func timedOut(spec tools.Spec) error {
	hint := spec.TimeoutHint
	if hint == "" {
		hint = "narrow the path or pattern and retry"
	}
	return errs.New(errs.ToolTimeout, "%s did not finish within %s; %s", spec.Name, spec.Timeout, hint).With("timeoutMs", spec.Timeout.Milliseconds())
}

// pathArgument returns the call's path spelling and whether the model gave
// it explicitly (an implicit default is the workspace root).
func pathArgument(spec tools.Spec, fields map[string]any) (string, bool, error) {
	if spec.PathArg == "" {
		return "", false, nil
	}
	p, _ := fields[spec.PathArg].(string)
	if strings.TrimSpace(p) == "" {
		if spec.DefaultPath != "" {
			return spec.DefaultPath, false, nil
		}
		return "", false, errs.New(errs.InvalidArgument, "%s needs a non-empty %s", spec.Name, spec.PathArg).With("field", spec.PathArg)
	}
	return p, true, nil
}

// precheck runs the path-shape check and the tool's own cheap checks.
// fresh, when set: call.Target was resolved just before with nothing in
// between, and fresh is what that resolution saw of it (see
// pathguard.Resolver.StatFresh and ResolveTarget).
func precheck(tool tools.Tool, spec tools.Spec, call *tools.Call, fresh *pathguard.Target) error {
	if err := checkShape(call.Resolver, *call.Target, spec.Shape, fresh); err != nil {
		return err
	}
	if p, ok := tool.(tools.Prechecker); ok {
		return p.Precheck(call)
	}
	return nil
}

// clip bounds text echoed from a request into a message.
func clip(s string) string {
	return truncate.BytesEllipsis(s, 300)
}

// checkShape enforces each tool's path shape (spec §4).
func checkShape(r *pathguard.Resolver, t pathguard.Resolved, shape tools.PathShape, fresh *pathguard.Target) error {
	shown := clip(tools.DisplayPath(t))
	var fi fs.FileInfo
	var err error
	switch {
	case fresh != nil && fresh.Missing:
		err = fs.ErrNotExist
	case fresh != nil && fresh.Info != nil:
		fi = fresh.Info // an Lstat of an entry that is no link: as Stat would say
	case fresh != nil:
		fi, err = r.StatFresh(t)
	default:
		fi, err = r.Stat(t)
	}
	if errors.Is(err, fs.ErrNotExist) {
		if shape == tools.WritableFile {
			return nil
		}
		return errs.New(errs.NotFound, "%s does not exist; use Glob to find the right path", shown).With("field", "path")
	}
	if err != nil {
		return err
	}
	switch shape {
	case tools.ExistingFile:
		if fi.IsDir() {
			return errs.New(errs.InvalidArgument, "%s is a directory; list it with Glob instead", shown).
				With("field", "path").With("suggestion", map[string]any{"tool": "Glob", "args": map[string]any{"path": shown, "pattern": "*"}})
		}
		if !fi.Mode().IsRegular() {
			return errs.New(errs.InvalidArgument, "%s is not a regular file", shown).With("field", "path")
		}
	case tools.Directory:
		if !fi.IsDir() {
			return errs.New(errs.InvalidArgument, "%s is a file; Glob searches a directory: pass its folder, or Read the file", shown).With("field", "path")
		}
	case tools.FileOrDir:
		if !fi.IsDir() && !fi.Mode().IsRegular() {
			return errs.New(errs.InvalidArgument, "%s is neither a file nor a directory", shown).With("field", "path")
		}
	}
	return nil
}

func (c *Core) resolverFor(ctx context.Context, b session.Binding, viz bool) (*pathguard.Resolver, error) {
	if b.Temporary {
		// A temporary session's workspace is its scratch folder, created on
		// first use.
		if _, err := c.sessions.EnsureScratch(ctx, b.Session.ID); err != nil {
			return nil, err
		}
	}
	roots := pathguard.Roots{Workspace: b.Workspace, Scratch: b.Scratch, Data: c.protectedData()}
	if viz {
		roots.Visualization = b.Visualization
	}
	r, err := pathguard.New(roots, pathguard.Options{Roots: &c.roots})
	if err != nil {
		if errs.As(err) != nil {
			return nil, err
		}
		return nil, errs.Wrap(err, errs.NotFound, "the session's workspace %s cannot be opened; it may have been moved or deleted", b.Workspace)
	}
	return r, nil
}

func newTraceID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
