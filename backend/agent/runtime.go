package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// The runtime-owned tools (spec §2, §3, §10.1). Their specs live with the
// other tools (tools.Runtime) and Execute runs them like any other: policy,
// validation and the audit row are host-core's. They act on the running
// turn through callTurn (turn.go); they change no file except the Plan/Goal
// artifact, written through Host.WriteArtifact.

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
	r.setCatalog(r.a.host.Deferred(ctx, r.sessionID, info.OperatingMode))
	r.system = BuildPrompt(PromptInput{Info: info, Instructions: r.instructions, Today: r.a.now(), OnDemand: r.catalog,
		Subagents: r.a.subagentsFor(ctx, r.sessionID, info.OperatingMode), Skills: r.skillCatalog})
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

// maxAnswerLen bounds the text of one answer from the user.
const maxAnswerLen = 8000

// todoWrite replaces the checklist with the validated todos of args.
func (r *run) todoWrite(ctx context.Context, c *prepared, args json.RawMessage) tools.Result {
	var in struct {
		Todos []Todo `json:"todos"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return tools.Failure(errs.Wrap(err, errs.InvalidArgument, "TodoWrite's arguments do not decode"))
	}
	todos := in.Todos
	if todos == nil {
		todos = []Todo{}
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

// enterMode switches Agent mode to target (the policy offers Enter* in
// Agent mode only and refuses it elsewhere).
func (r *run) enterMode(ctx context.Context, c *prepared, target string, o *tools.Outcome) tools.Result {
	submit := map[string]string{api.ModePlan: ToolSubmitPlan, api.ModeGoal: ToolSubmitGoal}[target]
	if err := r.a.host.Configure(context.WithoutCancel(ctx), r.sessionID, ModeChange{From: api.ModeAgent, To: target}); err != nil {
		o.Decision = decisionDeny
		return tools.Failure(err)
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
		permission.ModeName(target), upperFirst(what), submit)}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
