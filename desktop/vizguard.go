package desktop

import (
	"sync/atomic"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// FrameGuard keeps visualization frames away from the app's IPC bridge.
//
// WebKit (WebKitGTK on Linux, WKWebView on macOS) exposes the script
// message handlers to every frame, sandboxed and opaque-origin ones and
// their srcdoc children included, and Wails posts every bound-method call
// through the "external" handler without knowing which frame sent it. A
// fragment in a card could therefore call any bound method blind (rename,
// configure or prompt a session). The real-window probe
// scripts/viz-escape-probe.sh showed it did, before this guard.
//
// The route serves a fragment only once the guard is in place, so a
// failure to install it leaves cards empty rather than open:
//   - Linux: a WebKit user script, injected at document start into every
//     frame but the top one, cuts window.webkit's message handlers
//     (guardScript; installed by vizguard_linux.go). The top document keeps
//     them, so the same install refuses every load of another document into
//     the window and every new window: a frame that navigated the window to
//     its own page would otherwise get the bridge (the probe showed it does
//     once the preview frame's sandbox allows top navigation).
//   - Windows: WebView2 hands Wails only the top document's messages;
//     cards render (vizguard_other.go).
//   - macOS (and any build without the Linux hook): no hook exists, so the
//     route refuses to serve and the card says why.
type FrameGuard struct {
	ready atomic.Bool
}

// guardScript runs in every frame before the page's own scripts. In a
// subframe it cuts every path from window.webkit to a message handler:
// window.webkit itself is a non-configurable own property, so instead the
// messageHandlers getter (on the namespace's prototype and the instance)
// and the handlers' postMessage are replaced by locked stubs. The originals
// are gone from the frame's realm before any fragment script runs.
const guardScript = `(function () {
  if (window === window.top) return;
  var wk = window.webkit;
  if (!wk) return;
  var lock = function (o, k, v) {
    try { Object.defineProperty(o, k, { value: v, writable: false, configurable: false }); } catch (e) {}
  };
  var blocked = function () { throw new Error("the app bridge is not available to visualizations"); };
  try {
    var hs = wk.messageHandlers;
    for (var k in hs) {
      for (var p = Object.getPrototypeOf(hs[k]); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
        if (Object.prototype.hasOwnProperty.call(p, "postMessage")) lock(p, "postMessage", blocked);
      }
      lock(hs[k], "postMessage", blocked);
    }
  } catch (e) {}
  for (var o = Object.getPrototypeOf(wk); o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    if (Object.prototype.hasOwnProperty.call(o, "messageHandlers")) lock(o, "messageHandlers", undefined);
  }
  lock(wk, "messageHandlers", undefined);
})();`

// Check is nil once the window's subframes are cut off the IPC bridge, so
// a page may be shown in one (BrowserPreview's pane asks it too: its
// cross-origin frame gets the same message handlers without the guard).
func (g *FrameGuard) Check() error { return g.check() }

// check is nil once fragments may be served in this window.
func (g *FrameGuard) check() error {
	if g.ready.Load() {
		return nil
	}
	return errs.New(errs.ToolFailed, "%s", guardUnavailable())
}
