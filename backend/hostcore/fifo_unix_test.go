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

// An external FIFO target is never opened before its card is answered
// (external targets are not read for a preview): the card comes at once
// with a note instead of hanging.
func TestPreviewNeverOpensAFIFO(t *testing.T) {
	e := newEnv(t)
	if err := syscall.Mkfifo(filepath.Join(e.outside, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, card := e.callWithCard("Write", map[string]any{"path": "../outside/pipe", "content": "x", "tag": "0000"}, permission.Denied, nil)
	if res.Code != errs.ToolDenied || card.Diff != "" || !strings.Contains(card.DiffNote, "not read before you allow it") {
		t.Fatalf("FIFO card = %+v, result %+v", card, res)
	}
}
