package desktop

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/attachments"
)

// encoded returns a 2×1 picture in format (png, jpeg, gif), or the first
// bytes of a WebP file (the route sniffs; it never decodes).
func encoded(t testing.TB, format string) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, 2, 1), color.Palette{color.Black, color.White})
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, img)
	case "jpeg":
		err = jpeg.Encode(&b, img, nil)
	case "gif":
		err = gif.Encode(&b, img, nil)
	case "webp":
		b.WriteString("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x01\x00\x00\x00\x07\x10\x11\x11\x88\x88\xfe\x07\x00")
	default:
		t.Fatalf("no format %q", format)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func hashName(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// store makes <data>/attachments and writes each body under its hash.
func store(t *testing.T, bodies ...[]byte) (data, dir string) {
	t.Helper()
	data = t.TempDir()
	dir = filepath.Join(data, "attachments")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, b := range bodies {
		if err := os.WriteFile(filepath.Join(dir, hashName(b)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return data, dir
}

func routeAt(dir string) http.Handler {
	return attachmentRoute{dir: func() (string, bool) { return dir, true }}
}

func serve(t *testing.T, h http.Handler, method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), method, "/", nil)
	// Set the path as Wails hands it over (unescaped), so "..", "%2f" and
	// friends reach the handler uncleaned.
	req.URL.Path = target
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Every answer, refusals included, carries the hardening headers.
func assertHardened(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	h := rec.Header()
	if got := h.Get("Content-Security-Policy"); got != AttachmentCSP {
		t.Errorf("CSP = %q", got)
	}
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q", got)
	}
	if got := h.Get("Cross-Origin-Resource-Policy"); got != "same-origin" {
		t.Errorf("Cross-Origin-Resource-Policy = %q", got)
	}
}

func TestAttachmentRouteServesStoredImages(t *testing.T) {
	formats := []struct{ format, mediaType string }{
		{"png", "image/png"},
		{"jpeg", "image/jpeg"},
		{"gif", "image/gif"},
		{"webp", "image/webp"},
	}
	for _, tc := range formats {
		t.Run(tc.format, func(t *testing.T) {
			body := encoded(t, tc.format)
			_, dir := store(t, body)
			name := hashName(body)
			rec := serve(t, routeAt(dir), http.MethodGet, AttachmentsPrefix+name, nil)
			if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), body) {
				t.Fatalf("GET: %d, %d bytes (want %d)", rec.Code, rec.Body.Len(), len(body))
			}
			assertHardened(t, rec)
			h := rec.Header()
			if got := h.Get("Content-Type"); got != tc.mediaType {
				t.Errorf("Content-Type = %q, want %q", got, tc.mediaType)
			}
			if got := h.Get("Cache-Control"); got != "private, max-age=31536000, immutable" {
				t.Errorf("Cache-Control = %q", got)
			}
			if got := h.Get("ETag"); got != `"`+name+`"` {
				t.Errorf("ETag = %q", got)
			}
		})
	}
}

func TestAttachmentRouteMethodsAndRevalidation(t *testing.T) {
	body := encoded(t, "png")
	_, dir := store(t, body)
	name := hashName(body)
	h := routeAt(dir)

	head := serve(t, h, http.MethodHead, AttachmentsPrefix+name, nil)
	if head.Code != http.StatusOK || head.Body.Len() != 0 || head.Header().Get("Content-Type") != "image/png" {
		t.Errorf("HEAD: %d, %d body bytes, %q", head.Code, head.Body.Len(), head.Header().Get("Content-Type"))
	}
	again := serve(t, h, http.MethodGet, AttachmentsPrefix+name, map[string]string{"If-None-Match": `"` + name + `"`})
	if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d with %d bytes", again.Code, again.Body.Len())
	}
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		rec := serve(t, h, m, AttachmentsPrefix+name, nil)
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d, Allow %q", m, rec.Code, rec.Header().Get("Allow"))
		}
		assertHardened(t, rec)
	}
}

func TestAttachmentRouteRefusesNamesThatAreNotHashes(t *testing.T) {
	body := encoded(t, "png")
	data, dir := store(t, body)
	name := hashName(body)
	// Images one level up and beside the store: reachable only by a path
	// that leaves it.
	if err := os.WriteFile(filepath.Join(data, "outside.png"), body, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, name), body, 0o600); err != nil {
		t.Fatal(err)
	}
	// Images in the store under names that are not hashes: each exists, so
	// only the name check refuses it.
	for _, other := range []string{strings.ToUpper(name), name[:63], name + "0", strings.Repeat("g", 64), name + ".png"} {
		if err := os.WriteFile(filepath.Join(dir, other), body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct{ name, path string }{
		{"empty", AttachmentsPrefix},
		{"upper case", AttachmentsPrefix + strings.ToUpper(name)},
		{"63 digits", AttachmentsPrefix + name[:63]},
		{"65 digits", AttachmentsPrefix + name + "0"},
		{"not hex", AttachmentsPrefix + strings.Repeat("g", 64)},
		{"extension", AttachmentsPrefix + name + ".png"},
		{"sub path", AttachmentsPrefix + name + "/x"},
		{"trailing slash", AttachmentsPrefix + name + "/"},
		{"dot dot", AttachmentsPrefix + "../outside.png"},
		{"dot dot to a hash name", AttachmentsPrefix + "../" + name},
		{"absolute", AttachmentsPrefix + filepath.Join(data, "outside.png")},
		{"backslash", AttachmentsPrefix + `..\outside.png`},
		{"nul", AttachmentsPrefix + name[:63] + "\x00"},
		{"another prefix", "/attachments/" + name},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := serve(t, routeAt(dir), http.MethodGet, tc.path, nil)
			if rec.Code != http.StatusNotFound {
				t.Fatalf("%q: %d", tc.path, rec.Code)
			}
			if bytes.Contains(rec.Body.Bytes(), body[:8]) {
				t.Fatalf("%q leaked image bytes", tc.path)
			}
			if rec.Header().Get("Cache-Control") != "no-store" {
				t.Errorf("a refusal is cacheable: %q", rec.Header().Get("Cache-Control"))
			}
			assertHardened(t, rec)
		})
	}
}

func TestAttachmentRouteServesOnlyImageContent(t *testing.T) {
	cases := []struct{ name, body string }{
		{"html", "<!doctype html><script>parent.postMessage(1,'*')</script>"},
		{"svg", `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`},
		{"text", "just some text"},
		{"json", `{"a":1}`},
		{"pdf", "%PDF-1.7\n"},
		{"zip", "PK\x03\x04rest"},
		{"empty", ""},
		{"png signature cut short", "\x89PNG\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, dir := store(t, []byte(tc.body))
			rec := serve(t, routeAt(dir), http.MethodGet, AttachmentsPrefix+hashName([]byte(tc.body)), nil)
			if rec.Code != http.StatusNotFound {
				t.Fatalf("%d %q (%s)", rec.Code, rec.Body, rec.Header().Get("Content-Type"))
			}
			if tc.body != "" && strings.Contains(rec.Body.String(), tc.body) {
				t.Fatal("the content was served")
			}
			assertHardened(t, rec)
		})
	}
}

// Links are never followed, whether they lead out of the store or stay in
// it, and the store folder itself must be a real folder.
func TestAttachmentRouteRefusesLinksAndSpecialFiles(t *testing.T) {
	body := encoded(t, "png")
	name := hashName(body)
	outside := filepath.Join(t.TempDir(), "secret.png")
	if err := os.WriteFile(outside, body, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, data, dir string) string // returns the store folder to serve
	}{
		{"link out of the store", func(t *testing.T, _, dir string) string {
			mustSymlink(t, outside, filepath.Join(dir, name))
			return dir
		}},
		{"relative link out of the store", func(t *testing.T, data, dir string) string {
			if err := os.WriteFile(filepath.Join(data, "up.png"), body, 0o600); err != nil {
				t.Fatal(err)
			}
			mustSymlink(t, "../up.png", filepath.Join(dir, name))
			return dir
		}},
		{"link inside the store", func(t *testing.T, _, dir string) string {
			if err := os.WriteFile(filepath.Join(dir, "real.png"), body, 0o600); err != nil {
				t.Fatal(err)
			}
			mustSymlink(t, "real.png", filepath.Join(dir, name))
			return dir
		}},
		{"store folder is a link", func(t *testing.T, data, _ string) string {
			elsewhere := t.TempDir()
			if err := os.WriteFile(filepath.Join(elsewhere, name), body, 0o600); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(data, "attachments-link")
			mustSymlink(t, elsewhere, link)
			return link
		}},
		{"a folder under the name", func(t *testing.T, _, dir string) string {
			if err := os.Mkdir(filepath.Join(dir, name), 0o700); err != nil {
				t.Fatal(err)
			}
			return dir
		}},
		{"too large", func(t *testing.T, _, dir string) string {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, body, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(p, attachments.MaxStoredBytes+1); err != nil { // sparse
				t.Fatal(err)
			}
			return dir
		}},
		{"no store yet", func(t *testing.T, data, _ string) string {
			return filepath.Join(data, "missing")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, dir := store(t)
			served := tc.setup(t, data, dir)
			rec := serve(t, routeAt(served), http.MethodGet, AttachmentsPrefix+name, nil)
			if rec.Code != http.StatusNotFound {
				t.Fatalf("%d, %d bytes", rec.Code, rec.Body.Len())
			}
			assertHardened(t, rec)
		})
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatalf("symlink: %v", err)
	}
}

// The app's fallback handler sends /_attachments/ to the running core's
// store (<data dir>/attachments) and the rest to the visualization route;
// with no core running nothing is served.
func TestRoutesServeTheCoresAttachments(t *testing.T) {
	app, sid := vizApp(t, map[string]string{"chart.html": `<p id="frag">chart</p>`})
	app.guard.ready.Store(true)
	dir := app.core.AttachmentsDir()
	if want := filepath.Join(app.core.Info().DataDir, "attachments"); dir != want {
		t.Fatalf("AttachmentsDir = %q, want %q", dir, want)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	body := encoded(t, "gif")
	if err := os.WriteFile(filepath.Join(dir, hashName(body)), body, 0o600); err != nil {
		t.Fatal(err)
	}
	h := routes(app, &app.guard)
	if rec := serve(t, h, http.MethodGet, AttachmentsPrefix+hashName(body), nil); rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), body) {
		t.Fatalf("image: %d", rec.Code)
	}
	if rec := serve(t, h, http.MethodGet, "/_viz/"+sid+"/chart", nil); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<p id="frag">chart</p>`) {
		t.Fatalf("visualization: %d", rec.Code)
	}
	if rec := serve(t, h, http.MethodGet, "/elsewhere", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("other path: %d", rec.Code)
	}
	if rec := serve(t, routes(&testApp{}, &FrameGuard{}), http.MethodGet, AttachmentsPrefix+hashName(body), nil); rec.Code != http.StatusNotFound {
		t.Fatalf("without a core: %d", rec.Code)
	}
}

// Whatever path the webview asks for, the route serves the stored image
// under its exact name or nothing: never the files beside or above the
// store, never another name for the image.
func FuzzAttachmentRoute(f *testing.F) {
	body := encoded(f, "png")
	name := hashName(body)
	data := f.TempDir()
	dir := filepath.Join(data, "attachments")
	if err := os.Mkdir(dir, 0o700); err != nil {
		f.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, name), filepath.Join(data, name), filepath.Join(dir, "x.png")} {
		if err := os.WriteFile(p, body, 0o600); err != nil {
			f.Fatal(err)
		}
	}
	for _, seed := range []string{AttachmentsPrefix + name, AttachmentsPrefix + "../" + name, AttachmentsPrefix + "x.png", AttachmentsPrefix + name + "/", "/_attachments//" + name, AttachmentsPrefix + strings.ToUpper(name)} {
		f.Add(seed)
	}
	h := routeAt(dir)
	f.Fuzz(func(t *testing.T, path string) {
		rec := serve(t, h, http.MethodGet, path, nil)
		if rec.Code == http.StatusOK && path != AttachmentsPrefix+name {
			t.Fatalf("%q served %d bytes", path, rec.Body.Len())
		}
		if rec.Code != http.StatusOK && path == AttachmentsPrefix+name {
			t.Fatalf("the stored image was not served: %d", rec.Code)
		}
	})
}
