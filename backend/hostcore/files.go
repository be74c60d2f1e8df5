package hostcore

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/pi-desktop/pi-desktop/backend/search"
)

// WorkspaceFiles are the composer's @-reference suggestions.
type WorkspaceFiles struct {
	// Files are '/'-separated paths relative to the session's workspace,
	// best match first.
	Files []string `json:"files"`
	// Truncated: more files matched than listed (or the walk hit its bound);
	// typing more of the name narrows the list.
	Truncated bool `json:"truncated"`
}

// WorkspaceFiles suggests files of a session's workspace whose path matches
// query: the project, the worktree of an isolated session (never the main
// checkout), or the scratch folder of a temporary one. It walks like Glob
// (ignore files, no hidden entries, no symlinks), so nothing outside the
// workspace is ever listed; limit is capped (search.MaxFilesLimit). It only
// reads names: no policy, audit or approval applies, as for the sidebar.
func (c *Core) WorkspaceFiles(ctx context.Context, sessionID, query string, limit int) (WorkspaceFiles, error) {
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
	res, err := search.Files(ctx, search.FilesOptions{Root: b.Workspace, Query: query, Limit: limit})
	if err != nil {
		return WorkspaceFiles{}, err
	}
	if res.Files == nil {
		res.Files = []string{}
	}
	return WorkspaceFiles{Files: res.Files, Truncated: res.Truncated}, nil
}
