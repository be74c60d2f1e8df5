package paths

import (
	"fmt"
	"os"
)

// DirError names the folder of the data directory that could not be
// created or written, so the caller can say which one.
type DirError struct {
	Dir string
	Err error
}

func (e *DirError) Error() string { return fmt.Sprintf("%s: %v", e.Dir, e.Err) }
func (e *DirError) Unwrap() error { return e.Err }

// Prepare is Ensure plus a check that every fixed folder takes a new file:
// a read-only folder (a read-only mount, another owner) is found here,
// before a log or database write fails with nothing to say where.
func (l Layout) Prepare() error {
	for _, dir := range l.folders() {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return &DirError{Dir: dir, Err: err}
		}
		if err := ProbeWritable(dir); err != nil {
			return &DirError{Dir: dir, Err: err}
		}
	}
	return nil
}

// ProbeWritable creates and removes a temporary file in dir.
func ProbeWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".write-probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	cerr := f.Close()
	if err := os.Remove(name); err != nil {
		return err
	}
	return cerr
}
