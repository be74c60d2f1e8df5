//go:build webkit2_41

// Built only with WebKitGTK 4.1 (make test-go passes the tag): the Wails
// asset server package links the webview headers.

package desktop

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wailsapp/wails/v2/pkg/assetserver"

	"github.com/pi-desktop/pi-desktop/backend/viz"
)

type runtimeAssets struct{}

func (runtimeAssets) DesktopIPC() []byte       { return []byte("/*ipc*/") }
func (runtimeAssets) WebsocketIPC() []byte     { return []byte("/*ws*/") }
func (runtimeAssets) RuntimeDesktopJS() []byte { return []byte("/*runtime*/") }

// The visualization route reaches our handler through the real Wails asset
// server, as in the window and in a dev build serving -assetdir (both put
// the assets in front and fall back to Handler), and Wails never injects
// its runtime into a fragment, even one named index.html.
func TestAssetServerServesVisualizations(t *testing.T) {
	app, sid := vizApp(t, map[string]string{
		"chart.html": `<p id="frag">chart.html</p>`,
		"index.html": `<p id="frag">index.html</p>`,
	})
	app.guard.ready.Store(true) // as once the window's guard is in (vizguard.go)
	opts := *AssetOptions(nil, app, &app.guard)
	opts.Assets = fstest.MapFS{"index.html": {Data: []byte("<html><head></head><body>app</body></html>")}}
	srv, err := assetserver.NewAssetServer("{}", opts, true, nil, runtimeAssets{})
	if err != nil {
		t.Fatal(err)
	}
	get := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, target, nil))
		return rec
	}
	for _, name := range []string{"chart", "index"} {
		rec := get("/_viz/" + sid + "/" + name)
		body := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.Contains(body, `<p id="frag">`+name+`.html</p>`) {
			t.Fatalf("%s: %d %.200s", name, rec.Code, body)
		}
		if rec.Header().Get("Content-Security-Policy") != viz.CSP {
			t.Errorf("%s: CSP = %q", name, rec.Header().Get("Content-Security-Policy"))
		}
		if strings.Contains(body, "/wails/") {
			t.Errorf("%s: Wails injected its runtime into the fragment", name)
		}
	}
	if rec := get("/_viz/" + sid + "/missing"); rec.Code != http.StatusNotFound {
		t.Errorf("missing fragment: %d", rec.Code)
	}
	if rec := get("/"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "/wails/runtime.js") {
		t.Errorf("the app page is no longer served: %d %s", rec.Code, rec.Body)
	}
	// Without a running core nothing is served.
	bare := httptest.NewRecorder()
	vizHandler(&testApp{}, &FrameGuard{}).ServeHTTP(bare, httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/_viz/"+sid+"/chart", nil))
	if bare.Code != http.StatusNotFound {
		t.Errorf("without a core: %d", bare.Code)
	}
}

// Stored images reach the route through the real Wails asset server with
// their own type and hardening headers, and Wails injects nothing.
func TestAssetServerServesAttachments(t *testing.T) {
	app, _ := vizApp(t, nil)
	dir := app.core.AttachmentsDir()
	body := encoded(t, "png")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, hashName(body)), body, 0o600); err != nil {
		t.Fatal(err)
	}
	opts := *AssetOptions(nil, app, &app.guard)
	opts.Assets = fstest.MapFS{"index.html": {Data: []byte("<html><head></head><body>app</body></html>")}}
	srv, err := assetserver.NewAssetServer("{}", opts, true, nil, runtimeAssets{})
	if err != nil {
		t.Fatal(err)
	}
	get := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, target, nil))
		return rec
	}
	rec := get(AttachmentsPrefix + hashName(body))
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), body) {
		t.Fatalf("image: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	assertHardened(t, rec)
	if got := rec.Header().Get("Content-Type"); got != "image/png" {
		t.Errorf("Content-Type = %q", got)
	}
	if got := rec.Header().Get("Cache-Control"); got != "private, max-age=31536000, immutable" {
		t.Errorf("Cache-Control = %q", got)
	}
	if rec := get(AttachmentsPrefix + "../pi.sqlite"); rec.Code != http.StatusNotFound {
		t.Errorf("traversal: %d", rec.Code)
	}
}
