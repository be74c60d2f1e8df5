package hostcore

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/history"
)

// SearchHistory finds the newest messages and tool calls of every session
// that contain each term of query.
func (c *Core) SearchHistory(ctx context.Context, query string, limit int) ([]api.SearchHit, error) {
	return history.Search(ctx, c.store.DB(), query, limit)
}

// ExportSession writes a session to path as Markdown ("md") or JSON
// ("json"), with secrets redacted.
func (c *Core) ExportSession(ctx context.Context, sessionID, format, path string) (api.ExportResult, error) {
	if format != history.FormatMarkdown && format != history.FormatJSON {
		return api.ExportResult{}, errs.New(errs.InvalidArgument, "export as md or json, not %q", format)
	}
	x, err := history.Load(ctx, c.store.DB(), sessionID, time.Now().UnixMilli())
	if err != nil {
		return api.ExportResult{}, err
	}
	err = history.WriteFile(path, func(w io.Writer) error {
		if format == history.FormatJSON {
			return x.WriteJSON(w)
		}
		return x.WriteMarkdown(w, time.Local)
	})
	if err != nil {
		return api.ExportResult{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return api.ExportResult{}, errs.Wrap(err, errs.Internal, "the export was written but cannot be found at %s: %v", path, err)
	}
	return api.ExportResult{Path: path, Bytes: fi.Size()}, nil
}

// ExportFileName is a file name for a session's export: its title made
// safe for every file system, then the format's extension.
func ExportFileName(title, format string) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`<>:"/\|?*`, r) || r < 32 {
			return '-'
		}
		return r
	}, strings.TrimSpace(title))
	name = strings.Trim(name, ". -")
	if name == "" {
		name = "session"
	}
	return history.FileStem(name) + "." + format
}
