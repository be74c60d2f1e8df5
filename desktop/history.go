package desktop

import (
	"context"
	"path/filepath"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// History finds and exports past work (issue 21): search across every
// session, and a session's export through the native save dialog.
type History struct{ h Handle }

// Search returns the newest messages and tool calls containing every term
// of query (at least one term of 3 characters).
func (s *History) Search(query string) ([]api.SearchHit, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) ([]api.SearchHit, error) {
		return c.SearchHistory(ctx, query, 0)
	})
}

// ExportSession asks where to save sessionID as Markdown ("md") or JSON
// ("json") and writes it there; an empty Path means the user cancelled.
func (s *History) ExportSession(sessionID, format string) (api.ExportResult, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.ExportResult, error) {
		sess, err := c.Session(ctx, sessionID)
		if err != nil {
			return api.ExportResult{}, err
		}
		name := hostcore.ExportFileName(sess.Title, format)
		path := exportTarget(name)
		if path == "" {
			win := s.h.Window()
			if win == nil {
				return api.ExportResult{}, errs.New(errs.Internal, "the window is not ready yet; try again")
			}
			kind := map[string]string{"md": "Markdown", "json": "JSON"}[format]
			path, err = wruntime.SaveFileDialog(win, wruntime.SaveDialogOptions{
				Title: "Export session", DefaultFilename: name, CanCreateDirectories: true,
				Filters: []wruntime.FileFilter{{DisplayName: kind + " (*." + format + ")", Pattern: "*." + format}},
			})
			if err != nil || path == "" {
				return api.ExportResult{}, err
			}
		}
		return c.ExportSession(ctx, sessionID, format, filepath.Clean(path))
	})
}
