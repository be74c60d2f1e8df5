package history

import (
	"io"
	"os"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// WriteFile writes an export to path through a temporary file beside it,
// so a failed export never leaves half a file where the user asked for one.
func WriteFile(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return errs.Wrap(err, errs.InvalidArgument, "cannot write %s: %v; choose a folder you can write to", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return errs.Wrap(err, errs.InvalidArgument, "cannot write %s: %v; check the disk has room", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return errs.Wrap(err, errs.InvalidArgument, "cannot write %s: %v; choose a folder you can write to", path, err)
	}
	return nil
}

// maxStem bounds an export file's name before its extension, in bytes.
const maxStem = 80

// FileStem cuts name to a length every file system accepts.
func FileStem(name string) string { return truncate.Bytes(name, maxStem) }
