//go:build dev

package desktop

import (
	"net/http"
	"os"

	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

// EnvBrowserOnly, set by the e2e fixture, makes the browser on the dev
// server the app's only frontend: the native window's page (its requests
// name the host "wails") is a placeholder. Otherwise both run the app, and
// whichever drains a once-only queue first (Shell.PendingOpens: a second
// start's folder) takes it, so the browser the flow drives sometimes never
// saw the hand-off (flow 09, under load).
const EnvBrowserOnly = "PI_E2E_BROWSER_ONLY"

const browserOnlyPage = `<!doctype html><meta charset="utf-8"><title>PI-Desktop</title>
<p>This dev build runs its frontend in the browser on the dev server (PI_E2E_BROWSER_ONLY is set).</p>`

func assetMiddleware() assetserver.Middleware {
	if os.Getenv(EnvBrowserOnly) == "" {
		return nil
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Host == "wails" && (r.URL.Path == "/" || r.URL.Path == "/index.html") {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = w.Write([]byte(browserOnlyPage))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
