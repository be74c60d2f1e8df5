package viz

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// MaxFragmentBytes is the largest fragment served (spec §4b.1).
const MaxFragmentBytes = 2 << 20

// Folders tells the handler where a session's fragments live.
type Folders interface {
	// VisualizationDir returns the absolute visualization folder of the
	// session when it exists and inline visualizations are on, else a coded
	// error. The folder itself may not exist yet.
	VisualizationDir(ctx context.Context, sessionID string) (string, error)
}

// Handler serves /_viz/<sessionId>/<name> as a shell page around the
// fragment <name>.html of that session's visualization folder. Every
// response, errors included, carries the sandboxing CSP.
type Handler struct {
	folders Folders
}

// NewHandler returns the visualization route handler.
func NewHandler(f Folders) *Handler { return &Handler{folders: f} }

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", CSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "no-store")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), display-capture=()")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		plain(w, http.StatusMethodNotAllowed, "visualizations are read-only")
		return
	}
	route, ok := ParseRoute(r.URL.Path)
	if !ok {
		plain(w, http.StatusNotFound, "not found")
		return
	}
	page, err := h.page(r.Context(), route, Theme(r.URL.Query().Get("theme")))
	if err != nil {
		plain(w, status(err), errs.ToPayload(err).Message)
		return
	}
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(page)
	}
}

func (h *Handler) page(ctx context.Context, route Route, theme Theme) ([]byte, error) {
	dir, err := h.folders.VisualizationDir(ctx, route.Session)
	if err != nil {
		return nil, err
	}
	frag, err := ReadFragment(dir, route.File)
	if err != nil {
		return nil, err
	}
	return Shell(frag, theme)
}

func status(err error) int {
	switch errs.CodeOf(err) {
	case errs.NotFound, errs.SessionNotFound:
		return http.StatusNotFound
	case errs.InvalidArgument:
		return http.StatusUnprocessableEntity
	case errs.ToolFailed:
		return http.StatusForbidden
	}
	return http.StatusInternalServerError
}

func plain(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg+"\n")
}

// ReadFragment reads file from the visualization folder dir. The folder and
// its parent must be real directories (no symlink redirect), and file a
// regular file (not a symlink, FIFO or device) of at most MaxFragmentBytes.
// Every step after the parent is relative to an open directory handle, and
// the opened file must be the one inspected, so a swap in between fails.
func ReadFragment(dir, file string) ([]byte, error) {
	if !ValidFileName(file) {
		return nil, errs.New(errs.InvalidArgument, "%q is not a visualization file name; use a plain name such as chart.html", file)
	}
	base, session := filepath.Dir(dir), filepath.Base(dir)
	bfi, err := os.Lstat(base)
	if err != nil {
		return nil, notFound(err, file)
	}
	if !bfi.IsDir() {
		return nil, refused("the visualization folder %s is not a real folder", base)
	}
	broot, err := os.OpenRoot(base)
	if err != nil {
		return nil, notFound(err, file)
	}
	defer broot.Close()
	if err := sameDir(broot, bfi); err != nil {
		return nil, err
	}
	sfi, err := broot.Lstat(session)
	if err != nil {
		return nil, notFound(err, file)
	}
	if !sfi.IsDir() {
		return nil, refused("the session's visualization folder %s is not a real folder", dir)
	}
	sroot, err := broot.OpenRoot(session)
	if err != nil {
		return nil, notFound(err, file)
	}
	defer sroot.Close()
	if err := sameDir(sroot, sfi); err != nil {
		return nil, err
	}
	fi, err := sroot.Lstat(file)
	if err != nil {
		return nil, notFound(err, file)
	}
	if !fi.Mode().IsRegular() {
		return nil, refused("%s is not a regular file (a link or special file is never served)", file)
	}
	if fi.Size() > MaxFragmentBytes {
		return nil, tooLarge(file, fi.Size())
	}
	f, err := sroot.OpenFile(file, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, notFound(err, file)
	}
	defer f.Close()
	ofi, err := f.Stat()
	if err != nil || !ofi.Mode().IsRegular() || !os.SameFile(fi, ofi) {
		return nil, refused("%s changed while it was being opened; reload the card", file)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFragmentBytes+1))
	if err != nil {
		return nil, errs.Wrap(err, errs.ToolFailed, "cannot read %s", file)
	}
	if len(data) > MaxFragmentBytes {
		return nil, tooLarge(file, int64(len(data)))
	}
	return data, nil
}

// sameDir confirms an opened directory handle is the directory that was
// inspected with Lstat (not a link swapped in between).
func sameDir(root *os.Root, want fs.FileInfo) error {
	got, err := root.Stat(".")
	if err != nil || !os.SameFile(got, want) {
		return refused("the visualization folder changed while it was being opened; reload the card")
	}
	return nil
}

func notFound(err error, file string) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errs.Wrap(err, errs.NotFound, "%s does not exist in this session's visualization folder", file)
	}
	return errs.Wrap(err, errs.ToolFailed, "cannot open %s", file)
}

func refused(format string, args ...any) error {
	return errs.New(errs.ToolFailed, format, args...)
}

func tooLarge(file string, size int64) error {
	return errs.New(errs.InvalidArgument, "%s is %d bytes; a visualization may be at most %d bytes (2 MB)", file, size, MaxFragmentBytes)
}
