package main

import (
	"context"
	"net/http"

	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/viz"
)

// assetOptions serves the embedded frontend, and the visualization route
// through the fallback handler.
func assetOptions(app *App) *assetserver.Options {
	return &assetserver.Options{Assets: assets, Handler: vizHandler(app)}
}

// vizHandler is the asset server's fallback handler: it serves the
// /_viz/<sessionId>/<name> visualization route (backend/viz) and 404s the
// rest. Wails calls it for any path the embedded assets lack, in production
// and in dev builds serving -assetdir alike.
func vizHandler(app *App) http.Handler { return viz.NewHandler(vizFolders{app}) }

// vizFolders resolves a session's visualization folder through the running
// core; without one (it failed to start) nothing is served.
type vizFolders struct{ app *App }

func (f vizFolders) VisualizationDir(ctx context.Context, sessionID string) (string, error) {
	core, _ := f.app.ready()
	if core == nil {
		return "", errs.New(errs.NotFound, "PI-Desktop's backend is not running; restart it to see visualizations")
	}
	// Fail closed: no fragment is served into a window whose frames could
	// still reach the IPC bridge.
	if err := f.app.guard.check(); err != nil {
		return "", err
	}
	return core.VisualizationDir(ctx, sessionID)
}
