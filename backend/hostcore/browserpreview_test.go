package hostcore_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// pane stands in for the window's preview pane: on preview:opened it loads
// the page over real HTTP (what the iframe does) and, when told to, posts
// the report the injected script would.
type pane struct {
	t      *testing.T
	report string // JSON to post; "" = the page never reports
	mu     sync.Mutex
	events []string
	states []api.PreviewState
	bodies map[string]string // by URL: what the pane was served
	cards  int
	core   *hostcore.Core // denies an unexpected card, so its call ends
	// held, when set, gets each file preview the pane is shown instead of
	// the pane loading it: the test loads it when it chooses.
	held chan api.PreviewState
}

func (p *pane) Emit(event string, payload any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch event {
	case permission.EventRequest:
		// BrowserPreview is allowed in Agent, Plan and Goal (spec §10), and
		// nothing else these tests call needs a card: any card fails the
		// test, and is denied so that its call ends.
		p.cards++
		req := payload.(permission.Request)
		p.t.Errorf("unexpected card: %s in session %s (%s)", req.Tool, req.SessionID, req.Reason)
		go func() { _ = p.core.ResolveApproval(req.SessionID, req.ID, permission.Denied) }()
	case api.EventPreviewOpened, api.EventPreviewReload:
		s := payload.(api.PreviewState)
		p.events, p.states = append(p.events, event), append(p.states, s)
		if event == api.EventPreviewOpened && s.Kind == api.PreviewFile {
			if p.held == nil {
				go p.load(s.URL)
				break
			}
			select {
			case p.held <- s:
			default:
				p.t.Errorf("the test holds no room for the preview of %s", s.Target)
			}
		}
	case api.EventPreviewClosed:
		p.events = append(p.events, event)
	}
}

func (p *pane) load(page string) {
	res, err := http.Get(page)
	if err != nil {
		p.t.Errorf("the pane could not load %s: %v", page, err)
		return
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	p.mu.Lock()
	p.bodies[page] = fmt.Sprintf("%d %s", res.StatusCode, body)
	report := p.report
	p.mu.Unlock()
	if report == "" {
		return
	}
	u, _ := url.Parse(page)
	token := strings.Split(strings.TrimPrefix(u.Path, "/"), "/")[0]
	r, err := http.Post(u.Scheme+"://"+u.Host+"/"+token+"/__pi_preview/report", "application/json", strings.NewReader(strings.ReplaceAll(report, "TOKEN", token)))
	if err != nil {
		p.t.Errorf("report: %v", err)
		return
	}
	r.Body.Close()
}

func (p *pane) snapshot() ([]string, []api.PreviewState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.events...), append([]api.PreviewState(nil), p.states...)
}

type previewEnv struct {
	*env
	pane *pane
	// other is a second project's session: the one the window shows while
	// the first session's agent calls BrowserPreview.
	other   api.Session
	otherWS string
	data    string
}

func newPreviewEnv(t *testing.T, guard func() error, report string) *previewEnv {
	t.Helper()
	return newPreviewEnvWaiting(t, guard, report, 2*time.Second)
}

// newPreviewEnvWaiting is newPreviewEnv whose calls wait up to wait for a
// page's report (and three times that for the pane to load it).
func newPreviewEnvWaiting(t *testing.T, guard func() error, report string, wait time.Duration) *previewEnv {
	t.Helper()
	root := t.TempDir()
	pe := &previewEnv{env: &env{t: t, project: filepath.Join(root, "proj"), outside: filepath.Join(root, "outside")},
		pane: &pane{t: t, report: report, bodies: map[string]string{}}, otherWS: filepath.Join(root, "other"), data: filepath.Join(root, "data")}
	for _, d := range []string{pe.project, pe.outside, pe.otherWS, filepath.Join(pe.project, "site", "js")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(pe.project, "site", "index.html"), "<!doctype html><html><head><title>Project one</title></head><body><script type=module src=js/app.js></script></body></html>")
	write(t, filepath.Join(pe.project, "site", "js", "app.js"), "export {};")
	write(t, filepath.Join(pe.project, "notes.txt"), "not a page")
	write(t, filepath.Join(pe.otherWS, "site.html"), "<title>Project two</title>")
	write(t, filepath.Join(pe.outside, "evil.html"), "<title>outside</title>")
	if err := os.Symlink(filepath.Join(pe.outside, "evil.html"), filepath.Join(pe.project, "link.html")); err != nil {
		t.Fatal(err)
	}
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: pe.data, Sink: pe.pane, RgPath: "-",
		PreviewGuard: guard, PreviewWait: wait})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	pe.core = core
	pe.pane.mu.Lock()
	pe.pane.core = core
	pe.pane.mu.Unlock()
	for _, s := range []struct {
		dir  string
		into *api.Session
	}{{pe.project, &pe.session}, {pe.otherWS, &pe.other}} {
		p, err := core.AddProject(t.Context(), s.dir)
		if err != nil {
			t.Fatal(err)
		}
		if *s.into, err = core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	return pe
}

func guardReady() error { return nil }

const pageReport = `{"url":"/TOKEN/site/index.html","title":"Project one","errors":["TypeError: x is undefined (/TOKEN/site/js/app.js:3:7)"],"failed":["script /TOKEN/site/js/missing.js"]}`

// The page of the calling session's own workspace is served and reported
// back, while another project's session was created (and used) last.
func TestBrowserPreviewOpensTheCallingSessionsPage(t *testing.T) {
	e := newPreviewEnv(t, guardReady, pageReport)
	// The other session was used last (the window shows it).
	if r := e.call(e.other.ID, "Read", map[string]any{"path": "site.html"}); !r.OK {
		t.Fatalf("Read in the visible session: %+v", r)
	}
	res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"file_path": "site"})
	if !res.OK || res.Path != "site/index.html" || res.Root != "workspace" || res.Decision != "allow" {
		t.Fatalf("BrowserPreview = %+v", res)
	}
	golden.Assert(t, filepath.Join("testdata", "browserpreview_reported.golden"), res.Content)
	events, states := e.pane.snapshot()
	if len(events) != 1 || events[0] != api.EventPreviewOpened {
		t.Fatalf("events = %v", events)
	}
	s := states[0]
	if s.SessionID != e.session.ID || s.Kind != api.PreviewFile || s.Target != "site/index.html" || !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Errorf("state = %+v", s)
	}
	e.pane.mu.Lock()
	body := e.pane.bodies[s.URL]
	e.pane.mu.Unlock()
	if !strings.HasPrefix(body, "200 ") || !strings.Contains(body, "<title>Project one</title>") || !strings.Contains(body, "__pi_preview/reporter.js") {
		t.Errorf("the pane was served %q", body)
	}
	if got := e.core.Preview(e.session.ID); got == nil || got.URL != s.URL || got.Title != "Project one" {
		t.Errorf("Preview = %+v", got)
	}
	if got := e.core.Preview(e.other.ID); got != nil {
		t.Errorf("the visible session got a pane: %+v", got)
	}
	// The module next to it loads with a JavaScript type.
	mod, err := http.Get(strings.Replace(s.URL, "index.html", "js/app.js", 1))
	if err != nil {
		t.Fatal(err)
	}
	mod.Body.Close()
	if mod.StatusCode != 200 || mod.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("module: %d %q", mod.StatusCode, mod.Header.Get("Content-Type"))
	}

	// Live reload: a change under the page's folder bumps the revision.
	write(t, filepath.Join(e.project, "site", "js", "app.js"), "export const v = 2;")
	deadline := time.Now().Add(5 * time.Second)
	for {
		events, states = e.pane.snapshot()
		if len(events) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no reload event: %v", events)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if events[1] != api.EventPreviewReload || states[1].Revision != 1 || states[1].URL != s.URL {
		t.Errorf("reload = %v %+v", events[1], states[1])
	}

	// Closing ends the token.
	e.core.ClosePreview(e.session.ID)
	gone, err := http.Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	gone.Body.Close()
	if gone.StatusCode != http.StatusNotFound || e.core.Preview(e.session.ID) != nil {
		t.Errorf("after close: %d %+v", gone.StatusCode, e.core.Preview(e.session.ID))
	}
	if events, _ := e.pane.snapshot(); events[len(events)-1] != api.EventPreviewClosed {
		t.Errorf("events = %v", events)
	}
}

func TestBrowserPreviewWithoutReport(t *testing.T) {
	e := newPreviewEnv(t, guardReady, "")
	res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "site/index.html"})
	if !res.OK {
		t.Fatalf("BrowserPreview = %+v", res)
	}
	golden.Assert(t, filepath.Join("testdata", "browserpreview_noreport.golden"), res.Content)
}

func TestBrowserPreviewServesOnlyTheWorkspace(t *testing.T) {
	for _, mode := range []string{api.PermissionAsk, api.PermissionAuto} {
		t.Run(mode, func(t *testing.T) {
			e := newPreviewEnv(t, guardReady, pageReport)
			e.configure(api.ModeAgent, mode)
			scratch := filepath.Join(e.data, "scratch", e.session.ID)
			if err := os.MkdirAll(scratch, 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(scratch, "s.html"), "<title>scratch</title>")
			tests := []struct {
				name string
				args map[string]any
				code errs.Code
			}{
				{"outside", map[string]any{"path": filepath.Join(e.outside, "evil.html")}, errs.PathOutsideWorkspace},
				{"dot dot", map[string]any{"path": "../outside/evil.html"}, errs.PathOutsideWorkspace},
				{"link out", map[string]any{"path": "link.html"}, errs.PathOutsideWorkspace},
				{"scratch", map[string]any{"path": filepath.Join(scratch, "s.html")}, errs.PathOutsideWorkspace},
				{"data folder", map[string]any{"path": filepath.Join(e.data, "pi-desktop.db")}, errs.PathProtected},
				{"not a page", map[string]any{"path": "notes.txt"}, errs.InvalidArgument},
				{"missing", map[string]any{"path": "nope.html"}, errs.NotFound},
				{"folder without index", map[string]any{"path": "site/js"}, errs.NotFound},
				{"neither", map[string]any{}, errs.InvalidArgument},
				{"both", map[string]any{"path": "site", "url": "http://localhost:3000"}, errs.InvalidArgument},
				{"https", map[string]any{"url": "https://localhost:3000/"}, errs.InvalidArgument},
				{"remote host", map[string]any{"url": "http://example.com:80/"}, errs.InvalidArgument},
				{"any address", map[string]any{"url": "http://0.0.0.0:3000/"}, errs.InvalidArgument},
				{"ipv6 loopback", map[string]any{"url": "http://[::1]:3000/"}, errs.InvalidArgument},
				{"no port", map[string]any{"url": "http://localhost/"}, errs.InvalidArgument},
				{"user info", map[string]any{"url": "http://a@localhost:3000/"}, errs.InvalidArgument},
				{"file url", map[string]any{"url": "file:///etc/passwd"}, errs.InvalidArgument},
				{"lookalike host", map[string]any{"url": "http://localhost.evil.com:3000/"}, errs.InvalidArgument},
			}
			for _, tt := range tests {
				res := e.call(e.session.ID, tools.BrowserPreview, tt.args)
				if res.OK || res.Code != tt.code {
					t.Errorf("%s: %+v, want %s", tt.name, res, tt.code)
				}
				if strings.Contains(res.Message, "outside\n") || strings.Contains(res.Content, "<title>outside") {
					t.Errorf("%s leaked the file: %+v", tt.name, res)
				}
			}
			if events, _ := e.pane.snapshot(); len(events) != 0 {
				t.Errorf("refused calls opened the pane: %v", events)
			}
			if e.pane.cards != 0 {
				t.Errorf("refused calls showed %d cards", e.pane.cards)
			}
		})
	}
}

func TestBrowserPreviewTemporarySessionHasNoWorkspacePages(t *testing.T) {
	e := newPreviewEnv(t, guardReady, pageReport)
	tmp, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}
	if r := e.call(tmp.ID, "Write", map[string]any{"path": "p.html", "content": "<title>t</title>"}); !r.OK {
		t.Fatalf("Write = %+v", r)
	}
	if res := e.call(tmp.ID, tools.BrowserPreview, map[string]any{"path": "p.html"}); res.OK || res.Code != errs.PathOutsideWorkspace {
		t.Fatalf("BrowserPreview in a temporary session = %+v", res)
	}
}

func TestBrowserPreviewInPlanAndGoal(t *testing.T) {
	for _, mode := range []string{api.ModePlan, api.ModeGoal} {
		e := newPreviewEnv(t, guardReady, pageReport)
		e.configure(mode, api.PermissionAsk)
		if res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "site"}); !res.OK {
			t.Errorf("%s: %+v", mode, res)
		}
	}
}

func TestBrowserPreviewNeedsTheGuardedWindow(t *testing.T) {
	for name, guard := range map[string]func() error{
		"no window":  nil,
		"no guard":   func() error { return errs.New(errs.ToolFailed, "the frame guard did not install") },
		"guard fail": func() error { return errors.New("boom") },
	} {
		e := newPreviewEnv(t, guard, pageReport)
		res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"path": "site"})
		if res.OK || res.Code != errs.ToolFailed {
			t.Errorf("%s: %+v", name, res)
		}
		if events, _ := e.pane.snapshot(); len(events) != 0 {
			t.Errorf("%s: the pane opened: %v", name, events)
		}
	}
}

func TestBrowserPreviewDevServer(t *testing.T) {
	e := newPreviewEnv(t, guardReady, "")
	dev := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "<html><head><title> Vite &amp; app </title></head></html>")
	}))
	defer dev.Close()
	u := strings.Replace(dev.URL, "127.0.0.1", "localhost", 1) + "/#top"
	res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"url": u})
	if !res.OK {
		t.Fatalf("BrowserPreview = %+v", res)
	}
	want := strings.TrimSuffix(u, "#top")
	golden.Assert(t, filepath.Join("testdata", "browserpreview_url.golden"), strings.ReplaceAll(res.Content, want, "http://localhost:PORT/"))
	if s := e.core.Preview(e.session.ID); s == nil || s.URL != want || s.Kind != api.PreviewURL || s.Title != "Vite & app" {
		t.Errorf("Preview = %+v", s)
	}
	dev.Close()
	if res := e.call(e.session.ID, tools.BrowserPreview, map[string]any{"url": want}); res.OK || res.Code != errs.ToolFailed {
		t.Errorf("a stopped dev server: %+v", res)
	}
}
