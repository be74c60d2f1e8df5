package desktop

import (
	"context"
	"io/fs"
	"net/http"
	"strings"

	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/viz"
)

// AssetOptions serves the frontend's assets, and through the fallback
// handler the stored images and the visualization route (once guard is in
// place).
func AssetOptions(assets fs.FS, h Handle, guard *FrameGuard) *assetserver.Options {
	return &assetserver.Options{Assets: assets, Handler: routes(h, guard), Middleware: assetMiddleware()}
}

// routes is the asset server's fallback handler: /_attachments/ for the
// image store, everything else to the visualization route (which 404s
// what is not one of its own).
func routes(h Handle, guard *FrameGuard) http.Handler {
	images, viz := attachmentsHandler(h), vizHandler(h, guard)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, AttachmentsPrefix) {
			images.ServeHTTP(w, r)
			return
		}
		viz.ServeHTTP(w, r)
	})
}

// vizHandler serves the /_viz/<sessionId>/<name> visualization route
// (backend/viz) and 404s the rest. Wails calls it for any path the embedded assets lack, in production
// and in dev builds serving -assetdir alike.
func vizHandler(h Handle, guard *FrameGuard) http.Handler {
	return viz.NewHandler(vizFolders{h: h, guard: guard})
}

// vizFolders resolves a session's visualization folder through the running
// core; without one (it failed to start) nothing is served.
type vizFolders struct {
	h     Handle
	guard *FrameGuard
}

func (f vizFolders) VisualizationDir(ctx context.Context, sessionID string) (string, error) {
	core, _ := f.h.Core()
	if core == nil {
		return "", errs.New(errs.NotFound, "PI-Desktop's backend is not running; restart it to see visualizations")
	}
	// Fail closed: no fragment is served into a window whose frames could
	// still reach the IPC bridge.
	if err := f.guard.check(); err != nil {
		return "", err
	}
	return core.VisualizationDir(ctx, sessionID)
}
