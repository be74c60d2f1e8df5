package hostcore

import (
	"context"
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// maxResultImages bounds the images one tool result keeps; the rest are
// named in a note (a screenshot tool gone wild must not flood the context).
const maxResultImages = 8

// storeImages turns a result's raw images into stored references: each is
// prepared (sniffed, downscaled, re-encoded) and written to the
// attachments store, and the bytes leave the result, so the audit row, the
// database and the UI event carry references only. An image that cannot
// be kept costs a line in the result's text, never the call.
func (c *Core) storeImages(res tools.Result) tools.Result {
	raws := res.RawImages
	res.RawImages = nil
	if len(raws) == 0 {
		return res
	}
	var notes []string
	for i, raw := range raws {
		if len(res.Images) == maxResultImages {
			notes = append(notes, fmt.Sprintf("[%d more image(s) not kept: at most %d images per tool result]", len(raws)-i, maxResultImages))
			break
		}
		ref, err := c.storeImage(raw)
		if err != nil {
			p := errs.ToPayload(err)
			notes = append(notes, fmt.Sprintf("[image %d (%s, %d bytes) not kept: %s %s]", i+1, declared(raw.MediaType), len(raw.Data), p.Code, p.Message))
			c.log.Warn("tool result image not kept", "code", p.Code)
			continue
		}
		res.Images = append(res.Images, ref)
	}
	if len(notes) > 0 {
		if res.Content != "" && !strings.HasSuffix(res.Content, "\n") {
			res.Content += "\n"
		}
		res.Content += strings.Join(notes, "\n")
	}
	return res
}

func (c *Core) storeImage(raw tools.RawImage) (tools.ImageRef, error) {
	p, err := attachments.PrepareImage(raw.Data)
	if err != nil {
		return tools.ImageRef{}, err
	}
	sha, err := c.attachments.Put(p.Data)
	if err != nil {
		return tools.ImageRef{}, err
	}
	return tools.ImageRef{SHA256: sha, MediaType: p.MediaType, Width: p.Width, Height: p.Height, Bytes: len(p.Data)}, nil
}

func declared(mediaType string) string {
	if mediaType == "" {
		return "no declared type"
	}
	return mediaType
}

// ReadAttachment returns a stored attachment's bytes by its sha256 (64
// lowercase hex digits; anything else is refused).
func (c *Core) ReadAttachment(sha string) ([]byte, error) {
	return c.attachments.Read(sha)
}

// LoadImage is the agent's seam to the attachments store: a tool result's
// image is read back when a request for an image-capable model is built.
func (h agentHost) LoadImage(_ context.Context, sha string) ([]byte, error) {
	return h.c.attachments.Read(sha)
}
