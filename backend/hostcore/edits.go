package hostcore

import "github.com/pi-desktop/pi-desktop/backend/pathguard"

// forgetEdits drops what the session's edit snapshot store holds for a
// workspace path, so no tag minted before a rollback can anchor an edit.
func (c *Core) forgetEdits(sessionID string, r *pathguard.Resolver, rel string) {
	_, _, _ = sessionID, r, rel // the snapshot store arrives with the Edit tool
}
