package hostcore

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// What one tool result's images may cost. At most maxResultImages are
// kept (a screenshot tool gone wild must not flood the context), at most
// maxExaminedImages are prepared at all (each costs a decode), and at most
// maxImageNotes failures get a line of their own: the rest is one summary
// line, so the notes stay a few hundred bytes whatever a server sends.
const (
	maxResultImages   = 8
	maxExaminedImages = 12
	maxImageNotes     = 3
	imageNoteBytes    = 240
	mediaTypeRunes    = 40
	// maxImagePreparations bounds the decodes running at once in the host:
	// each may hold a few hundred MB of pixels.
	maxImagePreparations = 2
)

// storeImages turns a result's raw images into stored references: each is
// prepared (sniffed, downscaled, re-encoded) and written to the
// attachments store, and the bytes leave the result, so the audit row, the
// database and the UI event carry references only. An image that cannot
// be kept costs a line in the result's text, never the call; the text with
// its notes stays within the result bound. A Stop (ctx) ends the
// preparation between images.
func (c *Core) storeImages(ctx context.Context, res tools.Result) tools.Result {
	raws := res.RawImages
	res.RawImages = nil
	if len(raws) == 0 {
		return res
	}
	var notes []string
	failed, examined := 0, 0
	stopped := false
	for i, raw := range raws {
		if len(res.Images) == maxResultImages || examined == maxExaminedImages {
			break
		}
		if ctx.Err() != nil {
			stopped = true
			break
		}
		examined++
		ref, err := c.storeImage(ctx, raw)
		if err != nil {
			failed++
			p := errs.ToPayload(err)
			c.log.Warn("tool result image not kept", "code", p.Code)
			if failed <= maxImageNotes {
				notes = append(notes, truncate.BytesEllipsis(fmt.Sprintf("[image %d (%s, %d bytes) not kept: %s %s", i+1, declared(raw.MediaType), len(raw.Data), p.Code, p.Message), imageNoteBytes)+"]")
			}
			continue
		}
		res.Images = append(res.Images, ref)
	}
	if n := failed - maxImageNotes; n > 0 {
		notes = append(notes, fmt.Sprintf("[%d more image(s) could not be kept either]", n))
	}
	if rest := len(raws) - examined; rest > 0 {
		why := fmt.Sprintf("at most %d images are kept and %d examined per tool result", maxResultImages, maxExaminedImages)
		if stopped {
			why = "the call was stopped"
		}
		notes = append(notes, fmt.Sprintf("[%d more image(s) were not examined: %s]", rest, why))
	}
	return tools.AppendBounded(res, strings.Join(notes, "\n"))
}

func (c *Core) storeImage(ctx context.Context, raw tools.RawImage) (tools.ImageRef, error) {
	select {
	case c.imageSlots <- struct{}{}:
	case <-ctx.Done():
		return tools.ImageRef{}, errs.New(errs.ToolAborted, "the call was stopped before the image was prepared")
	}
	p, err := attachments.PrepareImage(raw.Data)
	<-c.imageSlots
	if err != nil {
		return tools.ImageRef{}, err
	}
	sha, err := c.attachments.Put(p.Data)
	if err != nil {
		return tools.ImageRef{}, err
	}
	return tools.ImageRef{SHA256: sha, MediaType: p.MediaType, Width: p.Width, Height: p.Height, Bytes: len(p.Data)}, nil
}

// declared is the media type a tool claimed, clipped to a short printable
// label: it is the tool's text, not ours, and lands in the model's context.
func declared(mediaType string) string {
	if mediaType == "" {
		return "no declared type"
	}
	clean := strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) && r != ']' {
			return r
		}
		return '?'
	}, mediaType)
	return truncate.RunesEllipsis(clean, mediaTypeRunes)
}

// LoadImage is the agent's seam to the attachments store: a tool result's
// image is read back when a request for an image-capable model is built.
func (h agentHost) LoadImage(_ context.Context, sha string) ([]byte, error) {
	return h.c.attachments.Read(sha)
}
