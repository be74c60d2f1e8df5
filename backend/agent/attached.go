package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// promptContent is a prompt as stored: the user's text, carrying the
// references of the files attached to it (never their bytes).
func promptContent(prompt string, atts []api.Attachment) []provider.Block {
	return []provider.Block{{Type: provider.BlockText, Text: prompt, Attachments: atts}}
}

// attachmentBlock is what a model reads of a prompt's attachments: every
// file as an @ path (a copy in the session's scratch folder, which Read
// reaches), and each prepared image as an image reference, which the
// request turns into the image for a model that accepts images or into a
// note that it cannot see it (withImages). Derived per request, never
// stored.
func attachmentBlock(atts []api.Attachment) (provider.Block, bool) {
	if len(atts) == 0 {
		return provider.Block{}, false
	}
	var b strings.Builder
	b.WriteString("[The user attached these files to this message. They are copies in the session's scratch folder: " +
		"Read them by absolute path when you need their contents.]")
	var refs []provider.ImageRef
	for _, a := range atts {
		fmt.Fprintf(&b, "\n- @%s (%s, %s)", quoteRef(a.Path), a.MediaType, humanBytes(a.Size))
		if a.SHA256 == "" {
			continue
		}
		mt := a.ImageMediaType
		if mt == "" {
			mt = a.MediaType
		}
		refs = append(refs, provider.ImageRef{SHA256: a.SHA256, MediaType: mt, Width: a.Width, Height: a.Height, Bytes: a.ImageBytes})
	}
	return provider.Block{Type: provider.BlockText, Text: b.String(), ImageRefs: refs}, true
}

// quoteRef spells a path the way the composer writes an @ reference: in
// quotes when it holds white space.
func quoteRef(path string) string {
	if strings.ContainsFunc(path, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }) {
		return `"` + path + `"`
	}
	return path
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// attachedImages adds to refs the stored images prompts' attachments
// refer to: the attachments store must keep them.
func (a *Agent) attachedImages(ctx context.Context, refs map[string]bool) error {
	rows, err := a.st.db.QueryContext(ctx, `SELECT content FROM agent_messages WHERE kind = 'prompt' AND content LIKE '%"attachments"%'`)
	if err != nil {
		return storageErr(err, "list the images prompts refer to")
	}
	defer rows.Close()
	for rows.Next() {
		var col string
		if err := rows.Scan(&col); err != nil {
			return storageErr(err, "list the images prompts refer to")
		}
		var blocks []provider.Block
		if err := json.Unmarshal([]byte(col), &blocks); err != nil {
			return errs.Wrap(err, errs.StorageCorrupt, "a prompt's attachment list is not readable (%v); no stored image was deleted", err)
		}
		for _, b := range blocks {
			for _, at := range b.Attachments {
				if at.SHA256 != "" {
					refs[at.SHA256] = true
				}
			}
		}
	}
	if err := rows.Err(); err != nil {
		return storageErr(err, "list the images prompts refer to")
	}
	return nil
}
