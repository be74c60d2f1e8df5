package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// The runtime's own tools (spec §2, §3, §10.1): they act on the running
// agent turn through Call.Turn and change no file (except the Plan/Goal
// artifact). They go through Execute like every other tool, so policy,
// audit and the operating-mode matrix treat them the same way.

// Names of the runtime tools.
const (
	TodoWrite     = "TodoWrite"
	AskTool       = "asktool"
	NewContext    = "new_context"
	EnterPlanMode = "EnterPlanMode"
	EnterGoalMode = "EnterGoalMode"
	SubmitPlan    = "SubmitPlan"
	SubmitGoal    = "SubmitGoal"
	ToolSearch    = "ToolSearch"
)

// Runtime returns the runtime tools in the order a mode offers them, after
// the builtin ones: each mode shows the ones its policy allows.
func Runtime() []Tool {
	return []Tool{
		submitTool{kind: api.ModePlan, name: SubmitPlan, what: "carry out the plan"},
		submitTool{kind: api.ModeGoal, name: SubmitGoal, what: "work until every acceptance criterion is reached and verified"},
		todoTool{}, askTool{}, newContextTool{},
		enterTool{mode: api.ModePlan, name: EnterPlanMode, finish: SubmitPlan},
		enterTool{mode: api.ModeGoal, name: EnterGoalMode, finish: SubmitGoal},
		toolSearchTool{},
	}
}

// ArgChecker is implemented by tools whose arguments need more than their
// schema says (one item in progress, unique labels, bounded text): the
// registry checks them with it instead of the schema, and its refusals
// name the item ("todos[2].status").
type ArgChecker interface {
	CheckArgs(args json.RawMessage) error
}

// noTurn refuses a runtime tool called outside an agent turn (the CLI).
func noTurn(name string) Result {
	return Failure(errs.New(errs.ToolNotFound, "%s acts on a running agent turn and cannot be called on its own", name).With("tool", name))
}

const noParams = `{"type":"object","properties":{},"additionalProperties":false}`

func controlSpec(name string, class permission.Class, modes ...string) Spec {
	return Spec{Name: name, Class: class, Risk: permission.Low, Modes: modes}
}

type todoTool struct{}

func (todoTool) Spec() Spec {
	s := controlSpec(TodoWrite, permission.ClassChecklist, api.ModeAgent)
	s.Description = "Replace the session's checklist with the complete, ordered list of todos. Use it for work with several steps: " +
		"write the list when you start, and send the whole list again whenever a step starts or finishes. " +
		"Keep exactly one item in_progress while you work (never more than one); mark an item completed as soon as it is done."
	s.Schema = json.RawMessage(`{"type":"object","properties":{"todos":{"type":"array","description":"The whole checklist, in order; it replaces the previous one.",` +
		`"items":{"type":"object","properties":{` +
		`"content":{"type":"string","description":"The step, in the imperative (\"Run the tests\")."},` +
		`"status":{"type":"string","enum":["pending","in_progress","completed"]},` +
		`"activeForm":{"type":"string","description":"The step as shown while it runs (\"Running the tests\")."}},` +
		`"required":["content","status"],"additionalProperties":false}}},"required":["todos"],"additionalProperties":false}`)
	return s
}

func (todoTool) CheckArgs(args json.RawMessage) error { return checkTodos(args) }

func (todoTool) Run(ctx context.Context, c *Call) Result {
	if c.Turn == nil {
		return noTurn(TodoWrite)
	}
	return c.Turn.SaveTodos(ctx, c)
}

type askTool struct{}

func (askTool) Spec() Spec {
	s := controlSpec(AskTool, permission.ClassControl)
	s.Description = "Ask the user one or more questions and wait for the answers. Use it when a decision is theirs (a choice between approaches, " +
		"missing requirements), not for things you can find out with the tools. Offer options where the answers are predictable; " +
		"the user may also type a free answer. The result lists each question with the selected option labels and any text; " +
		"a skipped question has empty fields."
	s.Schema = json.RawMessage(`{"type":"object","properties":{"questions":{"type":"array","minItems":1,"maxItems":8,"items":{"type":"object","properties":{` +
		`"question":{"type":"string"},` +
		`"options":{"type":"array","maxItems":12,"items":{"anyOf":[{"type":"string"},{"type":"object","properties":{"label":{"type":"string"},"description":{"type":"string"}},"required":["label"],"additionalProperties":false}]}},` +
		`"multiSelect":{"type":"boolean","description":"Allow choosing several options."}},` +
		`"required":["question"],"additionalProperties":false}}},"required":["questions"],"additionalProperties":false}`)
	return s
}

func (askTool) CheckArgs(args json.RawMessage) error { return checkQuestions(args) }

func (askTool) Run(ctx context.Context, c *Call) Result {
	if c.Turn == nil {
		return noTurn(AskTool)
	}
	return c.Turn.Ask(ctx, c)
}

type newContextTool struct{}

func (newContextTool) Spec() Spec {
	s := controlSpec(NewContext, permission.ClassControl)
	s.Description = "Start a new context window at the next turn boundary: the conversation so far is summarized (the user's messages are kept) " +
		"before your next step. Use it when the context is long and mostly finished work. Takes no parameters and changes nothing in the workspace."
	s.Schema = json.RawMessage(noParams)
	return s
}

func (newContextTool) CheckArgs(args json.RawMessage) error {
	_, err := object(args, "", NewContext)
	return err
}

func (newContextTool) Run(ctx context.Context, c *Call) Result {
	if c.Turn == nil {
		return noTurn(NewContext)
	}
	return c.Turn.RequestCompaction(ctx, c)
}

// enterTool switches Agent mode to a contract mode; it must be alone in
// its batch (mode switches happen at a batch boundary only).
type enterTool struct{ mode, name, finish string }

func (t enterTool) Spec() Spec {
	s := controlSpec(t.name, permission.ClassModeSwitch, api.ModeAgent)
	s.Exclusive = true
	if t.mode == api.ModePlan {
		s.Description = "Switch this session to Plan mode to investigate and write a plan for the user's approval before changing anything. " +
			"Call it alone in its response. In Plan mode Write and Edit are refused; you finish with SubmitPlan."
	} else {
		s.Description = "Switch this session to Goal mode to agree a goal and its acceptance criteria with the user before changing anything. " +
			"Call it alone in its response. In Goal mode Write and Edit are refused; you finish with SubmitGoal."
	}
	s.Schema = json.RawMessage(noParams)
	return s
}

func (t enterTool) CheckArgs(args json.RawMessage) error {
	_, err := object(args, "", t.name)
	return err
}

func (t enterTool) Run(ctx context.Context, c *Call) Result {
	if c.Turn == nil {
		return noTurn(t.name)
	}
	return c.Turn.EnterMode(ctx, c, t.mode)
}

// submitTool submits a contract mode's document; alone in its batch.
type submitTool struct{ kind, name, what string }

func (t submitTool) Spec() Spec {
	s := controlSpec(t.name, permission.ClassProposal, t.kind)
	s.Exclusive = true
	s.Description = fmt.Sprintf("Submit the finished %s for the user's approval. Call it alone in its response, once your investigation is done. "+
		"The Markdown is saved byte for byte as a new .pi/%s/*.md file in the workspace and shown to the user, who approves it "+
		"(the session switches to Agent mode and you then %s) or rejects it with feedback (you stay in this mode and revise).", t.kind, t.kind, t.what)
	s.Schema = json.RawMessage(`{"type":"object","properties":{` +
		`"title":{"type":"string","description":"A short title (also names the file)."},` +
		`"markdown":{"type":"string","description":"The complete document in Markdown."},` +
		`"question":{"type":"string","description":"The question shown with the approval buttons, e.g. \"Proceed with this ` + t.kind + `?\""}},` +
		`"required":["title","markdown"],"additionalProperties":false}`)
	return s
}

func (t submitTool) CheckArgs(args json.RawMessage) error { return checkSubmit(t.name, args) }

func (t submitTool) Run(ctx context.Context, c *Call) Result {
	if c.Turn == nil {
		return noTurn(t.name)
	}
	return c.Turn.Submit(ctx, c, t.kind)
}

// toolSearchTool loads on-demand tools: offered only where the mode's
// catalog is not empty (Loader).
type toolSearchTool struct{}

func (toolSearchTool) Spec() Spec {
	s := controlSpec(ToolSearch, permission.ClassControl)
	s.Loader = true
	s.Description = "Load on-demand tools: the ones listed under \"On-demand tools\" in the system prompt, which you cannot call until they are loaded. " +
		"query is an exact tool name, \"select:Name1,Name2\" for several names, or words for the capability you need " +
		"(matched against tool names and descriptions). The matching tools are added to your tools from your next response on, " +
		"not in this one. Loading a tool changes nothing else: the host still checks, may ask about and records every call."
	s.Schema = json.RawMessage(`{"type":"object","properties":{` +
		`"query":{"type":"string","description":"A tool name, select:Name1,Name2, or capability words."},` +
		`"limit":{"type":"integer","minimum":1,"maximum":10,"description":"At most this many matches for a capability query (default 5)."}},` +
		`"required":["query"],"additionalProperties":false}`)
	return s
}

func (toolSearchTool) CheckArgs(args json.RawMessage) error { return checkToolSearch(args) }

func (toolSearchTool) Run(ctx context.Context, c *Call) Result {
	if c.Turn == nil {
		return noTurn(ToolSearch)
	}
	return c.Turn.LoadTools(ctx, c)
}
