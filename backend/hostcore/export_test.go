package hostcore

import "context"

// ScratchDirForTest creates a session's scratch folder as the first tool
// that needs one would, so tests can stage files there.
func (c *Core) ScratchDirForTest(ctx context.Context, sessionID string) (string, error) {
	return c.sessions.EnsureScratch(ctx, sessionID)
}
