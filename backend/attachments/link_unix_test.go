//go:build unix

package attachments_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/attachments"
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
