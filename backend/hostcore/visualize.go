package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// VisualizationDir is the visualization folder of a session, for the
// /_viz route (backend/viz): only while inline visualizations are on and
// only for a session that exists. The folder may not exist yet.
func (c *Core) VisualizationDir(ctx context.Context, sessionID string) (string, error) {
	settings, err := c.settings.Get(ctx)
	if err != nil {
		return "", err
	}
	if !settings.InlineVisualizations {
		return "", errs.New(errs.NotFound, "inline visualizations are off; turn them on in Settings to see this card")
	}
	b, err := c.sessions.Bind(ctx, sessionID)
	if err != nil {
		return "", err
	}
	return b.Visualization, nil
}
