//go:build unix

package hostcore_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// A FIFO is never opened for a preview (an external target is not
// prechecked before its card): the card comes with a note instead of hanging.
func TestPreviewNeverOpensAFIFO(t *testing.T) {
	e := newEnv(t)
	if err := syscall.Mkfifo(filepath.Join(e.outside, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, card := e.callWithCard("Write", map[string]any{"path": "../outside/pipe", "content": "x", "tag": "0000"}, permission.Denied, nil)
	if res.Code != errs.ToolDenied || card.Diff != "" || !strings.Contains(card.DiffNote, "not a regular file") {
		t.Fatalf("FIFO card = %+v, result %+v", card, res)
	}
}
