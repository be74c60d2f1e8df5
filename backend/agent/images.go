package agent

import (
	"context"
	"encoding/json"
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

// imageOmittedNote says which of the request's limits left an image out.
func imageOmittedNote(ref provider.ImageRef, why omitted) string {
	limit := fmt.Sprintf("the limit of %d images per request", maxRequestImages)
	if why == omittedSize {
		limit = fmt.Sprintf("the limit of %d MB of images per request", maxRequestImageBytes>>20)
	}
	return fmt.Sprintf("[image %s %d×%d left out of this request: %s leaves the oldest images out; run the tool again if you need to see it]", ref.MediaType, ref.Width, ref.Height, limit)
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
// line saying so. The cut-off moves in steps (countStep images,
// byteStep bytes), so the blocks before it stay byte-identical from one
// request to the next and the provider's prompt cache keeps its prefix;
// between steps a request sends fewer than the maximum.
const (
	maxRequestImages     = 20
	maxRequestImageBytes = 16 << 20
	countStep            = 10
	byteStep             = 8 << 20
)

// omitted says why an image is left out of a request.
type omitted int

const (
	omittedCount omitted = iota + 1
	omittedSize
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

// blockCut is how many of a block's images, from its first, a request
// leaves out: byCount for the count limit, then bySize for the size limit.
type blockCut struct{ byCount, bySize int }

func (c blockCut) why(k int) omitted {
	switch {
	case k < c.byCount:
		return omittedCount
	case k < c.byCount+c.bySize:
		return omittedSize
	}
	return 0
}

// imageBudget says, per block (message, block index), how many of its
// images the request leaves out. The conversation's images, oldest first,
// lose a prefix: for the count, the excess over maxRequestImages rounded
// up to countStep; for the size, the shortest prefix whose bytes cover the
// excess over maxRequestImageBytes rounded up to byteStep. Both depend
// only on the images' order and sizes, so a new image moves the cut only
// when it crosses a step. Nothing is left out for a model without images.
func imageBudget(msgs []provider.Message, supports bool) map[[2]int]blockCut {
	cuts := map[[2]int]blockCut{}
	if !supports {
		return cuts
	}
	var sizes []int
	total := 0
	for _, m := range msgs {
		for _, b := range m.Content {
			for _, ref := range b.ImageRefs {
				sizes = append(sizes, ref.Bytes)
				total += ref.Bytes
			}
		}
	}
	byCount := 0
	if over := len(sizes) - maxRequestImages; over > 0 {
		byCount = min(roundUp(over, countStep), len(sizes))
	}
	bySize := 0
	if over := total - maxRequestImageBytes; over > 0 {
		need := roundUp(over, byteStep)
		for dropped := 0; bySize < len(sizes) && dropped < need; bySize++ {
			dropped += sizes[bySize]
		}
	}
	bySize = max(bySize, byCount)
	g := 0 // the index of the block's first image among all of them
	for i, m := range msgs {
		for j, b := range m.Content {
			n := len(b.ImageRefs)
			if n == 0 {
				continue
			}
			c := blockCut{byCount: clamp(byCount-g, n)}
			c.bySize = clamp(bySize-g, n) - c.byCount
			if c.byCount+c.bySize > 0 {
				cuts[[2]int{i, j}] = c
			}
			g += n
		}
	}
	return cuts
}

func roundUp(n, step int) int { return (n + step - 1) / step * step }

// clamp is n within [0, hi].
func clamp(n, hi int) int { return min(max(n, 0), hi) }

// resolveImages turns a block's references into bytes (those cut leaves
// in) and notes (the rest).
func resolveImages(ctx context.Context, b provider.Block, supports bool, cut blockCut, loader ImageLoader) provider.Block {
	var notes []string
	var imgs []provider.Image
	for k, ref := range b.ImageRefs {
		if !supports {
			notes = append(notes, imageNote(ref))
			continue
		}
		if why := cut.why(k); why != 0 {
			notes = append(notes, imageOmittedNote(ref, why))
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
// characters: their tokens for those the request sends (cut, from
// imageBudget), their notes for the rest.
func imageChars(b provider.Block, supports bool, cut blockCut) int {
	n := 0
	for k, ref := range b.ImageRefs {
		switch {
		case !supports:
			n += len(imageNote(ref)) + 1
		case cut.why(k) != 0:
			n += len(imageOmittedNote(ref, cut.why(k))) + 1
		default:
			n += imageTokens(ref) * charsPerToken
		}
	}
	return n
}

// ReferencedImages is the set of stored images (by sha256) that some
// recorded tool call refers to: what the attachments store must keep. A
// row that cannot be read fails the whole answer, so nothing is deleted
// on a guess.
func (a *Agent) ReferencedImages(ctx context.Context) (map[string]bool, error) {
	rows, err := a.st.db.QueryContext(ctx, `SELECT images FROM agent_tool_calls WHERE images != ''`)
	if err != nil {
		return nil, storageErr(err, "list the images tool results refer to")
	}
	defer rows.Close()
	refs := map[string]bool{}
	for rows.Next() {
		var col string
		if err := rows.Scan(&col); err != nil {
			return nil, storageErr(err, "list the images tool results refer to")
		}
		var images []tools.ImageRef
		if err := json.Unmarshal([]byte(col), &images); err != nil {
			return nil, errs.Wrap(err, errs.StorageCorrupt, "a tool call's image list is not readable (%v); no stored image was deleted", err)
		}
		for _, ref := range images {
			refs[ref.SHA256] = true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "list the images tool results refer to")
	}
	if err := a.attachedImages(ctx, refs); err != nil {
		return nil, err
	}
	return refs, nil
}
