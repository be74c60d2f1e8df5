package hostcore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/review"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// recordArtifacts notes the workspace files a successful Write or Edit
// left (spec §4b: deliverables only). It reads the call's review records:
// those exist for workspace-root targets only, so scratch, visualization,
// external and skill paths never become artifacts. A delegate's write
// counts for the session it works for, unless it ran in its own worktree,
// whose files are not the session's workspace. A failure costs the Files
// pane one entry, never the call.
func (c *Core) recordArtifacts(ctx context.Context, req ToolRequest, res tools.Result) {
	if !res.OK || (req.Tool != "Write" && req.Tool != "Edit") {
		return
	}
	changes, _ := res.Fields["review"].([]review.Change)
	if len(changes) == 0 {
		return
	}
	if _, own := c.delegateWorktrees.project(req.SessionID, req.DelegationID); own {
		return
	}
	ctx = context.WithoutCancel(ctx) // the change happened; so does its record
	for _, ch := range changes {
		var err error
		if ch.Status == review.StatusDeleted {
			err = c.artifacts.Forget(ctx, req.SessionID, ch.Path)
		} else {
			err = c.artifacts.Record(ctx, req.SessionID, ch.Path, req.messageID(), ch.AfterSHA256)
		}
		if err != nil {
			c.log.Warn("record artifact", "session", req.SessionID, "err", err)
		}
	}
}

// artifactRolledBack follows a rolled-back change: the file's new bytes are
// hashed, or its row goes when the rollback removed it. A file a rollback
// brought back (an undone deletion) is listed again.
func (c *Core) artifactRolledBack(ctx context.Context, sessionID string, r *pathguard.Resolver, ch review.Change) {
	sum, err := hashWorkspaceFile(r, ch.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = c.artifacts.Forget(ctx, sessionID, ch.Path)
	case err != nil:
	case ch.Status == review.StatusDeleted:
		err = c.artifacts.Record(ctx, sessionID, ch.Path, ch.MessageID, sum)
	default:
		_, err = c.artifacts.Rehash(ctx, sessionID, ch.Path, sum)
	}
	if err != nil {
		c.log.Warn("update artifact after rollback", "session", sessionID, "err", err)
	}
}

// artifactRestored follows a file a checkpoint restore rewrote or removed;
// a path the session never wrote stays unlisted.
func (c *Core) artifactRestored(ctx context.Context, sessionID string, r *pathguard.Resolver, rel string) {
	sum, err := hashWorkspaceFile(r, rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = c.artifacts.Forget(ctx, sessionID, rel)
	case err == nil:
		_, err = c.artifacts.Rehash(ctx, sessionID, rel, sum)
	}
	if err != nil {
		c.log.Warn("update artifact after restore", "session", sessionID, "err", err)
	}
}

// hashWorkspaceFile hashes a workspace file through the resolver (so it
// stays contained); fs.ErrNotExist when it is gone.
func hashWorkspaceFile(r *pathguard.Resolver, rel string) (string, error) {
	res, err := r.Resolve(rel)
	if err != nil {
		return "", err
	}
	if res.Root != pathguard.Workspace {
		return "", fs.ErrNotExist // no longer a workspace file
	}
	f, err := r.OpenFile(res, os.O_RDONLY, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
