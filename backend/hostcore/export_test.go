package hostcore

import "context"

// ScratchDirForTest creates a session's scratch folder as the first tool
// that needs one would, so tests can stage files there.
func (c *Core) ScratchDirForTest(ctx context.Context, sessionID string) (string, error) {
	return c.sessions.EnsureScratch(ctx, sessionID)
}

// MCPPidForTest is the process id of a running stdio MCP server (0 if none);
// root "" names an app server.
func MCPPidForTest(c *Core, root, id string) int {
	st, _ := c.mcp.status(keyOf(root, id))
	return st.Pid
}
