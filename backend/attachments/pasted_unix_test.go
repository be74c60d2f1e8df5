//go:build unix

package attachments_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestAddFilesNeverFollowsALinkedSource(t *testing.T) {
	p, _ := newPasted(t)
	src := t.TempDir()
	secret := filepath.Join(src, "secret")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(src, "good.txt")
	if err := os.WriteFile(good, []byte("good"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(src, "innocent.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	// The good file first: the whole batch is refused, nothing is copied.
	if _, err := p.AddFiles([]string{good, link}, api.AttachmentBudget{}); !errs.Is(err, errs.AttachmentNotRegular) {
		t.Fatalf("linked source = %v, want ATTACHMENT_NOT_REGULAR", err)
	}
	if names := entries(t, p.Dir()); len(names) != 0 {
		t.Fatalf("a refused batch left %v in the pasted folder", names)
	}
}

func TestAddFilesRefusesAFIFOWithoutWaiting(t *testing.T) {
	p, _ := newPasted(t)
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := p.AddFiles([]string{fifo}, api.AttachmentBudget{})
		done <- err
	}()
	select {
	case err := <-done:
		if !errs.Is(err, errs.AttachmentNotRegular) {
			t.Fatalf("FIFO = %v, want ATTACHMENT_NOT_REGULAR", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("AddFiles of a FIFO is waiting for a writer")
	}
}

// A link planted in the pasted folder under the name a copy wants is
// never written through: the copy takes the next free name.
func TestPlantedLinkInThePastedFolderIsNotWrittenThrough(t *testing.T) {
	p, _ := newPasted(t)
	if err := os.Mkdir(p.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("untouched"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(p.Dir(), "notes.txt")); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(t.TempDir(), "would-be-created")
	if err := os.Symlink(dangling, filepath.Join(p.Dir(), "notes (2).txt")); err != nil {
		t.Fatal(err)
	}
	a, err := p.AddData("notes.txt", []byte("pasted"), api.AttachmentBudget{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "notes (3).txt" {
		t.Errorf("copy named %q, want notes (3).txt", a.Name)
	}
	if got, _ := os.ReadFile(victim); string(got) != "untouched" {
		t.Errorf("the link's target now holds %q", got)
	}
	if _, err := os.Lstat(dangling); !os.IsNotExist(err) {
		t.Errorf("a dangling link's target was created (%v)", err)
	}
	// At dispatch, a reference to the planted link is refused.
	if _, err := p.Verify([]api.Attachment{{Path: filepath.Join(p.Dir(), "notes.txt")}}); !errs.Is(err, errs.AttachmentNotRegular) {
		t.Errorf("Verify of a planted link = %v, want ATTACHMENT_NOT_REGULAR", err)
	}
}

func TestALinkedPastedFolderIsRefused(t *testing.T) {
	scratch := t.TempDir()
	elsewhere := t.TempDir()
	dir := filepath.Join(scratch, attachments.PastedFolder)
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	p := attachments.NewPasted(dir, attachments.New(t.TempDir()))
	if _, err := p.AddData("a.txt", []byte("a"), api.AttachmentBudget{}); !errs.Is(err, errs.StorageCorrupt) {
		t.Fatalf("linked pasted folder = %v, want STORAGE_CORRUPT", err)
	}
	if names := entries(t, elsewhere); len(names) != 0 {
		t.Fatalf("wrote %v through the linked folder", names)
	}
}
