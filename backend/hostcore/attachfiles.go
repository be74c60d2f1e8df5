package hostcore

import (
	"context"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/attachments"
)

// AttachFiles copies the files at paths (a drop on the window, the open
// dialog) into sessionID's pasted folder, given what the message being
// composed already holds, and returns their references. A temporary
// session's scratch is its workspace: the same folder.
func (c *Core) AttachFiles(ctx context.Context, sessionID string, paths []string, held api.AttachmentBudget) ([]api.Attachment, error) {
	p, err := c.pasted(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return p.AddFiles(paths, held)
}

// AttachData stores bytes that have no path (an image pasted from the
// clipboard) in sessionID's pasted folder under name.
func (c *Core) AttachData(ctx context.Context, sessionID, name string, data []byte, held api.AttachmentBudget) (api.Attachment, error) {
	p, err := c.pasted(ctx, sessionID)
	if err != nil {
		return api.Attachment{}, err
	}
	return p.AddData(name, data, held)
}

// pasted is the session's pasted folder, its scratch folder created on
// first use.
func (c *Core) pasted(ctx context.Context, sessionID string) (*attachments.Pasted, error) {
	scratch, err := c.sessions.EnsureScratch(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return attachments.NewPasted(filepath.Join(scratch, attachments.PastedFolder), c.attachments), nil
}

// verifyAttachments rebuilds a prompt's attachment references from the
// session's pasted folder: the window's copy of them is not trusted.
func (c *Core) verifyAttachments(ctx context.Context, sessionID string, refs []api.Attachment) ([]api.Attachment, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	b, err := c.sessions.Bind(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return attachments.NewPasted(filepath.Join(b.Scratch, attachments.PastedFolder), c.attachments).Verify(refs)
}
