package desktop

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/viz"
)

// The route fails closed: until the window's frame guard is in, no fragment
// is served, and the card shows why.
func TestVizRouteClosedUntilGuardReady(t *testing.T) {
	app, sid := vizApp(t, map[string]string{"chart.html": `<p id="frag">x</p>`})
	get := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		vizHandler(app, &app.guard).ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/_viz/"+sid+"/chart", nil))
		return rec
	}
	rec := get()
	if rec.Code != http.StatusForbidden || strings.Contains(rec.Body.String(), `id="frag"`) || !strings.Contains(rec.Body.String(), "visualizations are not shown") {
		t.Fatalf("before the guard: %d %q", rec.Code, rec.Body)
	}
	if rec.Header().Get("Content-Security-Policy") != viz.CSP {
		t.Errorf("the refusal lacks the CSP: %q", rec.Header().Get("Content-Security-Policy"))
	}
	app.guard.ready.Store(true)
	if rec := get(); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<p id="frag">x</p>`) {
		t.Fatalf("after the guard: %d %.200s", rec.Code, rec.Body)
	}
}

// guardScript against a window shaped like WebKitGTK's (probed in the real
// window): window.webkit is a non-configurable own value, messageHandlers a
// getter on the namespace's prototype, postMessage on the handler's
// prototype. In a subframe every path to postMessage is cut, whatever the
// page tries afterwards; the top frame keeps its bridge.
func TestGuardScriptCutsTheBridgeInSubframesOnly(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is needed to run the guard script (it comes with the frontend toolchain)")
	}
	harness := `
const guard = process.argv[1];
function frame(isTop) {
  const sent = [];
  class UserMessageHandler { postMessage(m) { sent.push(m); } }
  const handlers = { external: new UserMessageHandler() };
  class WebKitNamespace {}
  Object.defineProperty(WebKitNamespace.prototype, "messageHandlers", { get() { return handlers; }, configurable: true, enumerable: true });
  const w = {};
  w.top = isTop ? w : {};
  Object.defineProperty(w, "webkit", { value: new WebKitNamespace(), writable: false, configurable: false, enumerable: true });
  new Function("window", guard)(w);
  return { w, sent };
}
function attempts(w) {
  const tries = [];
  tries.push(() => w.webkit.messageHandlers.external.postMessage("direct"));
  tries.push(() => {
    for (let o = w.webkit; o; o = Object.getPrototypeOf(o)) {
      const d = Object.getOwnPropertyDescriptor(o, "messageHandlers");
      if (d && d.get) return d.get.call(w.webkit).external.postMessage("getter");
    }
    throw new Error("no getter");
  });
  tries.push(() => { Object.defineProperty(w.webkit, "messageHandlers", { value: 1 }); });
  return tries.map((f) => { try { f(); return "ran"; } catch (e) { return "blocked"; } });
}
const sub = frame(false), top = frame(true);
const out = { sub: attempts(sub.w), subSent: sub.sent.length, top: attempts(top.w).slice(0, 2), topSent: top.sent.length };
console.log(JSON.stringify(out));
`
	out, err := exec.Command(node, "-e", harness, guardScript).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	got := strings.TrimSpace(string(out))
	want := `{"sub":["blocked","blocked","blocked"],"subSent":0,"top":["ran","ran"],"topSent":2}`
	if got != want {
		t.Fatalf("guard script:\n got %s\nwant %s", got, want)
	}
}

// vizApp is the app on a fresh data dir with inline visualizations on and
// one session whose visualization folder holds fragments (name → content).
// The frame guard is not marked ready.
func vizApp(t *testing.T, fragments map[string]string) (*testApp, string) {
	t.Helper()
	data := t.TempDir()
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: data, RgPath: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	s, _ := core.Settings(t.Context())
	s.InlineVisualizations = true
	if _, err := core.UpdateSettings(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	ss, err := core.CreateSession(t.Context(), api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(data, "visualizations", ss.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range fragments {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return &testApp{core: core}, ss.ID
}
