package main

import "github.com/pi-desktop/pi-desktop/backend/hostcore"

// WorkspaceFiles suggests files of a session's workspace (its worktree when
// isolated) whose path matches query, best first, for @-references in the
// composer. limit 0 means the default; it is capped.
func (a *App) WorkspaceFiles(sessionID, query string, limit int) (hostcore.WorkspaceFiles, error) {
	c, err := a.ready()
	if err != nil {
		return hostcore.WorkspaceFiles{}, err
	}
	return c.WorkspaceFiles(a.bg(), sessionID, query, limit)
}
