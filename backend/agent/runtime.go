package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// The runtime-owned tools (spec §2, §3, §10.1). The agent runs them itself:
// they change no file (except the Plan/Goal artifact, written through
// Host.WriteArtifact), run no command and never reach Execute, but every
// call, refusals included, is audited through Host.Audit.

// Events of the runtime-owned tools.
const (
	EventTodos    = "agent:todos"    // TodosEvent: the checklist was replaced
	EventQuestion = "agent:question" // QuestionEvent: asked (pending), then answered or skipped
	EventProposal = "agent:proposal" // Proposal: pending, then approved, rejected or cancelled
	EventMode     = "agent:mode"     // ModeEvent: a runtime tool or an approval switched the mode
)

// ModeEvent reports an operating-mode switch made by the runtime.
type ModeEvent struct {
	SessionID      string `json:"sessionId"`
	TurnID         string `json:"turnId"`
	OperatingMode  string `json:"operatingMode"`
	PermissionMode string `json:"permissionMode,omitempty"` // set on approval
	Reason         string `json:"reason"`                   // the tool (EnterPlanMode, …) or "approved"
}

// RuntimeToolNames lists the runtime-owned tools visible in mode, in the
// order the model sees them (after the builtin ones); ToolSearch comes last
// when the mode's on-demand catalog is not empty. As with ToolNames the
// list is guidance: a direct call of a hidden one is refused all the same.
func RuntimeToolNames(mode string, onDemand bool) []string {
	var names []string
	switch mode {
	case api.ModePlan:
		names = []string{ToolSubmitPlan, ToolAsk, ToolNewContext}
	case api.ModeGoal:
		names = []string{ToolSubmitGoal, ToolAsk, ToolNewContext}
	default:
		names = []string{ToolTodoWrite, ToolAsk, ToolNewContext, ToolEnterPlanMode, ToolEnterGoalMode}
	}
	if onDemand {
		names = append(names, ToolSearch)
	}
	return names
}

func isRuntimeTool(name string) bool {
	_, ok := runtimeSpecs[name]
	return ok
}

// exclusiveTool reports whether a tool must be the only call of its
// assistant batch (spec §10.1).
func exclusiveTool(name string) bool {
	switch name {
	case ToolEnterPlanMode, ToolEnterGoalMode, ToolSubmitPlan, ToolSubmitGoal:
		return true
	}
	return false
}

// runtimeTools are the schemas of the runtime-owned tools visible in mode.
func (a *Agent) runtimeTools(mode string, onDemand bool) []provider.ToolDef {
	var out []provider.ToolDef
	for _, n := range RuntimeToolNames(mode, onDemand) {
		out = append(out, runtimeSpecs[n])
	}
	return out
}

const noParams = `{"type":"object","properties":{},"additionalProperties":false}`

func submitSpec(name, kind, what string) provider.ToolDef {
	return provider.ToolDef{Name: name,
		Description: fmt.Sprintf("Submit the finished %s for the user's approval. Call it alone in its response, once your investigation is done. "+
			"The Markdown is saved byte for byte as a new .pi/%s/*.md file in the workspace and shown to the user, who approves it "+
			"(the session switches to Agent mode and you then %s) or rejects it with feedback (you stay in this mode and revise).", kind, kind, what),
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"title":{"type":"string","description":"A short title (also names the file)."},` +
			`"markdown":{"type":"string","description":"The complete document in Markdown."},` +
			`"question":{"type":"string","description":"The question shown with the approval buttons, e.g. \"Proceed with this ` + kind + `?\""}},` +
			`"required":["title","markdown"],"additionalProperties":false}`)}
}

var runtimeSpecs = map[string]provider.ToolDef{
	ToolTodoWrite: {Name: ToolTodoWrite,
		Description: "Replace the session's checklist with the complete, ordered list of todos. Use it for work with several steps: " +
			"write the list when you start, and send the whole list again whenever a step starts or finishes. " +
			"Keep exactly one item in_progress while you work (never more than one); mark an item completed as soon as it is done.",
		Schema: json.RawMessage(`{"type":"object","properties":{"todos":{"type":"array","description":"The whole checklist, in order; it replaces the previous one.",` +
			`"items":{"type":"object","properties":{` +
			`"content":{"type":"string","description":"The step, in the imperative (\"Run the tests\")."},` +
			`"status":{"type":"string","enum":["pending","in_progress","completed"]},` +
			`"activeForm":{"type":"string","description":"The step as shown while it runs (\"Running the tests\")."}},` +
			`"required":["content","status"],"additionalProperties":false}}},"required":["todos"],"additionalProperties":false}`)},
	ToolAsk: {Name: ToolAsk,
		Description: "Ask the user one or more questions and wait for the answers. Use it when a decision is theirs (a choice between approaches, " +
			"missing requirements), not for things you can find out with the tools. Offer options where the answers are predictable; " +
			"the user may also type a free answer. The result lists each question with the selected option labels and any text; " +
			"a skipped question has empty fields.",
		Schema: json.RawMessage(`{"type":"object","properties":{"questions":{"type":"array","minItems":1,"maxItems":8,"items":{"type":"object","properties":{` +
			`"question":{"type":"string"},` +
			`"options":{"type":"array","maxItems":12,"items":{"anyOf":[{"type":"string"},{"type":"object","properties":{"label":{"type":"string"},"description":{"type":"string"}},"required":["label"],"additionalProperties":false}]}},` +
			`"multiSelect":{"type":"boolean","description":"Allow choosing several options."}},` +
			`"required":["question"],"additionalProperties":false}}},"required":["questions"],"additionalProperties":false}`)},
	ToolNewContext: {Name: ToolNewContext,
		Description: "Start a new context window at the next turn boundary: the conversation so far is summarized (the user's messages are kept) " +
			"before your next step. Use it when the context is long and mostly finished work. Takes no parameters and changes nothing in the workspace.",
		Schema: json.RawMessage(noParams)},
	ToolEnterPlanMode: {Name: ToolEnterPlanMode,
		Description: "Switch this session to Plan mode to investigate and write a plan for the user's approval before changing anything. " +
			"Call it alone in its response. In Plan mode Write and Edit are refused; you finish with SubmitPlan.",
		Schema: json.RawMessage(noParams)},
	ToolEnterGoalMode: {Name: ToolEnterGoalMode,
		Description: "Switch this session to Goal mode to agree a goal and its acceptance criteria with the user before changing anything. " +
			"Call it alone in its response. In Goal mode Write and Edit are refused; you finish with SubmitGoal.",
		Schema: json.RawMessage(noParams)},
	ToolSubmitPlan: submitSpec(ToolSubmitPlan, api.ModePlan, "carry out the plan"),
	ToolSubmitGoal: submitSpec(ToolSubmitGoal, api.ModeGoal, "work until every acceptance criterion is reached and verified"),
	ToolSearch:     toolSearchSpec,
}

// rtCall is what the audit row of a runtime call needs beside its result.
type rtCall struct {
	mode     string
	decision string
	prompted bool
	wait     time.Duration
	path     string
}

// execRuntime runs one runtime-owned tool call and audits it.
func (r *run) execRuntime(ctx context.Context, c *prepared) tools.Result {
	start := time.Now()
	var m rtCall
	res := r.runtimeCall(ctx, c, &m)
	if m.decision == "" && res.Code != errs.InvalidArgument {
		m.decision = "allow"
	}
	r.audit(ctx, c, m, res, time.Since(start))
	return res
}

func (r *run) audit(ctx context.Context, c *prepared, m rtCall, res tools.Result, total time.Duration) {
	r.a.host.Audit(context.WithoutCancel(ctx), AuditRecord{SessionID: r.sessionID, TurnID: r.turnID, ToolCallID: c.id, Tool: c.tool,
		Args: c.args, OperatingMode: m.mode, Decision: m.decision, Prompted: m.prompted, Wait: m.wait, Duration: total,
		OK: res.OK, ErrorCode: res.Code, Path: m.path})
}

func deny(m *rtCall, err error) tools.Result {
	m.decision = "deny"
	return tools.Failure(err)
}

func (r *run) runtimeCall(ctx context.Context, c *prepared, m *rtCall) tools.Result {
	// The durable mode decides, not the one the turn started with.
	info, err := r.a.host.Binding(ctx, r.sessionID)
	if err != nil {
		return tools.Failure(err)
	}
	m.mode = info.OperatingMode
	switch c.tool {
	case ToolTodoWrite:
		if m.mode != api.ModeAgent {
			return deny(m, errs.New(errs.ToolDisabledInPlan, "TodoWrite keeps the Agent checklist and is not available in %s mode; put the steps in the document you submit instead", modeName(m.mode)))
		}
		return r.todoWrite(ctx, c)
	case ToolAsk:
		return r.ask(ctx, c, m)
	case ToolNewContext:
		if _, err := object(c.args, "", ToolNewContext); err != nil {
			return tools.Failure(err)
		}
		r.a.RequestCompaction(r.sessionID)
		return tools.Result{OK: true, Content: "A new context window starts at the next turn boundary: before your next step the conversation so far " +
			"is summarized into a checkpoint and the user's messages are kept. Nothing in the workspace or the session's settings changed. " +
			"Continue the task afterwards."}
	case ToolEnterPlanMode, ToolEnterGoalMode:
		return r.enterMode(ctx, c, m)
	case ToolSubmitPlan, ToolSubmitGoal:
		return r.submit(ctx, c, m)
	case ToolSearch:
		return r.toolSearch(c, m)
	}
	return tools.Failure(errs.New(errs.ToolNotFound, "there is no runtime tool named %q", c.tool))
}

// refresh re-reads the session after a mode switch and rebuilds the system
// prompt, the on-demand catalog (loaded tools the new mode lacks are
// dropped) and the tool list of the next request. The shell stays pinned.
func (r *run) refresh(ctx context.Context) error {
	info, err := r.a.host.Binding(ctx, r.sessionID)
	if err != nil {
		return err
	}
	info.ShellID, info.ShellDialect = r.info.ShellID, r.info.ShellDialect
	r.info = info
	r.setCatalog(r.a.host.Deferred(info.OperatingMode))
	r.system = BuildPrompt(PromptInput{Info: info, Instructions: r.instructions, Today: r.a.now(), OnDemand: r.catalog})
	r.buildTools()
	return nil
}

// ---- TodoWrite ----

// Todo statuses.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoCompleted  = "completed"
)

// Todo is one checklist item.
type Todo struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm,omitempty"`
}

// TodosEvent carries a session's new checklist.
type TodosEvent struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	Todos     []Todo `json:"todos"`
}

const (
	maxTodos       = 100
	maxTodoChars   = 1000
	maxQuestions   = 8
	maxOptions     = 12
	maxQuestionLen = 2000
	maxLabelLen    = 200
	maxDescLen     = 1000
	maxAnswerLen   = 8000
)

// ParseTodos validates TodoWrite's arguments: the whole ordered checklist,
// each item with content and a status, at most one in progress.
func ParseTodos(args json.RawMessage) ([]Todo, error) {
	obj, err := object(args, "", "TodoWrite's arguments", "todos")
	if err != nil {
		return nil, err
	}
	items, err := array(obj, "", "todos", true, 0, maxTodos)
	if err != nil {
		return nil, err
	}
	todos := make([]Todo, 0, len(items))
	active := -1
	for i, raw := range items {
		p := index("todos", i)
		it, err := object(raw, p, p, "content", "status", "activeForm")
		if err != nil {
			return nil, err
		}
		var t Todo
		if t.Content, err = str(it, p, "content", true, maxTodoChars); err != nil {
			return nil, err
		}
		if t.Status, err = str(it, p, "status", true, 0); err != nil {
			return nil, err
		}
		switch t.Status {
		case TodoPending, TodoCompleted:
		case TodoInProgress:
			if active >= 0 {
				return nil, invalid(p+".status", "todos[%d] and todos[%d] are both in_progress; keep exactly one item in_progress and the others pending or completed", active, i)
			}
			active = i
		default:
			return nil, invalid(p+".status", "%s.status must be pending, in_progress or completed, not %q", p, t.Status)
		}
		if t.ActiveForm, err = str(it, p, "activeForm", false, maxTodoChars); err != nil {
			return nil, err
		}
		todos = append(todos, t)
	}
	return todos, nil
}

func (r *run) todoWrite(ctx context.Context, c *prepared) tools.Result {
	todos, err := ParseTodos(c.args)
	if err != nil {
		return tools.Failure(err)
	}
	if err := r.a.st.saveTodos(context.WithoutCancel(ctx), r.sessionID, r.turnID, c.id, todos, r.a.now().UnixMilli()); err != nil {
		return tools.Failure(err)
	}
	r.a.emit(EventTodos, TodosEvent{SessionID: r.sessionID, TurnID: r.turnID, Todos: todos})
	var b strings.Builder
	counts := map[string]int{}
	for _, t := range todos {
		counts[t.Status]++
	}
	fmt.Fprintf(&b, "The checklist now has %d item(s): %d completed, %d in progress, %d pending.", len(todos),
		counts[TodoCompleted], counts[TodoInProgress], counts[TodoPending])
	for i, t := range todos {
		mark := map[string]string{TodoPending: "[ ]", TodoInProgress: "[~]", TodoCompleted: "[x]"}[t.Status]
		fmt.Fprintf(&b, "\n%d. %s %s", i+1, mark, t.Content)
	}
	return tools.Result{OK: true, Content: b.String(), Fields: map[string]any{"todos": todos}}
}

// Todos returns a session's checklist as the last TodoWrite left it (empty
// when there is none), for the UI to restore.
func (a *Agent) Todos(ctx context.Context, sessionID string) ([]Todo, error) {
	return a.st.loadTodos(ctx, sessionID)
}

// ---- Enter*Mode ----

func (r *run) enterMode(ctx context.Context, c *prepared, m *rtCall) tools.Result {
	target, submit := api.ModePlan, ToolSubmitPlan
	if c.tool == ToolEnterGoalMode {
		target, submit = api.ModeGoal, ToolSubmitGoal
	}
	if _, err := object(c.args, "", c.tool); err != nil {
		return tools.Failure(err)
	}
	if m.mode != api.ModeAgent {
		return deny(m, errs.New(errs.ToolDisabledInPlan, "%s is available only in Agent mode and the session is in %s mode already; finish with %s",
			c.tool, modeName(m.mode), map[string]string{api.ModePlan: ToolSubmitPlan, api.ModeGoal: ToolSubmitGoal}[m.mode]))
	}
	if err := r.a.host.Configure(context.WithoutCancel(ctx), r.sessionID, ModeChange{From: api.ModeAgent, To: target}); err != nil {
		return deny(m, err)
	}
	r.modeChanged = true
	r.a.emit(EventMode, ModeEvent{SessionID: r.sessionID, TurnID: r.turnID, OperatingMode: target, Reason: c.tool})
	what := "investigate and write a plan"
	if target == api.ModeGoal {
		what = "define the goal and its verifiable acceptance criteria"
	}
	return tools.Result{OK: true, Content: fmt.Sprintf("The session is now in %s mode. %s with Read, Glob, Grep and read-only Bash commands; "+
		"Write and Edit are refused in this mode. When it is ready, call %s alone in its response with a title, the document as Markdown "+
		"and the question for the user. The user approves it (you then continue in Agent mode) or replies with feedback.",
		modeName(target), upperFirst(what), submit)}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
