package hostcore_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/viz"
)

func (e *env) setViz(on bool) {
	e.t.Helper()
	s, err := e.core.Settings(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	s.InlineVisualizations = on
	if _, err := e.core.UpdateSettings(e.t.Context(), s); err != nil {
		e.t.Fatal(err)
	}
}

// A fragment written by the agent is checked in the Write result and served
// by the /_viz route of its own session only, and only while the feature is on.
func TestVisualizationWriteAndServe(t *testing.T) {
	e := newEnv(t)
	e.setViz(true)
	dir := filepath.Join(e.core.Info().DataDir, "visualizations", e.session.ID)
	frag := "<div id=\"chart\"></div>\n<script>\nviz.bar('chart', [{label: 'a', value: 1}]);\ndocument.getElementById('legend');\n</script>\n"
	res := e.call(e.session.ID, "Write", map[string]any{"path": filepath.Join(dir, "sales.html"), "content": frag})
	if !res.OK || res.Root != "visualization" {
		t.Fatalf("Write = %+v", res)
	}
	if !strings.Contains(res.Content, "visualization check: 1 problem\n- line 4: document.getElementById('legend') targets id \"legend\"") ||
		!strings.Contains(res.Content, `::visualize{"path":"`+filepath.Join(dir, "sales.html")) {
		t.Errorf("Write result lacks the check:\n%s", res.Content)
	}
	if c, ok := res.Fields["vizCheck"].(viz.Report); !ok || len(c.Problems) != 1 || c.Scripts != 1 {
		t.Errorf("vizCheck = %#v", res.Fields["vizCheck"])
	}
	if r := e.call(e.session.ID, "Write", map[string]any{"path": filepath.Join(dir, "con.html"), "content": "x"}); r.OK {
		t.Errorf("a device name was written: %+v", r)
	}

	h := viz.NewHandler(e.core)
	serve := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, target, nil))
		return rec
	}
	rec := serve("/_viz/" + e.session.ID + "/sales")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), frag) || rec.Header().Get("Content-Security-Policy") != viz.CSP {
		t.Fatalf("serve = %d %v", rec.Code, rec.Header())
	}
	other, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID})
	if err != nil {
		t.Fatal(err)
	}
	if rec := serve("/_viz/" + other.ID + "/sales"); rec.Code != http.StatusNotFound {
		t.Errorf("another session's route served %d", rec.Code)
	}
	if rec := serve("/_viz/no-such-session/sales"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown session served %d", rec.Code)
	}
	e.setViz(false)
	if rec := serve("/_viz/" + e.session.ID + "/sales"); rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "chart") {
		t.Errorf("served while off: %d %s", rec.Code, rec.Body)
	}
}
