package hostcore

import (
	"context"
	"errors"
	"io/fs"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/platform/paths"
)

// New creates the data directory, opens the database (migrating it) and runs
// the startup sweep. On error nothing is left open, and the error says what
// is wrong with the data directory and what to do.
func New(ctx context.Context, cfg Config) (*Core, error) {
	c, err := newCore(ctx, cfg)
	if err != nil {
		return nil, startupError(err, paths.Layout{Root: cfg.DataDir})
	}
	return c, nil
}

// startupError names the folder that cannot be written, and a database
// found damaged by any query of the start, not only by the open itself.
func startupError(err error, layout paths.Layout) error {
	var de *paths.DirError
	if errors.As(err, &de) {
		where := "the data folder " + de.Dir
		if de.Dir != layout.Root {
			where = "the folder " + de.Dir + " (in the data folder)"
		}
		return errs.Wrap(err, errs.DataDirNotWritable,
			"%s is not writable (%s); make it writable, or start with another data folder: --data-dir DIR (or %s=DIR)",
			where, reason(de.Err), paths.EnvDataDir).With("path", de.Dir)
	}
	if store.IsDamaged(err) && !errs.Is(err, errs.StorageCorrupt) {
		return store.Damaged(err, layout.Database())
	}
	return err
}

// reason is the system's word for a failed file operation, without the
// path the message already names.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
