package hostcore

import (
	"context"
	"encoding/json"

	"github.com/pi-desktop/pi-desktop/backend/agent"
)

// PathInstructionsForTest is what the agent's preflight of a call of tool
// with args in sessionID gets from host-core.
func PathInstructionsForTest(ctx context.Context, c *Core, sessionID, tool string, args any) []agent.InstructionFile {
	raw, _ := json.Marshal(args)
	return agentHost{c: c}.PathInstructions(ctx, agent.ToolCall{SessionID: sessionID, ToolCallID: "preflight", Tool: tool, Args: raw})
}
