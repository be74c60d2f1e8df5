package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
)

// The MCP seams the lead's StartTurnWith will call, opened for the tests.

func (c *Core) ResolveMCPSelectionForTest(ctx context.Context, sessionID string, sel []api.MCPSelection) ([]string, error) {
	return c.resolveMCPSelection(ctx, sessionID, sel)
}

func (c *Core) StartTurnWithToolsForTest(ctx context.Context, sessionID, prompt string, names []string) error {
	return c.startTurnWithTools(ctx, sessionID, prompt, names)
}

// DeferredForTest is the on-demand catalog a turn of sessionID gets in mode.
func (c *Core) DeferredForTest(ctx context.Context, sessionID, mode string) []agent.DeferredTool {
	return agentHost{c}.Deferred(ctx, sessionID, mode)
}

// TurnRunningForTest reports whether a turn runs in sessionID.
func (c *Core) TurnRunningForTest(sessionID string) bool { return c.agent.Running(sessionID) }
