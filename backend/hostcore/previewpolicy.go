package hostcore

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// pagePreviewer is a tool that opens a workspace page (BrowserPreview):
// the page's own scripts run in the preview pane, so the policy wants to
// know whether the session wrote it.
type pagePreviewer interface {
	PreviewPage(rv *pathguard.Resolver, args json.RawMessage) (pathguard.Resolved, bool)
}

// notePage sets in.UnwrittenPage (and its grant) when the call opens a
// workspace page that is not one of the session's artifacts with the bytes
// the session left there. A page edited since by someone else is not the
// session's any more; an unreadable record counts as unwritten (fail
// closed: one card too many, never one too few).
func (c *Core) notePage(ctx context.Context, sessionID string, tool any, rv *pathguard.Resolver, args json.RawMessage, in *permission.Input) {
	pp, ok := tool.(pagePreviewer)
	if !ok || rv == nil {
		return
	}
	page, ok := pp.PreviewPage(rv, args)
	if !ok {
		return
	}
	in.UnwrittenPage = !c.sessionWrote(ctx, sessionID, rv, filepath.ToSlash(page.Rel))
	in.PageGranted = in.UnwrittenPage && c.broker.Granted(sessionID, permission.PageGrant)
}

func (c *Core) sessionWrote(ctx context.Context, sessionID string, rv *pathguard.Resolver, rel string) bool {
	list, err := c.artifacts.List(ctx, sessionID)
	if err != nil {
		c.log.Warn("preview: artifacts", "session", sessionID, "err", err)
		return false
	}
	for _, a := range list {
		if a.Path != rel {
			continue
		}
		sum, err := hashWorkspaceFile(rv, filepath.FromSlash(rel))
		return err == nil && sum == a.SHA256
	}
	return false
}
