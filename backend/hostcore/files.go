package hostcore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/search"
)

// WorkspaceFiles are the composer's @-reference suggestions.
type WorkspaceFiles struct {
	// Files are '/'-separated paths relative to the session's workspace,
	// best match first.
	Files []string `json:"files"`
	// Truncated: more files matched than listed; typing more of the name
	// narrows the list.
	Truncated bool `json:"truncated"`
	// Indexing: the workspace's file list is still being built, so a file
	// not listed yet may match later.
	Indexing bool `json:"indexing"`
}

// firstWalkWait is how long a query waits for a workspace's first walk, so
// a small project answers whole on the first keystroke; a large one
// answers from what is indexed so far, with Indexing set.
const firstWalkWait = 150 * time.Millisecond

// WorkspaceFiles suggests files of a session's workspace whose path matches
// query: the project, the worktree of an isolated session (never the main
// checkout), or the scratch folder of a temporary one. It answers from the
// workspace's file index (fileindex), built with Glob's visibility rules
// (ignore files, no hidden entries, no symlinks), so nothing outside the
// workspace is ever listed; limit is capped (search.MaxFilesLimit). It only
// reads names: no policy, audit or approval applies, as for the sidebar.
func (c *Core) WorkspaceFiles(ctx context.Context, sessionID, query string, limit int) (WorkspaceFiles, error) {
	switch {
	case limit < 0:
		return WorkspaceFiles{}, errs.New(errs.InvalidArgument, "limit must be positive, or 0 for the default").With("field", "limit")
	case limit == 0:
		limit = search.DefaultFilesLimit
	case limit > search.MaxFilesLimit:
		limit = search.MaxFilesLimit
	}
	b, _, err := c.workspace(ctx, sessionID)
	if err != nil {
		return WorkspaceFiles{}, err
	}
	if b.Temporary {
		// The scratch folder appears on first use; before that it is empty.
		if _, err := os.Stat(b.Workspace); errors.Is(err, fs.ErrNotExist) {
			return WorkspaceFiles{Files: []string{}}, nil
		}
	}
	idx, err := c.fileIndexes.Acquire(b.Workspace, sessionID)
	if err != nil {
		return WorkspaceFiles{}, err
	}
	wait, cancel := context.WithTimeout(ctx, firstWalkWait)
	_ = idx.Ready(wait) // past the wait, answer from what is indexed so far
	cancel()
	res, err := idx.Query(query, limit)
	if err != nil {
		// The walk failed: the next keystroke walks again.
		c.fileIndexes.Drop(b.Workspace)
		return WorkspaceFiles{}, err
	}
	if res.Files == nil {
		res.Files = []string{}
	}
	return WorkspaceFiles{Files: res.Files, Truncated: res.Truncated, Indexing: res.Indexing}, nil
}
