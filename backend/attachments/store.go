// Package attachments is the content-addressed store of images and other
// attachments under <data dir>/attachments/<sha256> (spec §4b), and the
// preparation that brings an image within what providers accept. Only
// references (sha256, type, size) travel through the database, the audit
// log and the UI; the bytes are read back when a model request is built.
package attachments

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// MaxStoredBytes bounds what Read loads: a file above it is not one this
// store wrote for a model request, so it is refused rather than read.
const MaxStoredBytes = 32 << 20

// Store is the attachments folder. The zero value is not usable; use New.
type Store struct{ dir string }

// New returns the store rooted at dir, created on first Put.
func New(dir string) *Store { return &Store{dir: dir} }

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// ValidSHA reports whether sha is a store key: exactly 64 lowercase hex
// digits. Anything else (upper case, separators, "..") is never a path.
func ValidSHA(sha string) bool {
	if len(sha) != sha256.Size*2 {
		return false
	}
	for i := 0; i < len(sha); i++ {
		c := sha[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Put stores data and returns its sha256 in hex. Storing the same bytes
// again is a no-op. The file appears whole or not at all (written to a
// temporary file, then renamed); files are 0600 in a 0700 folder.
func (s *Store) Put(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	sha := hex.EncodeToString(sum[:])
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return "", storeErr(err, "create the attachments folder %s", s.dir)
	}
	final := filepath.Join(s.dir, sha)
	if s.holds(final, data) {
		// Fresh again: Sweep keeps a young file even before the row that
		// refers to it is written.
		now := time.Now()
		if err := os.Chtimes(final, now, now); err != nil {
			return "", storeErr(err, "write to the attachments folder %s", s.dir)
		}
		return sha, nil
	}
	tmp, err := os.CreateTemp(s.dir, ".put-*")
	if err != nil {
		return "", storeErr(err, "write to the attachments folder %s", s.dir)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return "", storeErr(err, "write to the attachments folder %s", s.dir)
	}
	if _, err := tmp.Write(data); err != nil {
		return "", storeErr(err, "write to the attachments folder %s", s.dir)
	}
	if err := tmp.Close(); err != nil {
		return "", storeErr(err, "write to the attachments folder %s", s.dir)
	}
	// Rename replaces whatever is at final (a stale partial file or a link
	// planted there): the name then holds exactly these bytes.
	if err := os.Rename(tmp.Name(), final); err != nil {
		return "", storeErr(err, "write to the attachments folder %s", s.dir)
	}
	done = true
	return sha, nil
}

// holds reports whether path is a regular file with exactly data: a file
// damaged on disk is written again rather than trusted.
func (s *Store) holds(path string, data []byte) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(data)) {
		return false
	}
	got, err := os.ReadFile(path)
	return err == nil && bytes.Equal(got, data)
}

// Open opens the stored file named sha for reading. It refuses anything
// but a 64-hex key; the store folder must be a real folder (not a link),
// the file is resolved inside it through os.Root (no link leads out) and
// must itself be a regular file (not a link, FIFO or device: the open never
// waits for a writer) of at most MaxStoredBytes, and the file opened must
// be the one inspected, so a swap in between fails.
func (s *Store) Open(sha string) (*os.File, error) {
	if !ValidSHA(sha) {
		return nil, errs.New(errs.InvalidArgument, "%q is not an attachment id (64 lowercase hex digits); use the sha256 a tool result or upload returned", truncate.BytesEllipsis(sha, 80))
	}
	dfi, err := os.Lstat(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(sha)
	}
	if err != nil {
		return nil, storeErr(err, "open the attachments folder %s", s.dir)
	}
	if !dfi.IsDir() {
		return nil, errs.New(errs.StorageCorrupt, "the attachments folder %s is not a folder (a link or a file took its place); move it away and restart PI-Desktop", s.dir)
	}
	root, err := os.OpenRoot(s.dir)
	if err != nil {
		return nil, storeErr(err, "open the attachments folder %s", s.dir)
	}
	defer root.Close()
	if got, err := root.Stat("."); err != nil || !os.SameFile(got, dfi) {
		return nil, errs.New(errs.StorageCorrupt, "the attachments folder %s changed while it was opened; try again", s.dir)
	}
	fi, err := root.Lstat(sha)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(sha)
	}
	if err != nil {
		return nil, storeErr(err, "open attachment %s", sha)
	}
	if err := storedFile(sha, fi); err != nil {
		return nil, err
	}
	f, err := root.OpenFile(sha, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, storeErr(err, "open attachment %s", sha)
	}
	ofi, err := f.Stat()
	if err == nil && !os.SameFile(fi, ofi) {
		err = errs.New(errs.StorageCorrupt, "attachment %s was replaced while it was opened; try again", sha)
	}
	if err == nil {
		err = storedFile(sha, ofi)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// storedFile refuses what this store never writes under a key: anything
// but a regular file, or one larger than MaxStoredBytes.
func storedFile(sha string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return errs.New(errs.StorageCorrupt, "attachment %s is not a regular file (a link, FIFO or device took its place); it was not read — attach the image again", sha)
	}
	if fi.Size() > MaxStoredBytes {
		return errs.New(errs.StorageCorrupt, "attachment %s is larger than any this store writes (%d MB); it was not read", sha, MaxStoredBytes>>20)
	}
	return nil
}

// Read returns the bytes stored as sha, checked against their hash: a
// file changed on disk is refused, never sent to a model.
func (s *Store) Read(sha string) ([]byte, error) {
	f, err := s.Open(sha)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxStoredBytes+1))
	if err != nil {
		return nil, storeErr(err, "read attachment %s", sha)
	}
	if len(data) > MaxStoredBytes {
		return nil, errs.New(errs.StorageCorrupt, "attachment %s is larger than any this store writes (%d MB); it was not read", sha, MaxStoredBytes>>20)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != sha {
		return nil, errs.New(errs.AttachmentChanged, "attachment %s was changed on disk and no longer matches its name; nothing was sent — attach the image again", sha).With("sha256", sha)
	}
	return data, nil
}

func notFound(sha string) error {
	return errs.New(errs.AttachmentNotFound, "attachment %s is not in the attachments folder (it may have been deleted); attach the image again or re-run the tool that made it", sha).With("sha256", sha)
}

func storeErr(err error, format string, args ...any) error {
	return errs.Wrap(err, errs.StorageUnavailable, "could not %s; check free disk space and the folder's permissions", fmt.Sprintf(format, args...))
}
