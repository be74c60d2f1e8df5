package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/cmdrule"
	"github.com/pi-desktop/pi-desktop/backend/fileindex"
)

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

// DelegationEditStatesForTest counts the edit states host-core keeps for
// sessionID's delegate runs.
func DelegationEditStatesForTest(c *Core, sessionID string) int {
	c.edits.mu.Lock()
	defer c.edits.mu.Unlock()
	n := 0
	for k := range c.edits.byID {
		if len(k) > len(sessionID) && k[:len(sessionID)+1] == sessionID+"\x00" {
			n++
		}
	}
	return n
}

// SubagentsForTest is the subagent list the agent's prompt gets for a
// session, and how many times a catalog was parsed for the delegate
// runtime so far.
func SubagentsForTest(ctx context.Context, c *Core, sessionID string) (names []string, loads int) {
	for _, s := range (agentHost{c: c}).Subagents(ctx, sessionID) {
		names = append(names, s.Name+": "+s.Description)
	}
	c.subagents.mu.Lock()
	defer c.subagents.mu.Unlock()
	return names, c.subagents.loads
}

// CommandRulesForTest is the store of the command rules Bash calls are
// decided with.
func CommandRulesForTest(c *Core) *cmdrule.Store { return c.rules }

// FileIndexForTest is the file index behind a session's @-suggestions, so
// a test can wait on its generation instead of sleeping.
func (c *Core) FileIndexForTest(ctx context.Context, sessionID string) (*fileindex.Index, error) {
	b, _, err := c.workspace(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return c.fileIndexes.Acquire(b.Workspace, sessionID)
}

// FileIndexesOpenForTest is the number of workspace file indexes running.
func FileIndexesOpenForTest(c *Core) int { return c.fileIndexes.Open() }
