package hostcore

import (
	"context"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
)

// Tests start and wait for delegates directly, as a parent's Task and
// TaskWait calls do through the agent.

// DelegationInput is one Task call.
type DelegationInput struct {
	Subagent         string `json:"subagent"`
	Description      string `json:"description"`
	Prompt           string `json:"prompt"`
	ParentTurnID     string `json:"parentTurnId"`
	ParentToolCallID string `json:"parentToolCallId"`
}

// StartDelegation starts a delegate of the subagent named in the session's
// definitions (the builtin, user and project ones its project sees, as
// their files are now) and returns at once. Task is an Agent-mode tool: a session in Plan or
// Goal mode is refused. The delegate runs on its definition's saved model,
// else the session's.
func (c *Core) StartDelegation(ctx context.Context, sessionID string, in DelegationInput) (agent.Delegation, error) {
	def, prov, err := c.subagentFor(ctx, sessionID, in.Subagent)
	if err != nil {
		return agent.Delegation{}, err
	}
	return c.agent.StartDelegation(ctx, sessionID, agent.DelegateSpec{Definition: def, Description: in.Description, Prompt: in.Prompt,
		ParentTurnID: in.ParentTurnID, ParentToolCallID: in.ParentToolCallID, Provider: prov})
}

// WaitDelegations waits for a session's delegates (TaskWait).
func (c *Core) WaitDelegations(ctx context.Context, sessionID string, ids []string, all bool, timeout time.Duration) (agent.WaitResult, error) {
	return c.agent.WaitDelegations(ctx, sessionID, ids, all, timeout)
}
