package hostcore

import (
	"context"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// AttachmentsDir is the content-addressed image store,
// <data dir>/attachments/<sha256> (spec §4b). The window's image route
// serves from it; it may not exist until the first image is stored.
func (c *Core) AttachmentsDir() string { return c.attachments.Dir() }

// attachmentsGrace is how long a stored image is kept before anything has
// to refer to it: the call that stored it may still be writing its row.
const attachmentsGrace = 10 * time.Minute

// SweepAttachments deletes the stored images no recorded tool call refers
// to any more (their sessions were deleted), keeping those younger than
// attachmentsGrace. It runs in the background at startup and after a
// session or a project is deleted; it returns how many files went.
func (c *Core) SweepAttachments(ctx context.Context) (int, error) {
	// The cut-off comes first: a file stored after it is young whatever
	// the reference query misses.
	olderThan := time.Now().Add(-attachmentsGrace) // the files' clock, not cfg.Now
	refs, err := c.agent.ReferencedImages(ctx)
	if err != nil {
		return 0, err
	}
	return c.attachments.Sweep(ctx, func(sha string) bool { return refs[sha] }, olderThan)
}

// sweepAttachments is SweepAttachments whose failure costs disk space, not
// the operation that asked for it: logged, not returned.
func (c *Core) sweepAttachments(ctx context.Context) {
	n, err := c.SweepAttachments(ctx)
	if err != nil {
		c.log.Warn("sweep attachments", "code", errs.CodeOf(err), "err", err)
	}
	if n > 0 {
		c.log.Info("attachments swept", "removed", n)
	}
}
