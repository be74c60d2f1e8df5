package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// ImageLoader reads a stored image back by its sha256. A Host that
// implements it lets tool results' images reach models that accept
// images; without it every image is a note.
type ImageLoader interface {
	LoadImage(ctx context.Context, sha256 string) ([]byte, error)
}

// Image token estimate (Anthropic's rule of thumb, close enough for
// OpenAI's tiles): width×height/750, at most about 1,600 for an image
// within the 1568 px edge the host stores.
const (
	imagePixelsPerToken = 750
	maxImageTokens      = 1600
)

func imageTokens(ref provider.ImageRef) int {
	return min(max(ref.Width*ref.Height/imagePixelsPerToken, 1), maxImageTokens)
}

// imageNote is what a model that cannot see images reads instead of one.
func imageNote(ref provider.ImageRef) string {
	return fmt.Sprintf("[image %s %d×%d — the current model cannot see images; switch to a model that accepts images to inspect it]", ref.MediaType, ref.Width, ref.Height)
}

func imageLoadNote(ref provider.ImageRef, err error) string {
	p := errs.ToPayload(err)
	return fmt.Sprintf("[image %s %d×%d could not be loaded (%s: %s); run the tool again if you need to see it]", ref.MediaType, ref.Width, ref.Height, p.Code, p.Message)
}

func imageOmittedNote(ref provider.ImageRef) string {
	return fmt.Sprintf("[image %s %d×%d left out of this request: only the newest %d images are sent; run the tool again if you need to see it]", ref.MediaType, ref.Width, ref.Height, maxRequestImages)
}

func providerRefs(refs []tools.ImageRef) []provider.ImageRef {
	if len(refs) == 0 {
		return nil
	}
	out := make([]provider.ImageRef, len(refs))
	for i, r := range refs {
		out[i] = provider.ImageRef(r)
	}
	return out
}

// What one request may carry. Providers cap images per request (Anthropic:
// 100) and the request's size (Anthropic: 32 MB, with base64 adding a
// third): the newest images go as bytes, older ones past these bounds as a
// line saying so.
const (
	maxRequestImages     = 20
	maxRequestImageBytes = 16 << 20
)

// withImages is msgs as one request sends them: each image reference
// becomes the image's bytes for a model that accepts images, or a line of
// text for one that does not (or when the image cannot be read, or is
// older than the request's image budget). It is decided per request, never
// when the result was recorded: the session's model may change. msgs
// itself is not modified.
func withImages(ctx context.Context, msgs []provider.Message, supports bool, loader ImageLoader) []provider.Message {
	budget := imageBudget(msgs, supports)
	out := msgs
	for i, m := range msgs {
		var content []provider.Block
		for j, b := range m.Content {
			if len(b.ImageRefs) == 0 {
				continue
			}
			if content == nil {
				content = slices.Clone(m.Content)
			}
			content[j] = resolveImages(ctx, b, supports, budget[[2]int{i, j}], loader)
		}
		if content == nil {
			continue
		}
		if &out[0] == &msgs[0] {
			out = slices.Clone(msgs)
		}
		out[i].Content = content
	}
	return out
}

// imageBudget says, per block (message, block index), how many of its
// images, from its first, go as bytes: the newest images of the
// conversation within maxRequestImages and maxRequestImageBytes; none for
// a model without images.
func imageBudget(msgs []provider.Message, supports bool) map[[2]int]int {
	sent := map[[2]int]int{}
	if !supports {
		return sent
	}
	count, bytes := 0, 0
	for i := len(msgs) - 1; i >= 0; i-- {
		for j := len(msgs[i].Content) - 1; j >= 0; j-- {
			refs := msgs[i].Content[j].ImageRefs
			// Within a block the first images go first: a later one may be
			// left out, never an earlier one alone.
			n := 0
			for _, ref := range refs {
				if count == maxRequestImages || bytes+ref.Bytes > maxRequestImageBytes {
					break
				}
				count, bytes, n = count+1, bytes+ref.Bytes, n+1
			}
			if n > 0 {
				sent[[2]int{i, j}] = n
			}
		}
	}
	return sent
}

// resolveImages turns a block's references into bytes (the first send of
// them) and notes (the rest).
func resolveImages(ctx context.Context, b provider.Block, supports bool, send int, loader ImageLoader) provider.Block {
	var notes []string
	var imgs []provider.Image
	for k, ref := range b.ImageRefs {
		if !supports {
			notes = append(notes, imageNote(ref))
			continue
		}
		if k >= send {
			notes = append(notes, imageOmittedNote(ref))
			continue
		}
		var data []byte
		var err error = errs.New(errs.AttachmentNotFound, "no image store is available")
		if loader != nil {
			data, err = loader.LoadImage(ctx, ref.SHA256)
		}
		if err != nil {
			notes = append(notes, imageLoadNote(ref, err))
			continue
		}
		imgs = append(imgs, provider.Image{MediaType: ref.MediaType, Data: data})
	}
	b.ImageRefs, b.Images = nil, imgs
	if len(notes) > 0 {
		if b.Text != "" {
			b.Text += "\n"
		}
		b.Text += strings.Join(notes, "\n")
	}
	return b
}

// imageChars is what a block's images weigh in the context estimate, in
// characters: their tokens for those the request sends (send, from
// imageBudget), their notes for the rest.
func imageChars(b provider.Block, supports bool, send int) int {
	n := 0
	for k, ref := range b.ImageRefs {
		switch {
		case !supports:
			n += len(imageNote(ref)) + 1
		case k >= send:
			n += len(imageOmittedNote(ref)) + 1
		default:
			n += imageTokens(ref) * charsPerToken
		}
	}
	return n
}
