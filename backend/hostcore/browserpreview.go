package hostcore

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/preview"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// Preview timing: how long BrowserPreview waits for the pane's report (the
// page loads, then reports 300 ms after its load event), and how long a
// dev server gets to answer the host's own look.
const (
	defaultPreviewWait = 5 * time.Second
	previewProbeWait   = 3 * time.Second
	// loadWaits: how many report waits the pane gets to start loading.
	loadWaits = 3
)

// previewPanes is each session's open preview and its live-reload watch.
type previewPanes struct {
	mu       sync.Mutex
	open     map[string]api.PreviewState
	watchers map[string]*preview.Watcher
	// showing serialises opening (serve, watch, show) and closing, so the
	// session's last Open is also the pane's last show: of two calls at
	// once the later wins, and a replaced call's watch never outlives it.
	showing sync.Mutex
	closed  bool // the core is closing: nothing is shown any more
}

// previewHost is the Core as BrowserPreview's tools.PagePreviewer.
type previewHost struct{ c *Core }

// PreviewFile serves target from the session's workspace (the root the
// pipeline resolved from the calling session, never the visible one),
// shows it in the session's pane, watches its folder and waits for the
// page's report.
func (h previewHost) PreviewFile(ctx context.Context, sessionID string, target pathguard.Resolved) (tools.PreviewOutcome, error) {
	c := h.c
	if err := c.previewWindow(); err != nil {
		return tools.PreviewOutcome{}, err
	}
	c.panes.showing.Lock()
	page, err := c.previews.Open(sessionID, target.RootDir)
	if err != nil {
		c.panes.showing.Unlock()
		return tools.PreviewOutcome{}, err
	}
	state := api.PreviewState{SessionID: sessionID, Kind: api.PreviewFile, URL: page.URL(target.Rel), Target: target.Rel}
	var w *preview.Watcher
	if w, err = preview.Watch(filepath.Dir(target.Abs), func() { c.reloadPreview(sessionID, page.Token) }); err != nil {
		c.log.Warn("preview live reload", "code", errs.CodeOf(err), "err", err)
	}
	c.showPreview(state, w)
	c.panes.showing.Unlock()
	wait := c.cfg.PreviewWait
	if wait <= 0 {
		wait = defaultPreviewWait
	}
	// The report is due wait after the pane starts loading the page; a busy
	// window may take a while to start (the pane gets loadWaits times
	// that).
	start := time.Now()
	lctx, cancelLoad := context.WithTimeout(ctx, loadWaits*wait)
	loaded := c.previews.AwaitLoad(lctx, page.Token)
	cancelLoad()
	var (
		rep preview.Report
		ok  bool
	)
	if loaded {
		wctx, cancel := context.WithTimeout(ctx, wait)
		rep, ok = c.previews.Await(wctx, page.Token)
		cancel()
	}
	if ctx.Err() != nil {
		return tools.PreviewOutcome{}, errs.New(errs.ToolAborted, "stopped while waiting for the preview to load; the pane still shows it")
	}
	if !c.previews.Live(page.Token) {
		return tools.PreviewOutcome{}, c.notShown(sessionID, target.Rel)
	}
	o := tools.PreviewOutcome{Reported: ok, Title: rep.Title, Errors: rep.Errors, Failed: rep.Failed, Waited: time.Since(start)}
	switch {
	case !loaded:
		o.Waited = loadWaits * wait
	case !ok:
		o.Waited = wait
	}
	if o.Title != "" {
		c.retitlePreview(sessionID, page.URL(target.Rel), o.Title)
	}
	return o, nil
}

// PreviewURL shows a dev server on this machine (the tool checked the URL)
// after looking at it once from the host for its status and title.
func (h previewHost) PreviewURL(ctx context.Context, sessionID, url string) (tools.PreviewOutcome, error) {
	c := h.c
	if err := c.previewWindow(); err != nil {
		return tools.PreviewOutcome{}, err
	}
	if c.previews.ServesURL(url) {
		return tools.PreviewOutcome{}, errs.New(errs.InvalidArgument, "%s is PI-Desktop's own preview server, not a dev server; to preview a workspace page pass its path instead", url).With("field", "url")
	}
	status, head, err := preview.Probe(ctx, url, previewProbeWait)
	if err != nil {
		return tools.PreviewOutcome{}, errs.New(errs.ToolFailed, "nothing answered at %s (%v); start the dev server with Bash (run_in_background) and check its output for the port", url, err).With("field", "url")
	}
	title := tools.HTMLTitle(head)
	c.panes.showing.Lock()
	c.closeSessionPreview(sessionID) // a file preview before it stops being served
	c.showPreview(api.PreviewState{SessionID: sessionID, Kind: api.PreviewURL, URL: url, Target: url, Title: title}, nil)
	c.panes.showing.Unlock()
	return tools.PreviewOutcome{Title: title, Status: status}, nil
}

// previewWindow fails unless a window with its frame guard shows previews:
// a page must never load in a frame that could still reach the app's
// bound methods, and the CLI has no pane at all.
func (c *Core) previewWindow() error {
	if c.cfg.PreviewGuard == nil {
		return errs.New(errs.ToolFailed, "BrowserPreview shows pages in the PI-Desktop window, and this run has none (the command line); open the page in a browser yourself")
	}
	if err := c.cfg.PreviewGuard(); err != nil {
		return errs.New(errs.ToolFailed, "the preview pane is not available in this window: %s", errs.ToPayload(err).Message)
	}
	return nil
}

// notShown is the result of a file preview whose page left the pane
// before it reported: a later call of the session replaced it, or the
// user closed the pane. The pane is read under c.panes.showing, so a
// replacement under way (its page already dropped, the pane not yet
// shown) is seen once it is done.
func (c *Core) notShown(sessionID, rel string) error {
	c.panes.showing.Lock()
	cur := c.Preview(sessionID)
	c.panes.showing.Unlock()
	if cur != nil {
		return errs.New(errs.Conflict, "%s was replaced in the preview pane by a later BrowserPreview call of this session (now showing %s) before it reported; call BrowserPreview again for %s if you still need its errors", rel, cur.Target, rel).With("field", "path")
	}
	return errs.New(errs.Conflict, "the preview pane of %s was closed before the page reported; call BrowserPreview again if you still need its errors", rel).With("field", "path")
}

// showPreview makes state the session's pane, replacing its watcher, and
// announces it. Callers hold c.panes.showing.
func (c *Core) showPreview(state api.PreviewState, w *preview.Watcher) {
	if c.panes.closed {
		if w != nil {
			w.Close()
		}
		return
	}
	c.panes.mu.Lock()
	old := c.panes.watchers[state.SessionID]
	if c.panes.open == nil {
		c.panes.open, c.panes.watchers = map[string]api.PreviewState{}, map[string]*preview.Watcher{}
	}
	c.panes.open[state.SessionID] = state
	if w != nil {
		c.panes.watchers[state.SessionID] = w
	} else {
		delete(c.panes.watchers, state.SessionID)
	}
	c.panes.mu.Unlock()
	if old != nil {
		old.Close()
	}
	c.emit(api.EventPreviewOpened, state)
}

func (c *Core) retitlePreview(sessionID, url, title string) {
	c.panes.mu.Lock()
	defer c.panes.mu.Unlock()
	if s, ok := c.panes.open[sessionID]; ok && s.URL == url {
		s.Title = title
		c.panes.open[sessionID] = s
	}
}

// reloadPreview bumps the pane's revision after its files changed, unless
// a newer preview replaced the one the watcher belongs to.
func (c *Core) reloadPreview(sessionID, token string) {
	c.panes.mu.Lock()
	cur, ok := c.previews.Current(sessionID)
	s, open := c.panes.open[sessionID]
	if !ok || !open || cur.Token != token {
		c.panes.mu.Unlock()
		return
	}
	s.Revision++
	c.panes.open[sessionID] = s
	c.panes.mu.Unlock()
	c.emit(api.EventPreviewReload, s)
}

// Preview is the session's open preview, or nil (the pane asks when the
// window shows a session).
func (c *Core) Preview(sessionID string) *api.PreviewState {
	c.panes.mu.Lock()
	defer c.panes.mu.Unlock()
	if s, ok := c.panes.open[sessionID]; ok {
		return &s
	}
	return nil
}

// ClosePreview ends the session's preview: its token stops working, its
// watch ends, and the pane closes (preview:closed).
func (c *Core) ClosePreview(sessionID string) {
	c.panes.showing.Lock()
	defer c.panes.showing.Unlock()
	if c.closeSessionPreview(sessionID) {
		c.emit(api.EventPreviewClosed, api.PreviewClosed{SessionID: sessionID})
	}
}

// forgetPreview ends a session's preview without a word (the session is
// going away).
func (c *Core) forgetPreview(sessionID string) {
	c.panes.showing.Lock()
	defer c.panes.showing.Unlock()
	c.closeSessionPreview(sessionID)
}

// closeSessionPreview ends the session's preview; callers hold
// c.panes.showing.
func (c *Core) closeSessionPreview(sessionID string) bool {
	c.panes.mu.Lock()
	_, open := c.panes.open[sessionID]
	w := c.panes.watchers[sessionID]
	delete(c.panes.open, sessionID)
	delete(c.panes.watchers, sessionID)
	c.panes.mu.Unlock()
	c.previews.Close(sessionID)
	if w != nil {
		w.Close()
	}
	return open
}

// OpenPreviewInBrowser opens the session's preview in the system browser:
// only that URL, never one the caller names.
func (c *Core) OpenPreviewInBrowser(sessionID string) error {
	s := c.Preview(sessionID)
	if s == nil {
		return errs.New(errs.NotFound, "this session has no open preview; ask the agent to open one with BrowserPreview")
	}
	if c.cfg.OpenBrowser == nil {
		return errs.New(errs.ToolFailed, "there is no system browser to open from here")
	}
	return c.cfg.OpenBrowser(s.URL)
}

// closePreviews ends every preview and the server (Close).
func (c *Core) closePreviews() {
	c.panes.showing.Lock()
	c.panes.closed = true
	c.panes.showing.Unlock()
	c.panes.mu.Lock()
	ws := c.panes.watchers
	c.panes.open, c.panes.watchers = nil, nil
	c.panes.mu.Unlock()
	for _, w := range ws {
		w.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = c.previews.Shutdown(ctx)
}
