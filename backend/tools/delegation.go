package tools

import (
	"context"
	"encoding/json"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// The delegation tools (issue 16, §10.2): Task starts a subagent's
// delegate, TaskWait collects reports, TaskList shows states, TaskStop
// stops one. They act on the running turn (Delegator) and are Agent-mode
// only. They are registered only when the host enables delegation.

// Names of the delegation tools.
const (
	Task     = "Task"
	TaskWait = "TaskWait"
	TaskList = "TaskList"
	TaskStop = "TaskStop"
)

// Delegator is a Turn that runs delegates: the delegation tools call it
// with their name.
type Delegator interface {
	Delegate(ctx context.Context, c *Call, tool string) Result
}

// Delegation returns the delegation tools, in the order a mode offers them.
func Delegation() []Tool {
	return []Tool{
		delegationTool{name: Task, description: "Start a delegate: a subagent (named in the system prompt's list) works on one task in its own " +
			"conversation with its own tools, in parallel with you. It returns at once with the delegation's id; call TaskWait for the report. " +
			"Several Task calls in one response start in parallel. Give the delegate everything it needs in prompt: it does not see this conversation.",
			schema: `{"type":"object","properties":{` +
				`"subagent":{"type":"string","description":"The subagent's name."},` +
				`"description":{"type":"string","description":"A few words on the task, shown to the user."},` +
				`"prompt":{"type":"string","description":"The whole task for the delegate."}},` +
				`"required":["subagent","description","prompt"],"additionalProperties":false}`},
		delegationTool{name: TaskWait, description: "Wait for delegates and read their reports: all of them (mode all, the default) or the first " +
			"to finish (mode any), for at most timeoutSeconds (default 300, at most 900). Without ids it waits for every delegate whose report you have not read.",
			schema: `{"type":"object","properties":{` +
				`"ids":{"type":"array","items":{"type":"string"},"description":"Delegation ids; none means every unread one."},` +
				`"mode":{"type":"string","enum":["all","any"]},` +
				`"timeoutSeconds":{"type":"integer","minimum":1,"maximum":900}},"additionalProperties":false}`},
		delegationTool{name: TaskList, description: "List this session's delegates with their state (running, waiting for the user, done, failed, stopped).",
			schema: noParams},
		delegationTool{name: TaskStop, description: "Stop one running delegate; its partial report stays readable with TaskWait.",
			schema: `{"type":"object","properties":{"id":{"type":"string","description":"The delegation id."}},"required":["id"],"additionalProperties":false}`},
	}
}

type delegationTool struct{ name, description, schema string }

func (t delegationTool) Spec() Spec {
	s := controlSpec(t.name, permission.ClassControl, api.ModeAgent)
	s.Description = t.description
	s.Schema = json.RawMessage(t.schema)
	return s
}

func (t delegationTool) Run(ctx context.Context, c *Call) Result {
	d, ok := c.Turn.(Delegator)
	if !ok {
		return noTurn(t.name)
	}
	return d.Delegate(ctx, c, t.name)
}
