package hostcore

import (
	"context"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
)

// Delegation entry points (issue 16, §10.2): what the Task tools call. The
// tools themselves are not offered to the model yet; until they are, these
// are reached by tests and by code, never by the window.

// DelegationInput is one Task call.
type DelegationInput struct {
	Subagent         string `json:"subagent"`
	Description      string `json:"description"`
	Prompt           string `json:"prompt"`
	ParentTurnID     string `json:"parentTurnId"`
	ParentToolCallID string `json:"parentToolCallId"`
}

// StartDelegation starts a delegate of the subagent named in the session's
// definitions (the builtin, user and project ones its project sees, read
// now) and returns at once. Task is an Agent-mode tool: a session in Plan or
// Goal mode is refused. The delegate runs on its definition's saved model,
// else the session's.
func (c *Core) StartDelegation(ctx context.Context, sessionID string, in DelegationInput) (agent.Delegation, error) {
	b, _, err := c.bind(ctx, sessionID)
	if err != nil {
		return agent.Delegation{}, err
	}
	if b.Session.OperatingMode != api.ModeAgent {
		return agent.Delegation{}, errs.New(errs.ToolDisabledInPlan,
			"not started: delegation is available in Agent mode only, and this session is in %s mode", b.Session.OperatingMode)
	}
	cat, err := c.SubagentCatalog(ctx, b.Project)
	if err != nil {
		return agent.Delegation{}, err
	}
	def, ok := cat.Lookup(in.Subagent)
	if !ok {
		names := make([]string, 0, len(cat.Definitions))
		for _, d := range cat.Definitions {
			names = append(names, d.Name)
		}
		return agent.Delegation{}, errs.New(errs.DelegateNotFound, "no subagent is named %q; this session can delegate to: %s",
			in.Subagent, strings.Join(names, ", ")).With("field", "subagent")
	}
	prov, err := c.delegateProvider(ctx, def)
	if err != nil {
		return agent.Delegation{}, err
	}
	return c.agent.StartDelegation(ctx, sessionID, agent.DelegateSpec{Definition: def, Description: in.Description, Prompt: in.Prompt,
		ParentTurnID: in.ParentTurnID, ParentToolCallID: in.ParentToolCallID, Provider: prov})
}

// delegateProvider is the model of def's saved profile (nil = the
// session's). A configured test provider stands in for every profile.
func (c *Core) delegateProvider(ctx context.Context, def subagent.Definition) (provider.Provider, error) {
	if def.Model == "" || c.cfg.Provider != nil {
		return nil, nil
	}
	p, err := c.providers.Get(ctx, def.Model)
	if err != nil {
		return nil, err
	}
	cfg, err := c.providers.Config(ctx, p)
	if err != nil {
		return nil, err
	}
	return provider.New(cfg)
}

// WaitDelegations waits for a session's delegates (TaskWait).
func (c *Core) WaitDelegations(ctx context.Context, sessionID string, ids []string, all bool, timeout time.Duration) (agent.WaitResult, error) {
	return c.agent.WaitDelegations(ctx, sessionID, ids, all, timeout)
}

// Delegations lists a session's delegations, oldest first (TaskList).
func (c *Core) Delegations(ctx context.Context, sessionID string) ([]agent.Delegation, error) {
	return c.agent.Delegations(ctx, sessionID)
}

// StopDelegation stops one running delegate (TaskStop).
func (c *Core) StopDelegation(sessionID, id string) bool {
	return c.agent.StopDelegation(sessionID, id)
}
