package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/names"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// BrowserPreview opens a workspace page, or a dev server on this machine,
// in the window's preview pane (issue 23; spec §2, §2.1, §10).
const BrowserPreview = "BrowserPreview"

// PagePreviewer shows previews in the window; host-core implements it. Each
// call replaces the session's pane and waits (bounded) for the page's
// report.
type PagePreviewer interface {
	// PreviewFile serves target (a workspace .html file) and shows it.
	PreviewFile(ctx context.Context, sessionID string, target pathguard.Resolved) (PreviewOutcome, error)
	// PreviewURL shows a loopback URL (already checked by the tool).
	PreviewURL(ctx context.Context, sessionID, url string) (PreviewOutcome, error)
}

// PreviewOutcome is what the pane (or the host, for a URL) learnt of the
// page.
type PreviewOutcome struct {
	// Reported: the page's reporter answered in time; Errors and Failed
	// are meaningful only then.
	Reported bool
	Title    string
	Errors   []string
	Failed   []string
	// Status is the HTTP status the host got from a URL (0 for a file).
	Status int
	// Waited is how long the host waited for the report.
	Waited time.Duration
}

// NewBrowserPreviewTool returns the BrowserPreview tool showing pages
// through p.
func NewBrowserPreviewTool(p PagePreviewer) Tool { return browserPreviewTool{p: p} }

type browserPreviewTool struct{ p PagePreviewer }

func (browserPreviewTool) Spec() Spec {
	return Spec{
		Name: BrowserPreview,
		Description: "Open a page in the preview pane beside the conversation, so the user sees it and you learn its title, its first uncaught " +
			"errors and its failed requests. Pass path: a workspace .html file, or a folder whose index.html to open (relative " +
			"assets and ES modules load; only workspace files are served, read-only). Or pass url: a dev server on this machine, " +
			"http://localhost:PORT or http://127.0.0.1:PORT only (start it with Bash first). The pane reloads when files under the " +
			"page's folder change; call again to see new errors.",
		Summary: "Open a workspace HTML page (or a localhost dev server) in the preview pane and get its title, errors and failed requests",
		Class:   permission.ClassRead, Risk: permission.Low, Shape: NoPath, Deferred: true,
		Timeout:     30 * time.Second, // the pane may take 15 s to start loading, then 5 s to report
		TimeoutHint: "check that the page loads in a browser (or that the dev server answers) and retry",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "Workspace-relative .html file, or a folder with an index.html."},
    "file_path": {"type": "string", "description": "Alias of path."},
    "url": {"type": "string", "description": "http://localhost:PORT[/path] or http://127.0.0.1:PORT[/path] of a dev server on this machine."}
  },
  "additionalProperties": false
}`),
	}
}

type previewArgs struct {
	Path     string `json:"path"`
	FilePath string `json:"file_path"`
	URL      string `json:"url"`
}

func (t browserPreviewTool) Run(ctx context.Context, c *Call) Result {
	var a previewArgs
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return Failure(errs.Wrap(err, errs.InvalidArgument, "BrowserPreview arguments do not decode"))
	}
	// The alias folds here rather than in the registry: path is not
	// required (url may stand instead). The canonical name wins (spec §4).
	p := strings.TrimSpace(a.Path)
	if p == "" {
		p = strings.TrimSpace(a.FilePath)
	}
	u := strings.TrimSpace(a.URL)
	switch {
	case p == "" && u == "":
		return Failure(errs.New(errs.InvalidArgument, "BrowserPreview needs path (a workspace .html file or folder) or url (http://localhost:PORT)").With("field", "path"))
	case p != "" && u != "":
		return Failure(errs.New(errs.InvalidArgument, "pass path or url to BrowserPreview, not both").With("field", "url"))
	case u != "":
		return t.runURL(ctx, c, u)
	}
	target, err := previewTarget(c.Resolver, p)
	if err != nil {
		return Failure(err)
	}
	if c.Outcome != nil {
		c.Outcome.Path = target.Rel
	}
	o, err := t.p.PreviewFile(ctx, c.SessionID, target)
	if err != nil {
		return Failure(err)
	}
	if o.Title == "" {
		o.Title = fileTitle(c.Resolver, target)
	}
	return Result{OK: true, Root: string(pathguard.Workspace), Path: target.Rel, Content: PreviewText(target.Rel, o),
		Fields: map[string]any{"title": o.Title, "reported": o.Reported}}
}

func (t browserPreviewTool) runURL(ctx context.Context, c *Call, raw string) Result {
	u, err := CheckPreviewURL(raw)
	if err != nil {
		return Failure(err)
	}
	o, err := t.p.PreviewURL(ctx, c.SessionID, u)
	if err != nil {
		return Failure(err)
	}
	return Result{OK: true, Content: PreviewText(u, o), Fields: map[string]any{"url": u, "title": o.Title, "status": o.Status}}
}

// previewTarget resolves a path argument to the workspace page to serve:
// workspace files only, in every mode (spec §4b: BrowserPreview stays
// workspace-relative), and a folder means its index.html.
func previewTarget(rv *pathguard.Resolver, p string) (pathguard.Resolved, error) {
	if rv == nil {
		return pathguard.Resolved{}, errs.New(errs.Internal, "BrowserPreview ran without the session's roots")
	}
	r, err := rv.Resolve(p)
	if err != nil {
		return pathguard.Resolved{}, err
	}
	if r.Root != pathguard.Workspace {
		return pathguard.Resolved{}, errs.New(errs.PathOutsideWorkspace,
			"BrowserPreview shows only files of the session's project workspace, and %s is not one (scratch, visualization, skill and outside paths, and links leading there, are never served); write the page into the workspace and pass its relative path", clipName(p)).
			With("field", "path")
	}
	fi, err := rv.Stat(r)
	if err != nil {
		return pathguard.Resolved{}, errs.Wrap(err, errs.NotFound, "%s does not exist in the workspace; write the page first, or check the path with Glob", clipName(p)).With("field", "path")
	}
	if fi.IsDir() {
		if r, err = rv.Resolve(filepath.Join(p, "index.html")); err != nil {
			return pathguard.Resolved{}, err
		}
		if r.Root != pathguard.Workspace {
			return previewTarget(rv, filepath.Join(p, "index.html")) // the same refusal, named by the file
		}
		if fi, err = rv.Stat(r); err != nil {
			return pathguard.Resolved{}, errs.New(errs.NotFound, "the folder %s has no index.html; pass the page's own path", clipName(p)).With("field", "path")
		}
	}
	ext := strings.ToLower(path.Ext(r.Rel))
	if !fi.Mode().IsRegular() || (ext != ".html" && ext != ".htm") {
		return pathguard.Resolved{}, errs.New(errs.InvalidArgument, "BrowserPreview opens .html pages (or a folder's index.html), not %s; pass the page that loads it", clipName(p)).With("field", "path")
	}
	return r, nil
}

// CheckPreviewURL accepts only a dev server on this machine:
// http://localhost:PORT or http://127.0.0.1:PORT, with an optional path and
// query. Not https (a local dev server rarely has a certificate the pane
// trusts), not 0.0.0.0 (a listen address, not a place), not [::1] or other
// loopback spellings (one spelling per place keeps the check simple), no
// user info. It returns the URL as the pane loads it.
func CheckPreviewURL(raw string) (string, error) {
	bad := func(why string) (string, error) {
		return "", errs.New(errs.InvalidArgument, "BrowserPreview opens only http://localhost:PORT or http://127.0.0.1:PORT (a dev server on this machine); %s %s. For a workspace page pass path instead", clipName(raw), why).With("field", "url")
	}
	if len(raw) > maxPreviewURL {
		return bad(fmt.Sprintf("is longer than %d bytes", maxPreviewURL))
	}
	u, err := url.Parse(raw)
	if err != nil {
		return bad("is not a URL")
	}
	if u.Scheme != "http" {
		return bad("is not http://")
	}
	if u.User != nil || u.Opaque != "" {
		return bad("carries user info")
	}
	host, port, err := net.SplitHostPort(u.Host)
	if err != nil {
		return bad("names no port")
	}
	if host != "localhost" && host != "127.0.0.1" {
		return bad("is not localhost or 127.0.0.1")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
		return bad("has no valid port")
	}
	u.Fragment = ""
	return u.String(), nil
}

// maxPreviewURL bounds a url argument: it is echoed in the result, the
// pane and the audit row.
const maxPreviewURL = 2048

// PreviewText is what the model reads: what was opened, its title, and
// the page's first problems (or that the pane did not report).
func PreviewText(opened string, o PreviewOutcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Opened %s in the preview pane.\n", opened)
	if o.Status != 0 {
		fmt.Fprintf(&b, "HTTP status: %d\n", o.Status)
	}
	if o.Title != "" {
		fmt.Fprintf(&b, "Title: %s\n", o.Title)
	} else {
		b.WriteString("Title: (none)\n")
	}
	if !o.Reported {
		if o.Status != 0 {
			b.WriteString("No report from the pane: pages from a dev server carry no error reporter, so their errors are not seen here; check the dev server's output with BashOutput.\n")
		} else {
			fmt.Fprintf(&b, "No report from the pane within %s: the page may still be loading, or the window is not showing it; its errors and failed requests are unknown.\n", o.Waited.Round(time.Second))
		}
		return b.String()
	}
	list := func(name string, items []string) {
		if len(items) == 0 {
			fmt.Fprintf(&b, "%s: none\n", name)
			return
		}
		if len(items) >= previewListMax {
			fmt.Fprintf(&b, "%s (the first %d):\n", name, len(items))
		} else {
			fmt.Fprintf(&b, "%s (%d):\n", name, len(items))
		}
		for _, it := range items {
			fmt.Fprintf(&b, "- %s\n", truncate.BytesEllipsis(it, 300))
		}
	}
	list("Uncaught errors", o.Errors)
	list("Failed requests", o.Failed)
	return b.String()
}

// previewListMax is the host's bound on each list (backend/preview): a
// list that long may have been cut.
const previewListMax = 10

var titleRE = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)

// fileTitle reads a page's <title> from its first 64 KiB (when the pane
// did not say).
func fileTitle(rv *pathguard.Resolver, r pathguard.Resolved) string {
	f, err := rv.OpenFile(r, readOnly, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	return HTMLTitle(head)
}

// HTMLTitle is the text of the first <title> in page, unescaped, on one
// line and bounded.
func HTMLTitle(page []byte) string {
	m := titleRE.FindSubmatch(page)
	if m == nil {
		return ""
	}
	// A dev server's title is untrusted text on its way to the model and
	// the window: control and text-direction characters become spaces.
	t := strings.Map(func(r rune) rune {
		if names.Hidden(r) {
			return ' '
		}
		return r
	}, html.UnescapeString(string(m[1])))
	return truncate.BytesEllipsis(strings.Join(strings.Fields(t), " "), 200)
}
