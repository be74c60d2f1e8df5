package hostcore_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// URL previews: the preview server's own port is never a "dev server"
// (its paths are other sessions' previews), whatever the dev server
// answers comes back bounded, and one that never answers costs a bounded
// wait.
func TestBrowserPreviewURLHardening(t *testing.T) {
	e := newPreviewEnv(t, guardReady, pageReport)
	// Start the preview server with a file preview, then aim a URL at it.
	first := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "site"})
	if !first.OK {
		t.Fatalf("file preview = %+v", first)
	}
	own := e.core.Preview(e.session.ID).URL
	for _, u := range []string{own, strings.Replace(own, "127.0.0.1", "localhost", 1)} {
		res := e.call(e.other.ID, tools.BrowserPreview, map[string]any{"url": u})
		if res.OK || res.Code != errs.InvalidArgument || !strings.Contains(res.Message, "own preview server") {
			t.Errorf("the preview server as a URL (%s): %+v", u, res)
		}
	}
	if e.core.Preview(e.other.ID) != nil {
		t.Error("a refused URL opened the other session's pane")
	}

	// /hang answers nothing until the client gives up; its handler says
	// when the request ended, and never outlives the test.
	gaveUp := make(chan struct{}, 1)
	dev := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			_, _ = io.WriteString(w, "<title>"+strings.Repeat("T\x1b[31m ", 4000)+"</title>"+strings.Repeat("x", 4<<20))
		case "/broken":
			http.Error(w, strings.Repeat("stack trace line\n", 10000), http.StatusInternalServerError)
		case "/hang":
			<-r.Context().Done()
			gaveUp <- struct{}{}
		}
	}))
	defer dev.Close()

	big := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"url": dev.URL + "/big"})
	if !big.OK || len(big.Content) > 1024 || strings.Contains(big.Content, "\x1b") {
		t.Errorf("a huge title came back unbounded (%d bytes): %+v", len(big.Content), big)
	}
	broken := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"url": dev.URL + "/broken"})
	if !broken.OK || !strings.Contains(broken.Content, "HTTP status: 500") || len(broken.Content) > 1024 {
		t.Errorf("a failing dev server: %+v", broken)
	}
	start := time.Now()
	hung := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"url": dev.URL + "/hang"})
	waited := time.Since(start)
	if hung.OK || hung.Code != errs.ToolFailed || !strings.Contains(hung.Message, "nothing answered") || len(hung.Message) > 1024 {
		t.Errorf("a dev server that never answers: %+v", hung)
	}
	// The host hung up on it: the probe's deadline, not the tool's 30 s
	// timeout or the test's, ended the request.
	select {
	case <-gaveUp:
	case <-time.After(10 * time.Second):
		t.Fatal("the hung request was never ended by the host")
	}
	if waited > 10*time.Second {
		t.Errorf("waited %s for a hung dev server (the probe gives it 3 s)", waited)
	}
	if s := e.core.Preview(e.session.ID); s == nil || !strings.HasSuffix(s.URL, "/broken") {
		t.Errorf("a dev server that never answered replaced the pane: %+v", s)
	}
}
