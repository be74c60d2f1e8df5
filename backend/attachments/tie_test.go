package attachments_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Verify ties an image's sha256 to its scratch copy and to the stored
// bytes: an image kept as it was and one downscaled both pass, and any
// change on either side, or a sha paired with another file, fails closed
// with ATTACHMENT_CHANGED.
func TestVerifyTiesImageToItsFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		// change alters the attachment (or builds the ref) after it was
		// attached; nil leaves it alone.
		change func(t *testing.T, p *attachments.Pasted, store *attachments.Store, a, other api.Attachment) api.Attachment
		want   errs.Code // "" when Verify must pass
	}{
		{name: "small image kept as it was"},
		{name: "wide image downscaled", change: func(_ *testing.T, _ *attachments.Pasted, _ *attachments.Store, _, other api.Attachment) api.Attachment {
			return other
		}},
		{name: "scratch copy edited", want: errs.AttachmentChanged, change: func(t *testing.T, _ *attachments.Pasted, _ *attachments.Store, a, _ api.Attachment) api.Attachment {
			writeFile(t, a.Path, pngOf(t, 41, 30))
			return a
		}},
		{name: "stored copy tampered", want: errs.AttachmentChanged, change: func(t *testing.T, _ *attachments.Pasted, store *attachments.Store, a, _ api.Attachment) api.Attachment {
			writeFile(t, filepath.Join(store.Dir(), a.SHA256), pngOf(t, 41, 30))
			return a
		}},
		{name: "sha of another image", want: errs.AttachmentChanged, change: func(t *testing.T, _ *attachments.Pasted, _ *attachments.Store, a, other api.Attachment) api.Attachment {
			a.SHA256 = other.SHA256
			return a
		}},
		{name: "sha on a text file", want: errs.AttachmentChanged, change: func(t *testing.T, p *attachments.Pasted, _ *attachments.Store, a, _ api.Attachment) api.Attachment {
			txt, err := p.AddData("notes.txt", []byte("not a picture\n"), api.AttachmentBudget{})
			if err != nil {
				t.Fatal(err)
			}
			txt.SHA256 = a.SHA256
			return txt
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, store := newPasted(t)
			small, err := p.AddData("shot.png", pngOf(t, 40, 30), api.AttachmentBudget{})
			if err != nil {
				t.Fatal(err)
			}
			wide, err := p.AddData("wide.png", pngOf(t, 2000, 100), api.AttachmentBudget{})
			if err != nil {
				t.Fatal(err)
			}
			if small.SHA256 == "" || wide.SHA256 == "" || wide.ImageBytes == int(wide.Size) {
				t.Fatalf("setup: small %+v wide %+v (the wide one must be downscaled)", small, wide)
			}
			ref := small
			if tc.change != nil {
				ref = tc.change(t, p, store, small, wide)
			}
			got, err := p.Verify([]api.Attachment{ref})
			if tc.want == "" {
				if err != nil || len(got) != 1 || got[0] != ref {
					t.Fatalf("Verify = %+v, %v; want %+v", got, err, ref)
				}
				return
			}
			if !errs.Is(err, tc.want) {
				t.Fatalf("Verify = %v, want %s", err, tc.want)
			}
			if e := errs.As(err); e == nil || !strings.Contains(e.Message, "attach it again") {
				t.Errorf("the message must name the next step: %v", err)
			}
		})
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
