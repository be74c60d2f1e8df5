package hostcore_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/review"
)

// A workspace Write over the 16 MiB text limit lands, and its result gives
// the real size and names both limits that applied (no tag; no rollback,
// as its review record keeps no snapshot), instead of the bounded read's
// length and "binary" (issue 13, bounded memory). The tool-level test
// covers the other cases; this one is kept small because a call this size
// is slow under -race (JSON decoding).
func TestWriteOverTextLimitReportsSizeAndLimit(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	content := strings.Repeat("abcdefghi\n", 1_700_000) // 17,000,000 bytes of text
	res := e.call(e.session.ID, "Write", map[string]any{"path": "big.txt", "content": content})
	if !res.OK {
		t.Fatalf("Write = %+v", res)
	}
	if got, _ := os.ReadFile(filepath.Join(e.project, "big.txt")); string(got) != content {
		t.Fatalf("the file on disk is %d bytes, want the %d sent", len(got), len(content))
	}
	if res.Fields["bytes"] != int64(17_000_000) || res.Fields["tooLarge"] != true || res.Fields["binary"] != nil || res.Fields["tag"] != nil {
		t.Errorf("fields = %v; want bytes 17000000, tooLarge, no binary, no tag", res.Fields)
	}
	if want := "created big.txt: 17,000,000 bytes, no tag (larger than the 16 MiB text limit)"; res.Content != want {
		t.Errorf("content = %q, want %q", res.Content, want)
	}
	want := "wrote 17,000,000 bytes to big.txt; larger than the 16 MiB (16,777,216-byte) text limit, so this change cannot be rolled back (the review keeps snapshots up to 16 MiB) and no tag was issued, so Edit and Write cannot change it. Read it with offset/limit, or change it with Bash"
	if res.Notice != want {
		t.Errorf("notice = %q\nwant %q", res.Notice, want)
	}
	changes, _ := res.Fields["review"].([]review.Change)
	if len(changes) != 1 || changes[0].Reversible {
		t.Errorf("review = %+v; want one irreversible record", changes)
	}
}
