//go:build unix

package attachments_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestOpenDoesNotFollowALinkOutOfTheStore(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sha := hexSHA([]byte("secret"))
	if err := os.Symlink(outside, filepath.Join(dir, sha)); err != nil {
		t.Fatal(err)
	}
	if data, err := attachments.New(dir).Read(sha); err == nil {
		t.Fatalf("read %q through a link out of the store", data)
	}
}

// A FIFO under a key is refused at once: opening it must not wait for a
// writer (Read used to hang there for ever).
func TestReadRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	sha := hexSHA([]byte("fifo"))
	if err := syscall.Mkfifo(filepath.Join(dir, sha), 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := attachments.New(dir).Read(sha)
		done <- err
	}()
	select {
	case err := <-done:
		if !errs.Is(err, errs.StorageCorrupt) {
			t.Fatalf("Read = %v, want STORAGE_CORRUPT", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read of a FIFO is still waiting for a writer")
	}
}

// The store folder itself must be a folder, not a link to one elsewhere.
func TestReadRefusesALinkedStoreFolder(t *testing.T) {
	elsewhere := t.TempDir()
	sha, err := attachments.New(elsewhere).Put([]byte("elsewhere"))
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "attachments")
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	if data, err := attachments.New(link).Read(sha); !errs.Is(err, errs.StorageCorrupt) {
		t.Fatalf("read %q through a linked store folder: %v", data, err)
	}
}
