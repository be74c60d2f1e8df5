package attachments

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// tiedTo checks that the scratch copy name is the file the stored image
// sha was prepared from: its bytes hash to sha (an image sent as it was),
// or preparing them again gives exactly the bytes named sha (PrepareImage
// is deterministic). Without this the window could pair any stored image
// with any attached file, and a copy edited after it was attached would
// reach the model as a picture of what it no longer holds.
func (p *Pasted) tiedTo(root *os.Root, name, sha string) error {
	f, err := root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return errs.Wrap(err, errs.AttachmentInvalid, "cannot read back the attached %s (%v); remove it from the message and attach it again", name, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxInputBytes+1))
	if err != nil {
		return errs.Wrap(err, errs.AttachmentInvalid, "cannot read back the attached %s (%v); remove it from the message and attach it again", name, err)
	}
	if hexSum(data) == sha {
		return nil
	}
	// A file above what PrepareImage reads never had an image stored.
	if len(data) <= MaxInputBytes {
		if prep, err := PrepareImage(data); err == nil && hexSum(prep.Data) == sha {
			return nil
		}
	}
	return errs.New(errs.AttachmentChanged, "the attached %s changed after it was attached (it no longer gives the image %.12s…); nothing was sent — remove it from the message and attach it again", name, sha).With("sha256", sha).With("name", name)
}

func hexSum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
