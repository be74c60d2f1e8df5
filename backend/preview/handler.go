package preview

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// Reserved names under a token: the reporter script and its endpoint. A
// workspace folder of this name is not served.
const (
	internalDir  = "__pi_preview/"
	reporterPath = internalDir + "reporter.js"
	reportPath   = internalDir + "report"
)

// maxInjected is the largest HTML page the reporter is injected into; a
// bigger one is served as it is (and reports nothing).
const maxInjected = 16 << 20

// ServeHTTP answers /<token>/<path>: workspace files (GET and HEAD only),
// the reporter script, and the report endpoint (POST, JSON, same token).
// Anything else is 404 with no detail.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	// The token is in every URL: a page's links out must not carry it.
	h.Set("Referrer-Policy", "no-referrer")
	// Framed only by the app; a page loads and sends nothing beyond this
	// server, so what it can read of the workspace cannot leave the machine
	// through fetch, images, scripts or forms.
	h.Set("Content-Security-Policy", "frame-ancestors "+s.opts.FrameAncestors+"; "+pageCSP)
	// A name that resolves to 127.0.0.1 (DNS rebinding) is not this server.
	if origin := s.Origin(); origin == "" || "http://"+r.Host != origin {
		http.NotFound(w, r)
		return
	}
	token, rest, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	p := s.lookup(token)
	if !ok || p == nil {
		http.NotFound(w, r)
		return
	}
	base := s.Origin() + "/" + token + "/"
	switch rest {
	case reporterPath:
		if !readMethod(w, r) {
			return
		}
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = io.WriteString(w, reporterScript)
		return
	case reportPath:
		s.acceptReport(w, r, p, base)
		return
	}
	if strings.HasPrefix(rest, internalDir) {
		http.NotFound(w, r)
		return
	}
	if !readMethod(w, r) {
		return
	}
	p.noteLoad()
	s.serveFile(w, r, p, rest)
}

func readMethod(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "read-only", http.StatusMethodNotAllowed)
	return false
}

func (s *Server) acceptReport(w http.ResponseWriter, r *http.Request, p *page, base string) {
	// JSON only: a cross-origin form cannot post it without a preflight,
	// which this server never answers.
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		http.Error(w, "JSON only", http.StatusUnsupportedMediaType)
		return
	}
	var rep Report
	if err := json.NewDecoder(io.LimitReader(r.Body, maxReport)).Decode(&rep); err != nil {
		http.Error(w, "bad report", http.StatusBadRequest)
		return
	}
	p.record(sanitize(rep, base, p.token))
	w.WriteHeader(http.StatusNoContent)
}

// serveFile resolves rest in the page's workspace the way Read does and
// serves it; everything that is not a workspace file is a plain 404.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, p *page, rest string) {
	res, ok := resolveFile(p.resolver, rest)
	if !ok {
		p.noteMissing(rest)
		http.NotFound(w, r)
		return
	}
	f, err := p.resolver.OpenFile(res, os.O_RDONLY, 0)
	if err != nil {
		p.noteMissing(rest)
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		p.noteMissing(rest)
		http.NotFound(w, r)
		return
	}
	ctype := ContentType(res.Rel)
	w.Header().Set("Content-Type", ctype)
	if strings.HasPrefix(ctype, "text/html") && fi.Size() <= maxInjected {
		body, err := io.ReadAll(io.LimitReader(f, maxInjected+1))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(Inject(body, "/"+p.token+"/"+reporterPath)))
		return
	}
	http.ServeContent(w, r, "", time.Time{}, f)
}

// pageCSP keeps a previewed page to this server: its own files, inline
// code and data/blob URLs, nothing from or to anywhere else.
const pageCSP = "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:; connect-src 'self'; form-action 'self'; base-uri 'self'; frame-src 'self'"

// resolveFile turns a URL path under the token into a workspace file:
// nothing absolute, no "..", no backslashes or NULs, no hidden files or
// folders (.env, .git: what Glob does not show), nothing outside the
// workspace (links out, the data folder), and a folder means its
// index.html. There are no listings.
func resolveFile(rv *pathguard.Resolver, rest string) (pathguard.Resolved, bool) {
	if strings.ContainsAny(rest, "\\\x00") || strings.HasPrefix(rest, "/") {
		return pathguard.Resolved{}, false
	}
	for _, seg := range strings.Split(rest, "/") {
		if strings.HasPrefix(seg, ".") {
			return pathguard.Resolved{}, false
		}
	}
	rel := strings.TrimSuffix(rest, "/")
	if rel == "" {
		rel = "."
	}
	rel = filepath.FromSlash(rel)
	if filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" {
		return pathguard.Resolved{}, false
	}
	res, err := rv.Resolve(rel)
	if err != nil || res.Root != pathguard.Workspace {
		return pathguard.Resolved{}, false
	}
	fi, err := rv.Stat(res)
	if err != nil {
		return pathguard.Resolved{}, false
	}
	if fi.IsDir() {
		if res, err = rv.Resolve(filepath.Join(rel, "index.html")); err != nil || res.Root != pathguard.Workspace {
			return pathguard.Resolved{}, false
		}
	} else if strings.HasSuffix(rest, "/") {
		return pathguard.Resolved{}, false
	}
	return res, true
}

// ContentType is the MIME type a preview serves name with. Scripts must be
// text/javascript for ES modules to load (nosniff refuses anything else),
// whatever the system's MIME database says.
func ContentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".htm":
		return "text/html; charset=utf-8"
	case ".js", ".mjs", ".cjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".wasm":
		return "application/wasm"
	case ".json", ".map":
		return "application/json"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Inject puts the reporter script first in the page, before any of the
// page's own scripts: after <head>, else after <html>, else after the
// doctype (never before it: that would switch the page to quirks mode),
// else at the very start.
func Inject(page []byte, src string) []byte {
	tag := []byte(`<script src="` + src + `"></script>`)
	lower := bytes.ToLower(page)
	at := 0
	for _, open := range []string{"<head", "<html", "<!doctype"} {
		i := bytes.Index(lower, []byte(open))
		if i < 0 {
			continue
		}
		// The tag's name must end there (<header> is not <head>).
		if j := i + len(open); j < len(lower) && !strings.ContainsRune(" \t\r\n>", rune(lower[j])) {
			continue
		}
		if end := bytes.IndexByte(lower[i:], '>'); end >= 0 {
			at = i + end + 1
			break
		}
	}
	out := make([]byte, 0, len(page)+len(tag))
	out = append(out, page[:at]...)
	out = append(out, tag...)
	return append(out, page[at:]...)
}

// escapePath escapes each segment of a workspace-relative path for a URL.
func escapePath(rel string) string {
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
