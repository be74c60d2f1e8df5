package desktop

import (
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// AttachmentsPrefix is the URL path prefix of a stored image: the window
// shows a tool result's pictures as <img src="/_attachments/<sha256>">.
const AttachmentsPrefix = "/_attachments/"

// AttachmentCSP is sent with every attachment response. An image is only
// ever embedded, but should one be opened as a document it runs nothing,
// loads nothing but itself and gets an opaque origin.
const AttachmentCSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox"

// maxAttachmentBytes bounds what the route reads. Stored images are already
// downscaled to the providers' limits; anything far larger is not one.
const maxAttachmentBytes = 64 << 20

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
	if !ok || !validAttachmentName(name) {
		http.NotFound(w, r)
		return
	}
	dir, ok := a.dir()
	if !ok {
		http.NotFound(w, r)
		return
	}
	f, err := openAttachment(dir, name)
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

// validAttachmentName is true for exactly 64 lowercase hex digits: the
// store's names, and nothing a path could be made of.
func validAttachmentName(name string) bool {
	if len(name) != 64 {
		return false
	}
	for i := range len(name) {
		c := name[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
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

var errNotServed = errors.New("not a stored image")

// openAttachment opens the regular file name in dir. dir must be a real
// folder (not a link), the file is resolved inside it through os.Root (no
// link leads out), and it must itself be a regular file (not a link, FIFO or
// device) of at most maxAttachmentBytes; the opened file must be the one
// inspected, so a swap in between fails.
func openAttachment(dir, name string) (*os.File, error) {
	dfi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !dfi.IsDir() {
		return nil, errNotServed
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if got, err := root.Stat("."); err != nil || !os.SameFile(got, dfi) {
		return nil, errNotServed
	}
	fi, err := root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxAttachmentBytes {
		return nil, errNotServed
	}
	f, err := root.OpenFile(name, os.O_RDONLY|attachmentOpenFlags, 0)
	if err != nil {
		return nil, err
	}
	ofi, err := f.Stat()
	if err != nil || !ofi.Mode().IsRegular() || !os.SameFile(fi, ofi) || ofi.Size() > maxAttachmentBytes {
		_ = f.Close()
		return nil, errNotServed
	}
	return f, nil
}
