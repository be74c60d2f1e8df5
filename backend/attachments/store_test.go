package attachments_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func hexSHA(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestPutReadRoundTripAndIdempotent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "attachments")
	s := attachments.New(dir)
	data := []byte("\x89PNG pretend bytes")
	sha, err := s.Put(data)
	if err != nil {
		t.Fatal(err)
	}
	if sha != hexSHA(data) {
		t.Fatalf("sha = %s, want %s", sha, hexSHA(data))
	}
	again, err := s.Put(data)
	if err != nil || again != sha {
		t.Fatalf("second Put = %s, %v", again, err)
	}
	got, err := s.Read(sha)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Read = %q, %v", got, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != sha {
		t.Fatalf("folder holds %v, want only %s (no temporary files left)", entries, sha)
	}
	if runtime.GOOS != "windows" {
		fi, _ := os.Stat(filepath.Join(dir, sha))
		di, _ := os.Stat(dir)
		if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
			t.Errorf("modes file %v dir %v, want 0600 / 0700", fi.Mode().Perm(), di.Mode().Perm())
		}
	}
}

func TestReadRefusesBadKeys(t *testing.T) {
	dir := t.TempDir()
	s := attachments.New(dir)
	sha, err := s.Put([]byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{
		"", "..", "../" + sha[3:], strings.ToUpper(sha), sha + "0", sha[:63], sha[:62] + "/x",
		sha[:63] + "g", "/etc/passwd", sha[:60] + "\x00abc",
	} {
		if _, err := s.Read(key); !errs.Is(err, errs.InvalidArgument) {
			t.Errorf("Read(%q) = %v, want INVALID_ARGUMENT", key, err)
		}
	}
}

func TestReadMissingAndTampered(t *testing.T) {
	dir := t.TempDir()
	s := attachments.New(filepath.Join(dir, "never-created"))
	missing := hexSHA([]byte("nothing"))
	if _, err := s.Read(missing); !errs.Is(err, errs.AttachmentNotFound) {
		t.Fatalf("missing folder: %v, want ATTACHMENT_NOT_FOUND", err)
	}
	s = attachments.New(dir)
	if _, err := s.Read(missing); !errs.Is(err, errs.AttachmentNotFound) {
		t.Fatalf("missing file: %v, want ATTACHMENT_NOT_FOUND", err)
	}
	sha, _ := s.Put([]byte("original"))
	if err := os.WriteFile(filepath.Join(dir, sha), []byte("changed!"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read(sha); !errs.Is(err, errs.AttachmentChanged) {
		t.Fatalf("tampered: %v, want ATTACHMENT_CHANGED", err)
	}
	// Put of the original bytes repairs the entry.
	if _, err := s.Put([]byte("original")); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Read(sha); err != nil || string(got) != "original" {
		t.Fatalf("after repair: %q %v", got, err)
	}
}
