package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// mcpDeferred is the session's MCP tools in its on-demand catalog for mode:
// usable ones (their schema compiles) that the policy offers in mode. A
// catalog that cannot be read costs the turn its MCP tools, nothing more.
func (c *Core) mcpDeferred(ctx context.Context, sessionID, mode string) []agent.DeferredTool {
	if c.cfg.MCP == nil {
		return nil
	}
	b, _, err := c.workspace(ctx, sessionID)
	if err != nil {
		return nil
	}
	list, err := c.mcpCatalog(ctx, b.Project)
	if err != nil {
		c.log.Warn("MCP catalog", "session", sessionID, "code", errs.CodeOf(err), "err", err)
		return nil
	}
	var out []agent.DeferredTool
	for _, e := range list {
		s := e.tool.Spec()
		if e.schema == nil || !permission.Offered(specInput(s, mode)) {
			continue
		}
		out = append(out, agent.DeferredTool{Name: s.Name, Summary: s.Summary, Def: toolDef(s),
			Origin: &agent.ToolOrigin{Server: e.ServerID, Tool: e.Tool, Title: e.Title}})
	}
	return out
}

// resolveMCPSelection turns the composer's MCP selection into the tool
// names to load for the prompt, or fails before the turn opens: a server
// the session has no ready server of that id, a tool that server does not
// have (or another server owns), a tool the mode refuses, and a server
// without any tool the mode allows.
func (c *Core) resolveMCPSelection(ctx context.Context, sessionID string, sel []api.MCPSelection) ([]string, error) {
	if len(sel) == 0 {
		return nil, nil
	}
	b, _, err := c.workspace(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	mode := b.Session.OperatingMode
	list, err := c.mcpCatalog(ctx, b.Project)
	if err != nil {
		return nil, err
	}
	var names []string
	seen := map[string]bool{}
	add := func(e mcpEntry) {
		if !seen[e.ModelName] {
			seen[e.ModelName] = true
			names = append(names, e.ModelName)
		}
	}
	for _, s := range sel {
		var own []mcpEntry
		for _, e := range list {
			if e.ServerID == s.ServerID {
				own = append(own, e)
			}
		}
		if len(own) == 0 {
			return nil, errs.New(errs.NotFound,
				"no MCP server %q is ready in this session; check Settings → MCP servers (it may be unknown, disabled, not trusted for this project, or not connected)",
				clip(s.ServerID)).With("server", s.ServerID)
		}
		if len(s.Tools) == 0 {
			n := len(names)
			for _, e := range own {
				if e.schema != nil && permission.Offered(specInput(e.tool.Spec(), mode)) {
					add(e)
				}
			}
			if len(names) == n {
				if v, denied := permission.ContractDeny(specInput(own[0].tool.Spec(), mode)); denied {
					return nil, errs.As(verdictError(v)).With("server", s.ServerID)
				}
				return nil, errs.New(errs.ToolNotFound, "MCP server %q has no tool that can be used in %s mode", s.ServerID, permission.ModeName(mode)).With("server", s.ServerID)
			}
			continue
		}
		for _, name := range s.Tools {
			e, ok := findMCP(own, name)
			if !ok {
				if other, elsewhere := findMCP(list, name); elsewhere {
					return nil, errs.New(errs.ToolNotFound, "the tool %q belongs to MCP server %q, not %q; select it under its own server",
						clip(name), other.ServerID, s.ServerID).With("server", s.ServerID).With("tool", name)
				}
				return nil, errs.New(errs.ToolNotFound, "MCP server %q has no enabled tool %q; pick one of its tools in the composer",
					s.ServerID, clip(name)).With("server", s.ServerID).With("tool", name)
			}
			if v, denied := permission.ContractDeny(specInput(e.tool.Spec(), mode)); denied {
				return nil, errs.As(verdictError(v)).With("server", s.ServerID).With("tool", name)
			}
			if e.schema == nil {
				_, _, err := e.validate(nil)
				return nil, err
			}
			add(e)
		}
	}
	return names, nil
}

// findMCP finds a tool by its own name or its model-facing name.
func findMCP(list []mcpEntry, name string) (mcpEntry, bool) {
	for _, e := range list {
		if e.Tool == name || e.ModelName == name {
			return e, true
		}
	}
	return mcpEntry{}, false
}
