//go:build unix

package desktop

import (
	"net/http"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO under an image's name is refused at once: opening it must not
// wait for a writer.
func TestAttachmentRouteRefusesAFIFO(t *testing.T) {
	_, dir := store(t)
	name := hashName([]byte("fifo"))
	if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	if rec := serve(t, routeAt(dir), http.MethodGet, AttachmentsPrefix+name, nil); rec.Code != http.StatusNotFound {
		t.Fatalf("%d", rec.Code)
	}
}
