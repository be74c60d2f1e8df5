package agent

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// What a model reads of a prompt's attachments: every file as an @ path,
// an image also as an image reference (sent as the image, or the note
// that the model cannot see it, per request).
func TestAttachmentNoteGolden(t *testing.T) {
	atts := []api.Attachment{
		{Path: "/data/scratch/s1/pasted/shot.png", Name: "shot.png", Size: 250_000, MediaType: "image/png",
			SHA256: strings.Repeat("a", 64), Width: 1568, Height: 156, ImageBytes: 90_000, ImageMediaType: "image/png"},
		{Path: "/data/scratch/s1/pasted/my notes.txt", Name: "my notes.txt", Size: 18, MediaType: "text/plain; charset=utf-8"},
		{Path: "/data/scratch/s1/pasted/photo.webp", Name: "photo.webp", Size: 3 << 20, MediaType: "image/webp",
			SHA256: strings.Repeat("b", 64), Width: 800, Height: 600, ImageBytes: 70_000, ImageMediaType: "image/jpeg"},
	}
	m := promptMessage(promptContent("what is in these?", atts))
	if len(m.Content) != 2 {
		t.Fatalf("%d blocks, want the prompt and the attachment note", len(m.Content))
	}
	note := m.Content[1]
	refs := note.ImageRefs
	if len(refs) != 2 || refs[0].SHA256 != atts[0].SHA256 || refs[1].MediaType != "image/jpeg" || refs[1].Bytes != 70_000 {
		t.Errorf("image refs = %+v: want the two prepared images, each with the prepared type", refs)
	}
	golden.Assert(t, filepath.Join("testdata", "attachment_note.golden"), note.Text)
	// Without attachments the prompt is unchanged.
	if m := promptMessage(promptContent("plain", nil)); len(m.Content) != 1 {
		t.Errorf("a prompt without attachments got %d blocks", len(m.Content))
	}
}
