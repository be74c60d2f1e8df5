package desktop

import (
	"context"
	"encoding/base64"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// Attachments copies the composer's files into a session's pasted folder
// (issue 23): dropped on the window, chosen in the open dialog, or pasted
// from the clipboard. Each call returns references; the message carries
// them, never the bytes.
type Attachments struct{ h Handle }

// AttachFiles copies the files at paths (absolute, from a drop on the
// window) given what the message already holds.
func (a *Attachments) AttachFiles(sessionID string, paths []string, held api.AttachmentBudget) ([]api.Attachment, error) {
	return with(a.h, func(ctx context.Context, c *hostcore.Core) ([]api.Attachment, error) {
		return c.AttachFiles(ctx, sessionID, paths, held)
	})
}

// AttachData stores what has no path (an image pasted from the clipboard,
// a file dropped on a browser page): its bytes in base64, sent once.
func (a *Attachments) AttachData(sessionID, name, dataBase64 string, held api.AttachmentBudget) (api.Attachment, error) {
	return with(a.h, func(ctx context.Context, c *hostcore.Core) (api.Attachment, error) {
		// Refused before decoding: a huge paste costs no memory twice.
		if len(dataBase64) > base64.StdEncoding.EncodedLen(attachments.MaxFileBytes) {
			return api.Attachment{}, errs.New(errs.AttachmentTooLarge, "the pasted data is above the %d MB a file may have; save it to a file and attach a smaller one", attachments.MaxFileBytes>>20)
		}
		data, err := base64.StdEncoding.DecodeString(dataBase64)
		if err != nil {
			return api.Attachment{}, errs.New(errs.InvalidArgument, "the pasted data is not base64 (%v); paste it again", err)
		}
		return c.AttachData(ctx, sessionID, name, data, held)
	})
}

// ChooseFiles opens the system's file dialog (several files may be
// chosen) and copies the chosen files; none chosen is an empty list.
func (a *Attachments) ChooseFiles(sessionID string, held api.AttachmentBudget) ([]api.Attachment, error) {
	return with(a.h, func(ctx context.Context, c *hostcore.Core) ([]api.Attachment, error) {
		win := a.h.Window()
		if win == nil {
			return nil, errs.New(errs.Internal, "the window is not ready yet; try again")
		}
		paths, err := wruntime.OpenMultipleFilesDialog(win, wruntime.OpenDialogOptions{Title: "Attach files"})
		if err != nil {
			return nil, errs.Wrap(err, errs.Internal, "the file dialog failed (%v); drop the files on the window instead", err)
		}
		if len(paths) == 0 {
			return []api.Attachment{}, nil
		}
		return c.AttachFiles(ctx, sessionID, paths, held)
	})
}
