package viz

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// folders maps session ids to visualization folders, like host-core does:
// an unknown session (or the feature off) is an error.
type folders map[string]string

func (f folders) VisualizationDir(_ context.Context, id string) (string, error) {
	if d, ok := f[id]; ok {
		return d, nil
	}
	return "", errs.New(errs.SessionNotFound, "session %s not found", id)
}

// vizTree builds <tmp>/visualizations/{s1,s2} with a fragment in each.
func vizTree(t *testing.T) (base string, f folders) {
	t.Helper()
	base = filepath.Join(t.TempDir(), "visualizations")
	for _, s := range []string{"s1", "s2"} {
		if err := os.MkdirAll(filepath.Join(base, s), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(base, "s1", "chart.html"), `<div id="chart"></div><script>viz.bar("chart",[{x:"a",y:1}])</script>`)
	write(t, filepath.Join(base, "s2", "secret.html"), `<p>session two</p>`)
	return base, folders{"s1": filepath.Join(base, "s1"), "s2": filepath.Join(base, "s2"), "s3": filepath.Join(base, "s3")}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, h http.Handler, method, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), method, target, nil))
	return rec
}

func TestServeFragment(t *testing.T) {
	_, f := vizTree(t)
	rec := get(t, NewHandler(f), http.MethodGet, "/_viz/s1/chart?theme=dark")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	h := rec.Header()
	if got := h.Get("Content-Security-Policy"); got != CSP {
		t.Errorf("CSP = %q", got)
	}
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"sandbox allow-scripts", "default-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	for _, never := range []string{"allow-same-origin", "connect-src", "frame-src", "allow-forms", "allow-popups", "allow-top-navigation", "http:", "https:", "*"} {
		if strings.Contains(csp, never) {
			t.Errorf("CSP %q allows %q", csp, never)
		}
	}
	if h.Get("Content-Type") != "text/html; charset=utf-8" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Cache-Control") != "no-store" {
		t.Errorf("headers = %v", h)
	}
	body := rec.Body.String()
	for _, want := range []string{`<html data-theme="dark" data-fragment-line=`, "https://d3js.org v" + D3Version, "window.viz = Object.freeze", "pi-viz-error", `<div id="chart"></div><script>viz.bar("chart"`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The order matters: reporter, D3, helpers, then the fragment.
	iGuest, iD3, iViz, iFrag := strings.Index(body, "pi-viz-error"), strings.Index(body, "d3js.org"), strings.Index(body, "window.viz ="), strings.Index(body, `<div id="chart">`)
	if !(iGuest < iD3 && iD3 < iViz && iViz < iFrag) {
		t.Errorf("shell order guest=%d d3=%d viz=%d fragment=%d", iGuest, iD3, iViz, iFrag)
	}
	if head := get(t, NewHandler(f), http.MethodHead, "/_viz/s1/chart"); head.Code != http.StatusOK || head.Body.Len() != 0 {
		t.Errorf("HEAD = %d with %d bytes", head.Code, head.Body.Len())
	}
}

func TestServeRefuses(t *testing.T) {
	base, f := vizTree(t)
	s1 := filepath.Join(base, "s1")
	write(t, filepath.Join(s1, "big.html"), strings.Repeat("x", MaxFragmentBytes+1))
	write(t, filepath.Join(s1, "exact.html"), strings.Repeat("x", MaxFragmentBytes))
	write(t, filepath.Join(s1, "notes.txt"), "not html")
	write(t, filepath.Join(s1, "full.html"), "<!DOCTYPE html><html><body>x</body></html>")
	outside := filepath.Join(t.TempDir(), "outside.html")
	write(t, outside, "<p>outside</p>")
	must(t, os.Symlink(outside, filepath.Join(s1, "link.html")))
	must(t, os.Symlink(filepath.Join(base, "s2", "secret.html"), filepath.Join(s1, "sibling.html")))
	must(t, os.Mkdir(filepath.Join(s1, "dir.html"), 0o700))
	// s4's folder is a link to s2's: a redirected session folder is refused.
	must(t, os.Symlink(filepath.Join(base, "s2"), filepath.Join(base, "s4")))
	f["s4"] = filepath.Join(base, "s4")
	fifo := mkfifo(filepath.Join(s1, "fifo.html")) == nil
	h := NewHandler(f)

	tests := []struct {
		name, method, target string
		code                 int
	}{
		{"unknown session", "GET", "/_viz/nope/chart", 404},
		{"other session's file under this session", "GET", "/_viz/s1/secret", 404},
		{"session without a folder yet", "GET", "/_viz/s3/chart", 404},
		{"missing file", "GET", "/_viz/s1/nothing", 404},
		{"traversal", "GET", "/_viz/s1/../s2/secret", 404},
		{"encoded traversal", "GET", "/_viz/s1/..%2fs2%2fsecret", 404},
		{"encoded backslash traversal", "GET", "/_viz/s1/..%5cs2%5csecret", 404},
		{"session traversal", "GET", "/_viz/..%2fvisualizations%2fs2/secret", 404},
		{"absolute path", "GET", "/_viz/s1/%2Fetc%2Fpasswd", 404},
		{"not .html", "GET", "/_viz/s1/notes.txt", 404},
		{"symlink out of the folder", "GET", "/_viz/s1/link", 403},
		{"symlink to another session", "GET", "/_viz/s1/sibling", 403},
		{"directory", "GET", "/_viz/s1/dir", 403},
		{"redirected session folder", "GET", "/_viz/s4/secret", 403},
		{"over 2 MB", "GET", "/_viz/s1/big", 422},
		{"full document", "GET", "/_viz/s1/full", 422},
		{"not a route", "GET", "/assets/app.js", 404},
		{"write method", "POST", "/_viz/s1/chart", 405},
	}
	if fifo {
		tests = append(tests, struct {
			name, method, target string
			code                 int
		}{"fifo (never blocks)", "GET", "/_viz/s1/fifo", 403})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, h, tt.method, tt.target)
			if rec.Code != tt.code {
				t.Errorf("status = %d, want %d (%s)", rec.Code, tt.code, rec.Body)
			}
			if csp := rec.Header().Get("Content-Security-Policy"); csp != CSP {
				t.Errorf("error response CSP = %q", csp)
			}
			if strings.Contains(rec.Body.String(), "session two") || strings.Contains(rec.Body.String(), "outside") {
				t.Errorf("leaked another file: %s", rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "text/plain; charset=utf-8" {
				t.Errorf("error Content-Type = %q", ct)
			}
		})
	}
	if rec := get(t, h, "GET", "/_viz/s1/exact"); rec.Code != http.StatusOK {
		t.Errorf("exactly 2 MB: status %d", rec.Code)
	}
}

func TestRedirectedBaseRefused(t *testing.T) {
	real := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(real, "s1"), 0o700))
	write(t, filepath.Join(real, "s1", "chart.html"), "<p>x</p>")
	data := t.TempDir()
	must(t, os.Symlink(real, filepath.Join(data, "visualizations")))
	_, err := ReadFragment(filepath.Join(data, "visualizations", "s1"), "chart.html")
	if errs.CodeOf(err) != errs.ToolFailed {
		t.Fatalf("err = %v, want a refusal", err)
	}
	// A link above the base (a data-directory alias) is fine.
	alias := filepath.Join(t.TempDir(), "alias")
	must(t, os.Symlink(filepath.Dir(filepath.Join(real)), alias))
	if _, err := ReadFragment(filepath.Join(alias, filepath.Base(real), "s1"), "chart.html"); err != nil {
		t.Fatalf("alias above the base: %v", err)
	}
}

func TestShellDropsOwnD3(t *testing.T) {
	page, err := Shell([]byte("<script src=\"https://d3js.org/d3.v7.min.js\"></script>\n<script src='https://cdn.jsdelivr.net/npm/d3@7.9.0/dist/d3.min.js?x=1'></script><div id=a></div><script src=\"chart.js\"></script>"), "")
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	if strings.Contains(s, "d3.v7.min.js") || strings.Contains(s, "jsdelivr") {
		t.Errorf("own D3 tag kept:\n%s", s[len(s)-300:])
	}
	if !strings.Contains(s, `<div id=a></div><script src="chart.js"></script>`) || !strings.Contains(s, `data-theme="light"`) {
		t.Errorf("fragment changed:\n%s", s[len(s)-300:])
	}
}

// The reporter subtracts data-fragment-line from a page line: it must be the
// number of lines before the fragment's first line.
func TestShellFragmentLineOffset(t *testing.T) {
	page, err := Shell([]byte("<p>first</p>\n<script>boom()</script>"), Light)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	before := strings.Count(s[:strings.Index(s, "<p>first</p>")], "\n")
	if want := `data-fragment-line="` + strconv.Itoa(before) + `"`; !strings.Contains(s, want) {
		t.Errorf("page lacks %s", want)
	}
}

func TestShellRefusesFullDocuments(t *testing.T) {
	for _, frag := range []string{"<!doctype html><p>x", "<HTML><p>x</p></HTML>", "<head><title>t</title></head><p>x", "<p>x</p><body>"} {
		if _, err := Shell([]byte(frag), Light); errs.CodeOf(err) != errs.InvalidArgument {
			t.Errorf("Shell(%q) err = %v", frag, err)
		}
	}
}

// TestD3Pinned holds the bundled D3 to the npm dist file of d3@7.9.2, and
// the inlined scripts to text that cannot end their <script> element early.
func TestD3Pinned(t *testing.T) {
	sum := sha256.Sum256(d3JS)
	if got := hex.EncodeToString(sum[:]); got != "912111098ea99503a6f4967361d2bbdc9dbf58cf9c678c8e27e5b02d1a07f0c1" {
		t.Errorf("d3 bundle sha256 = %s", got)
	}
	for name, js := range map[string][]byte{"d3": d3JS, "helpers": helpersJS, "guest": guestJS} {
		low := strings.ToLower(string(js))
		if strings.Contains(low, "</script") || strings.Contains(low, "<!--") {
			t.Errorf("%s cannot be inlined in <script>", name)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
