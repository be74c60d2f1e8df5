package preview

import (
	"slices"
	"strings"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/names"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Report bounds: the model needs the first few problems to fix them, not a
// flood (each line is cut too).
const (
	MaxItems     = 10
	MaxItemBytes = 300
	maxTitle     = 200
	maxReport    = 64 << 10 // bytes of a posted report
)

// Report is what a preview page said about itself once loaded.
type Report struct {
	// URL is the page's path under the preview (token removed).
	URL   string `json:"url"`
	Title string `json:"title"`
	// Errors are uncaught errors and unhandled rejections; Failed are
	// requests that failed (resources that did not load, fetches that
	// failed or answered an error, files the server did not have).
	Errors []string `json:"errors"`
	Failed []string `json:"failed"`
}

// page is one preview's server-side state.
type page struct {
	session  string
	token    string
	root     string
	resolver *pathguard.Resolver

	mu       sync.Mutex
	first    *Report
	reported chan struct{} // closed by the first report
	loaded   chan struct{} // closed by the first file request
	gone     chan struct{} // closed when the page is replaced or closed
	missing  []string      // paths the server answered 404 under this token
}

// noteLoad marks that the pane started loading the page.
func (p *page) noteLoad() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.loaded:
	default:
		close(p.loaded)
	}
}

func (p *page) noteMissing(rel string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := "GET " + clean(rel) + " (404)"
	if len(p.missing) < MaxItems && !slices.Contains(p.missing, line) {
		p.missing = append(p.missing, line)
	}
}

// record keeps the first report (later ones come from reloads the tool did
// not wait for).
func (p *page) record(r Report) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first != nil {
		return
	}
	p.first = &r
	close(p.reported)
}

// firstReport merges the page's own report with the 404s the server saw.
func (p *page) firstReport() Report {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := *p.first
	r.Errors = slices.Clone(r.Errors)
	r.Failed = slices.Clone(r.Failed)
	for _, m := range p.missing {
		if len(r.Failed) >= MaxItems {
			break
		}
		if !slices.ContainsFunc(r.Failed, func(f string) bool { return sameResource(f, m) }) {
			r.Failed = append(r.Failed, m)
		}
	}
	return r
}

// sameResource says whether a page-reported failure names the path the
// server already listed (the page says "script x.js", the server "GET x.js
// (404)").
func sameResource(reported, server string) bool {
	path := strings.TrimSuffix(strings.TrimPrefix(server, "GET "), " (404)")
	return strings.Contains(reported, " "+path)
}

// sanitize bounds a posted report and removes the origin and token from
// its text, so neither reaches the model or the transcript.
func sanitize(r Report, base, token string) Report {
	cut := strings.NewReplacer(base, "", "/"+token+"/", "")
	strip := func(s string) string { return clean(cut.Replace(s)) }
	out := Report{URL: truncate.Bytes(strip(r.URL), MaxItemBytes), Title: truncate.BytesEllipsis(strip(r.Title), maxTitle)}
	for _, e := range r.Errors {
		if len(out.Errors) == MaxItems {
			break
		}
		out.Errors = append(out.Errors, truncate.BytesEllipsis(strip(e), MaxItemBytes))
	}
	for _, f := range r.Failed {
		if len(out.Failed) == MaxItems {
			break
		}
		out.Failed = append(out.Failed, truncate.BytesEllipsis(strip(f), MaxItemBytes))
	}
	return out
}

// clean keeps one line of printable text: control and text-direction
// characters become spaces.
func clean(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if names.Hidden(r) {
			return ' '
		}
		return r
	}, s))
}
