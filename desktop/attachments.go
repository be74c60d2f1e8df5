package desktop

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/attachments"
)

// AttachmentsPrefix is the URL path prefix of a stored image: the window
// shows a tool result's pictures as <img src="/_attachments/<sha256>">.
const AttachmentsPrefix = "/_attachments/"

// AttachmentCSP is sent with every attachment response. An image is only
// ever embedded, but should one be opened as a document it runs nothing,
// loads nothing but itself and gets an opaque origin.
const AttachmentCSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox"

// attachmentsHandler serves GET /_attachments/<sha256> from the running
// core's attachment store.
func attachmentsHandler(h Handle) http.Handler {
	return attachmentRoute{dir: func() (string, bool) {
		core, _ := h.Core()
		if core == nil {
			return "", false
		}
		return core.AttachmentsDir(), true
	}}
}

// attachmentRoute serves images from the folder dir returns (false: none,
// the backend is not running). The store is content-addressed, so a name
// is 64 lowercase hex digits and an answer never changes.
type attachmentRoute struct {
	dir func() (string, bool)
}

func (a attachmentRoute) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", AttachmentCSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	// Sandboxed visualization frames have an opaque origin: they must not
	// embed the user's images.
	hd.Set("Cross-Origin-Resource-Policy", "same-origin")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "no-store") // until an image is found
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "attachments are read-only", http.StatusMethodNotAllowed)
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, AttachmentsPrefix)
	if !ok || !attachments.ValidSHA(name) {
		http.NotFound(w, r)
		return
	}
	dir, ok := a.dir()
	if !ok {
		http.NotFound(w, r)
		return
	}
	// The store's hardened open: a real folder, no link followed, a regular
	// file only (never waiting on a FIFO), of a size the store writes.
	f, err := attachments.New(dir).Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		http.NotFound(w, r)
		return
	}
	mediaType := servedImageType(http.DetectContentType(head[:n]))
	if mediaType == "" {
		http.NotFound(w, r)
		return
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		http.NotFound(w, r)
		return
	}
	hd.Set("Content-Type", mediaType)
	hd.Set("Cache-Control", "private, max-age=31536000, immutable")
	hd.Set("ETag", `"`+name+`"`)
	http.ServeContent(w, r, "", time.Time{}, f)
}

// servedImageType is the media type to serve for sniffed content, "" for
// anything but the raster formats the providers accept (never SVG, which
// can carry script, nor HTML).
func servedImageType(sniffed string) string {
	switch sniffed {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return sniffed
	}
	return ""
}
