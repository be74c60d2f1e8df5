package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// Preview is a session's BrowserPreview pane: what it shows, closing it,
// and opening it in the system browser.
type Preview struct{ h Handle }

// State is the session's open preview, or nil.
func (p *Preview) State(sessionID string) (*api.PreviewState, error) {
	return with(p.h, func(_ context.Context, c *hostcore.Core) (*api.PreviewState, error) { return c.Preview(sessionID), nil })
}

// Close ends the session's preview (its address stops working).
func (p *Preview) Close(sessionID string) error {
	return do(p.h, func(_ context.Context, c *hostcore.Core) error { c.ClosePreview(sessionID); return nil })
}

// OpenInBrowser opens the session's preview in the system browser. The
// URL is the host's own record of the preview, never one the window
// passes, so this cannot open anything else.
func (p *Preview) OpenInBrowser(sessionID string) error {
	return do(p.h, func(_ context.Context, c *hostcore.Core) error { return c.OpenPreviewInBrowser(sessionID) })
}
