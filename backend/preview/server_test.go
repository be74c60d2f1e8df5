package preview_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/preview"
)

// site builds a workspace with pages, modules and assets, a data folder
// inside it, a secret outside it and links pointing at both.
func site(t *testing.T) (ws, data string) {
	t.Helper()
	base := t.TempDir()
	ws = filepath.Join(base, "ws")
	data = filepath.Join(ws, "pidata")
	files := map[string]string{
		"index.html":      "<!doctype html><html><head><title>Home</title></head><body><script type=module src=app.mjs></script></body></html>",
		"app.mjs":         "import { n } from './lib/n.js'; document.title = 'n=' + n;",
		"lib/n.js":        "export const n = 1;",
		"style.css":       "body{}",
		"logo.svg":        "<svg xmlns='http://www.w3.org/2000/svg'/>",
		"mod.wasm":        "\x00asm\x01\x00\x00\x00",
		"data.json":       "{}",
		"docs/index.html": "<p>docs</p>",
		"empty/.keep":     "",
		"pidata/db.txt":   "the host's data",
		".env":            "TOKEN=the user's secret",
		".git/config":     "[remote] url = https://user:secret@host/repo",
		"docs/.secret":    "the user's secret",
	}
	for name, body := range files {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(base, "secret.txt")
	if err := os.WriteFile(secret, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"out.txt": secret, "outdir": base, "todata": filepath.Join(data, "db.txt"), "in.css": filepath.Join(ws, "style.css")} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	return ws, data
}

func open(t *testing.T) (*preview.Server, preview.Page, string) {
	t.Helper()
	ws, data := site(t)
	s := preview.New(preview.Options{DataDir: data})
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	p, err := s.Open("s1", ws)
	if err != nil {
		t.Fatal(err)
	}
	return s, p, ws
}

// raw sends path exactly as written (no client-side cleaning).
func raw(t *testing.T, origin, method, path string) (int, http.Header, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(origin, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, method+" "+path+" HTTP/1.1\r\nHost: "+strings.TrimPrefix(origin, "http://")+"\r\nConnection: close\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

func TestServesWorkspaceFilesWithTheirTypes(t *testing.T) {
	s, p, _ := open(t)
	tests := []struct {
		path, ctype, body string
	}{
		{"app.mjs", "text/javascript; charset=utf-8", "import { n }"},
		{"lib/n.js", "text/javascript; charset=utf-8", "export const n"},
		{"style.css", "text/css; charset=utf-8", "body{}"},
		{"logo.svg", "image/svg+xml", "<svg"},
		{"mod.wasm", "application/wasm", "\x00asm"},
		{"data.json", "application/json", "{}"},
		{"docs/", "text/html; charset=utf-8", "<p>docs</p>"},           // a folder is its index.html
		{"", "text/html; charset=utf-8", "<title>Home</title>"},        // the root too
		{"in.css", "text/css; charset=utf-8", "body{}"},                // a link that stays inside
		{"docs/index.html", "text/html; charset=utf-8", "<p>docs</p>"}, // no head: injected first
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			code, h, body := raw(t, s.Origin(), "GET", "/"+p.Token+"/"+tt.path)
			if code != http.StatusOK {
				t.Fatalf("GET %s = %d, want 200", tt.path, code)
			}
			if got := h.Get("Content-Type"); got != tt.ctype {
				t.Errorf("Content-Type = %q, want %q", got, tt.ctype)
			}
			if !strings.Contains(body, tt.body) {
				t.Errorf("body %q lacks %q", body, tt.body)
			}
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
				t.Errorf("headers %v lack nosniff or no-referrer", h)
			}
			// Framed only by the app, and the page talks to nothing but this server.
			if csp := h.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "frame-ancestors wails: ") ||
				!strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "connect-src 'self';") || !strings.Contains(csp, "form-action 'self'") {
				t.Errorf("CSP = %q", csp)
			}
		})
	}
}

func TestHTMLGetsTheReporterFirst(t *testing.T) {
	s, p, _ := open(t)
	_, _, body := raw(t, s.Origin(), "GET", "/"+p.Token+"/index.html")
	tag := `<script src="/` + p.Token + `/__pi_preview/reporter.js"></script>`
	if want := "<!doctype html><html><head>" + tag + "<title>Home</title>"; !strings.HasPrefix(body, want) {
		t.Fatalf("page = %q, want it to start %q", body, want)
	}
	code, h, js := raw(t, s.Origin(), "GET", "/"+p.Token+"/__pi_preview/reporter.js")
	if code != 200 || h.Get("Content-Type") != "text/javascript; charset=utf-8" || !strings.Contains(js, "unhandledrejection") {
		t.Fatalf("reporter: %d %q %.80q", code, h.Get("Content-Type"), js)
	}
}

func TestRefusesWhatIsNotAWorkspaceFile(t *testing.T) {
	s, p, ws := open(t)
	tok := "/" + p.Token + "/"
	tests := []struct{ name, path string }{
		{"no token", "/index.html"},
		{"wrong token", "/0123456789abcdef0123456789abcdef/index.html"},
		{"token without slash", "/" + p.Token},
		{"dot dot", tok + "../secret.txt"},
		{"dot dot inside", tok + "docs/../../secret.txt"},
		{"encoded dot dot", tok + "%2e%2e/secret.txt"},
		{"dot", tok + "./index.html"},
		{"absolute", tok + "/" + strings.TrimPrefix(filepath.Join(filepath.Dir(ws), "secret.txt"), "/")},
		{"double slash absolute", "/" + p.Token + "//etc/passwd"},
		{"link out to a file", tok + "out.txt"},
		{"link out to a folder", tok + "outdir/secret.txt"},
		{"data folder", tok + "pidata/db.txt"},
		{"link into the data folder", tok + "todata"},
		{"missing", tok + "nope.html"},
		{"folder without index", tok + "empty/"},
		{"file as folder", tok + "style.css/"},
		{"backslash", tok + "docs\\index.html"},
		{"reserved name", tok + "__pi_preview/other"},
		// A page must not read the workspace's hidden files (.env, .git) to send them away.
		{"dot file", tok + ".env"},
		{"dot folder", tok + ".git/config"},
		{"dot file below", tok + "docs/.secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, body := raw(t, s.Origin(), "GET", tt.path)
			if code != http.StatusNotFound {
				t.Fatalf("GET %s = %d %q, want 404", tt.path, code, body)
			}
			if strings.Contains(body, "outside") || strings.Contains(body, "host's data") || strings.Contains(body, "secret") {
				t.Fatalf("leaked %q", body)
			}
		})
	}
}

func TestReadOnlyAndLoopbackNamesOnly(t *testing.T) {
	s, p, _ := open(t)
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH"} {
		if code, h, _ := raw(t, s.Origin(), m, "/"+p.Token+"/index.html"); code != http.StatusMethodNotAllowed || h.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s = %d (Allow %q), want 405", m, code, h.Get("Allow"))
		}
	}
	if code, _, body := raw(t, s.Origin(), "HEAD", "/"+p.Token+"/style.css"); code != 200 || body != "" {
		t.Errorf("HEAD = %d %q", code, body)
	}
	// DNS rebinding: another name for 127.0.0.1 is not this server.
	req, _ := http.NewRequest("GET", s.Origin()+"/"+p.Token+"/index.html", nil)
	req.Host = "evil.example:" + strings.Split(s.Origin(), ":")[2]
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("foreign Host = %d, want 404", res.StatusCode)
	}
	if !strings.HasPrefix(s.Origin(), "http://127.0.0.1:") {
		t.Errorf("origin %s is not loopback", s.Origin())
	}
}

func TestReopenAndCloseRevokeTheToken(t *testing.T) {
	s, p, ws := open(t)
	p2, err := s.Open("s1", ws)
	if err != nil {
		t.Fatal(err)
	}
	if p2.Token == p.Token {
		t.Fatal("a new preview reused the token")
	}
	if code, _, _ := raw(t, s.Origin(), "GET", "/"+p.Token+"/index.html"); code != 404 {
		t.Errorf("old token = %d, want 404", code)
	}
	if cur, ok := s.Current("s1"); !ok || cur.Token != p2.Token {
		t.Errorf("Current = %+v %v", cur, ok)
	}
	s.Close("s1")
	if code, _, _ := raw(t, s.Origin(), "GET", "/"+p2.Token+"/index.html"); code != 404 {
		t.Errorf("closed token = %d, want 404", code)
	}
	if _, ok := s.Current("s1"); ok {
		t.Error("a closed preview is still current")
	}
}

func TestReportComesBackBoundedAndWithoutTheToken(t *testing.T) {
	s, p, _ := open(t)
	// The page asked for a file the workspace lacks (the server saw it).
	if code, _, _ := raw(t, s.Origin(), "GET", "/"+p.Token+"/missing.js"); code != 404 {
		t.Fatal(code)
	}
	var errsIn []string
	for i := range 15 {
		errsIn = append(errsIn, `"ReferenceError: x`+string(rune('a'+i))+` is not defined (`+p.Base+`app.mjs:1:2)"`)
	}
	long := strings.Repeat("y", 1000)
	body := `{"url":"/` + p.Token + `/index.html","title":"Home\u202e","errors":[` + strings.Join(errsIn, ",") +
		`],"failed":["script /` + p.Token + `/missing.js","link /` + long + `"]}`
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	got := make(chan preview.Report, 1)
	go func() { r, _ := s.Await(ctx, p.Token); got <- r }()

	// Wrong content type, wrong method, wrong token: ignored.
	for _, bad := range []struct{ method, path, ctype string }{
		{"POST", "/" + p.Token + "/__pi_preview/report", "text/plain"},
		{"GET", "/" + p.Token + "/__pi_preview/report", "application/json"},
		{"POST", "/ffffffffffffffffffffffffffffffff/__pi_preview/report", "application/json"},
	} {
		req, _ := http.NewRequest(bad.method, s.Origin()+bad.path, strings.NewReader(body))
		req.Header.Set("Content-Type", bad.ctype)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode < 400 {
			t.Errorf("%+v accepted: %d", bad, res.StatusCode)
		}
	}
	res, err := http.Post(p.Base+"__pi_preview/report", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("report = %d", res.StatusCode)
	}
	r := <-got
	if r.URL != "index.html" || r.Title != "Home" {
		t.Errorf("url/title = %q %q", r.URL, r.Title)
	}
	if len(r.Errors) != preview.MaxItems || r.Errors[0] != "ReferenceError: xa is not defined (app.mjs:1:2)" {
		t.Errorf("errors = %q", r.Errors)
	}
	// The page's own line for missing.js stands for the server's 404.
	if len(r.Failed) != 2 || r.Failed[0] != "script missing.js" || len(r.Failed[1]) > preview.MaxItemBytes+len("…") {
		t.Errorf("failed = %q", r.Failed)
	}
	for _, line := range append(r.Errors, r.Failed...) {
		if strings.Contains(line, p.Token) || strings.Contains(line, "127.0.0.1") {
			t.Errorf("the token or origin reached the report: %q", line)
		}
	}
}

func TestServerSide404sJoinTheReport(t *testing.T) {
	s, p, _ := open(t)
	raw(t, s.Origin(), "GET", "/"+p.Token+"/img/none.png")
	if _, err := http.Post(p.Base+"__pi_preview/report", "application/json", strings.NewReader(`{"title":"T"}`)); err != nil {
		t.Fatal(err)
	}
	r, ok := s.Await(t.Context(), p.Token)
	if !ok || len(r.Failed) != 1 || r.Failed[0] != "GET img/none.png (404)" {
		t.Fatalf("report = %+v %v", r, ok)
	}
}

func TestAwaitWithoutReportTimesOut(t *testing.T) {
	s, p, _ := open(t)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if s.AwaitLoad(ctx, p.Token) {
		t.Fatal("loaded before anything asked for the page")
	}
	raw(t, s.Origin(), "GET", "/"+p.Token+"/index.html")
	if !s.AwaitLoad(t.Context(), p.Token) {
		t.Fatal("not loaded after the page was served")
	}
	ctx, cancel = context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, ok := s.Await(ctx, p.Token); ok {
		t.Fatal("a report nobody sent")
	}
	if _, ok := s.Await(t.Context(), "nope"); ok {
		t.Fatal("a report for an unknown token")
	}
}

func TestInject(t *testing.T) {
	const tag = `<script src="/r.js"></script>`
	tests := []struct{ in, want string }{
		{"<!DOCTYPE html><HTML lang=en><HEAD><meta charset=utf-8>", "<!DOCTYPE html><HTML lang=en><HEAD>" + tag + "<meta charset=utf-8>"},
		{"<html><body>x</body></html>", "<html>" + tag + "<body>x</body></html>"},
		{"<!doctype html><p>x", "<!doctype html>" + tag + "<p>x"},
		{"<p>fragment</p>", tag + "<p>fragment</p>"},
		{"<html><header>h</header><head>", "<html>" + tag + "<header>h</header><head>"},
		{"", tag},
	}
	for _, tt := range tests {
		if got := string(preview.Inject([]byte(tt.in), "/r.js")); got != tt.want {
			t.Errorf("Inject(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestContentType(t *testing.T) {
	for name, want := range map[string]string{
		"a.JS": "text/javascript; charset=utf-8", "a.mjs": "text/javascript; charset=utf-8", "a.css": "text/css; charset=utf-8",
		"a.svg": "image/svg+xml", "a.wasm": "application/wasm", "a.htm": "text/html; charset=utf-8", "a.png": "image/png",
		"a.unknownext": "application/octet-stream", "noext": "application/octet-stream",
	} {
		if got := preview.ContentType(name); got != want {
			t.Errorf("ContentType(%q) = %q, want %q", name, got, want)
		}
	}
}

// A second Open of a session's preview, or its Close, wakes whoever waits
// on the page it ends at once: that page will never load or report, and
// the caller must say it was replaced. The waiter holds its page before
// the replacement (OnAwait), so only the wake-up can end its wait.
func TestOpenReplacesAndWakesTheEarlierWaiter(t *testing.T) {
	root := t.TempDir()
	s := preview.New(preview.Options{DataDir: t.TempDir()})
	defer s.Shutdown(t.Context())
	waiting := make(chan string, 1)
	preview.OnAwait(s, func(token string) { waiting <- token })
	wake := func(name string, wait func(token string) bool, end func()) {
		t.Helper()
		page, err := s.Open("s1", root)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan bool, 1)
		go func() { done <- wait(page.Token) }()
		if got := <-waiting; got != page.Token {
			t.Fatalf("%s: waits on %s, not %s", name, got, page.Token)
		}
		end()
		select {
		case got := <-done:
			if got {
				t.Errorf("%s: an ended page loaded or reported", name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the waiter was not woken when its page ended", name)
		}
		if s.Live(page.Token) {
			t.Errorf("%s: an ended page is live", name)
		}
	}
	ctx := t.Context() // never ends while the test runs
	report := func(token string) bool { _, ok := s.Await(ctx, token); return ok }
	load := func(token string) bool { return s.AwaitLoad(ctx, token) }
	reopen := func() {
		if _, err := s.Open("s1", root); err != nil {
			t.Fatal(err)
		}
	}
	closeIt := func() { s.Close("s1") }
	wake("report, replaced", report, reopen)
	wake("load, replaced", load, reopen)
	wake("report, closed", report, closeIt)
	wake("load, closed", load, closeIt)
	wake("report, shut down", report, func() {
		if err := s.Shutdown(t.Context()); err != nil {
			t.Fatal(err)
		}
	})
}

// The server knows its own port under either loopback spelling: a URL
// preview of it would reach other sessions' pages.
func TestServesURL(t *testing.T) {
	s := preview.New(preview.Options{DataDir: t.TempDir()})
	defer s.Shutdown(t.Context())
	if s.ServesURL("http://127.0.0.1:1/") {
		t.Error("a server that does not listen serves a URL")
	}
	page, err := s.Open("s1", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !s.Live(page.Token) {
		t.Error("an open page is not live")
	}
	port := strings.TrimSuffix(strings.TrimPrefix(s.Origin(), "http://127.0.0.1:"), "/")
	for raw, want := range map[string]bool{
		page.Base:                        true,
		"http://localhost:" + port + "/": true,
		"http://127.0.0.1:" + port + "/other/x.html": true,
		"http://localhost:1/":                        false,
		"http://localhost:" + port + "0/":            false,
		"::not a url":                                false,
	} {
		if got := s.ServesURL(raw); got != want {
			t.Errorf("ServesURL(%q) = %v, want %v", raw, got, want)
		}
	}
}
