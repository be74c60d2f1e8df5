package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/pi-desktop/pi-desktop/backend/review"
)

// ChangePreview is what a mutation would do to its target, shown on its
// approval card: a bounded unified diff, or a note saying why there is none.
type ChangePreview struct {
	Diff string
	Note string
}

// Previewer is implemented by tools that can show, before an approval,
// what a call would change. Preview reads through c.Resolver like the tool
// itself, writes nothing and records nothing; it never fails the call:
// what it cannot show goes in Note, and the real run decides as it would
// have without a preview.
type Previewer interface {
	Preview(ctx context.Context, c *Call) ChangePreview
}

// preview turns a review diff into a card preview.
func preview(before []byte, beforePresent bool, after []byte, afterPresent bool) ChangePreview {
	p := review.PreviewChange(before, beforePresent, after, afterPresent)
	return ChangePreview{Diff: p.Diff, Note: p.Note}
}

// readForPreview reads the current target for a preview: present false
// when it does not exist, note set when it cannot be shown (not a regular
// file, too large, unreadable). Opened non-blocking and checked on the open
// handle, so a FIFO swapped in after the Stat cannot hang the card.
func readForPreview(c *Call) (data []byte, present bool, note string) {
	fi, err := c.Resolver.Stat(*c.Target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, ""
	case err != nil:
		return nil, false, "no diff preview: the file cannot be inspected"
	case !fi.Mode().IsRegular():
		return nil, false, "no diff preview: not a regular file"
	case fi.Size() > review.MaxDiffBytes:
		return nil, false, fmt.Sprintf("file too large to preview a diff (over %d KB)", review.MaxDiffBytes>>10)
	}
	f, err := c.Resolver.OpenFile(*c.Target, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false, "no diff preview: the file cannot be read"
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false, "no diff preview: not a regular file"
	}
	data, err = io.ReadAll(io.LimitReader(f, review.MaxDiffBytes+1))
	if err != nil {
		return nil, false, "no diff preview: the file cannot be read"
	}
	if len(data) > review.MaxDiffBytes {
		return nil, false, fmt.Sprintf("file too large to preview a diff (over %d KB)", review.MaxDiffBytes>>10)
	}
	return data, true, ""
}
