package hostcore

import (
	"context"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// Delegation entry points (issue 16, §10.2). The Task tools reach the
// runtime through the agent; they are registered only with
// Config.Delegation (off by default until the window shows delegations).
// Delegations and StopDelegation are the window's; tests start and wait
// for delegates directly through delegation_export_test.go.

// subagentFor looks a Task's subagent up in the session's definitions and
// resolves its model (nil = the session's).
func (c *Core) subagentFor(ctx context.Context, sessionID, name string) (subagent.Definition, provider.Provider, error) {
	b, _, err := c.bind(ctx, sessionID)
	if err != nil {
		return subagent.Definition{}, nil, err
	}
	if b.Session.OperatingMode != api.ModeAgent {
		return subagent.Definition{}, nil, errs.New(errs.ToolDisabledInPlan,
			"not started: delegation is available in Agent mode only, and this session is in %s mode", b.Session.OperatingMode)
	}
	cat, err := c.cachedSubagentCatalog(ctx, b.Project)
	if err != nil {
		return subagent.Definition{}, nil, err
	}
	def, ok := cat.Lookup(name)
	if !ok {
		names := make([]string, 0, len(cat.Definitions))
		for _, d := range cat.Definitions {
			names = append(names, d.Name)
		}
		return subagent.Definition{}, nil, errs.New(errs.DelegateNotFound, "no subagent is named %q; this session can delegate to: %s",
			name, strings.Join(names, ", ")).With("field", "subagent")
	}
	prov, err := c.delegateProvider(ctx, def)
	if err != nil {
		return subagent.Definition{}, nil, err
	}
	return def, prov, nil
}

// Subagent is subagentFor for the agent's Task tool (agent.SubagentResolver).
func (h agentHost) Subagent(ctx context.Context, sessionID, name string) (subagent.Definition, provider.Provider, error) {
	return h.c.subagentFor(ctx, sessionID, name)
}

// Subagents lists the session's definitions in effect for the system
// prompt (none when they cannot be read: Task then names the problem).
func (h agentHost) Subagents(ctx context.Context, sessionID string) []agent.SubagentInfo {
	b, _, err := h.c.bind(ctx, sessionID)
	if err != nil {
		return nil
	}
	cat, err := h.c.cachedSubagentCatalog(ctx, b.Project)
	if err != nil {
		return nil
	}
	out := make([]agent.SubagentInfo, 0, len(cat.Definitions))
	for _, d := range cat.Definitions {
		out = append(out, agent.SubagentInfo{Name: d.Name, Description: d.Description})
	}
	return out
}

// DelegationEnded drops what the host keeps for one delegate run: its edit
// snapshot store and loop guard (agent.DelegationEnder).
func (h agentHost) DelegationEnded(sessionID, delegationID string) {
	h.c.edits.dropDelegation(sessionID, delegationID)
}

var _ agent.DelegationEnder = agentHost{}

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

// Delegations lists a session's delegations in the order its turns asked
// for them (TaskList, and the window's delegate rows).
func (c *Core) Delegations(ctx context.Context, sessionID string) ([]agent.Delegation, error) {
	return c.agent.Delegations(ctx, sessionID)
}

// StopDelegation stops one running delegate (TaskStop, and the window's
// stop button on a delegate row).
func (c *Core) StopDelegation(sessionID, id string) bool {
	return c.agent.StopDelegation(sessionID, id)
}

// runtimeTools are the runtime's tools, with the delegation tools when
// enabled.
func runtimeTools(delegation bool) []tools.Tool {
	if delegation {
		return append(tools.Runtime(), tools.Delegation()...)
	}
	return tools.Runtime()
}
