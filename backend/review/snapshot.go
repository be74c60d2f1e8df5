package review

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// Snapshot files: the bytes a change replaced, kept under
// <reviewsDir>/<session>/<snapshot> for rollback. Every access goes through
// an os.Root on reviewsDir, so a link planted there cannot lead outside it.

func (s *Store) writeSnapshot(sessionID, snapshotID string, data []byte) error {
	root, err := s.sessionFolder(sessionID)
	if err != nil {
		return err
	}
	defer root.Close()
	fail := func(err error) error {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot keep the review snapshot in %s; check that the data directory is writable", s.reviewsDir)
	}
	name := filepath.Join(sessionID, snapshotID)
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		root.Remove(name)
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		root.Remove(name)
		return fail(err)
	}
	if err := f.Close(); err != nil {
		root.Remove(name)
		return fail(err)
	}
	return nil
}

// linkSnapshot keeps the workspace file target, which info describes, as
// the snapshot: a second name for it, made through r (see
// pathguard.Resolver.LinkInto). An error means nothing was kept.
func (s *Store) linkSnapshot(sessionID, snapshotID string, r *pathguard.Resolver, target pathguard.Resolved, info fs.FileInfo) error {
	root, err := s.sessionFolder(sessionID)
	if err != nil {
		return err
	}
	defer root.Close()
	return r.LinkInto(target, info, root, filepath.Join(sessionID, snapshotID))
}

// sessionFolder opens the reviews folder, with sessionID's folder in it
// made if missing: a real folder, never a link.
func (s *Store) sessionFolder(sessionID string) (*os.Root, error) {
	fail := func(err error) error {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot keep the review snapshot in %s; check that the data directory is writable", s.reviewsDir)
	}
	if err := os.MkdirAll(s.reviewsDir, 0o700); err != nil {
		return nil, fail(err)
	}
	root, err := os.OpenRoot(s.reviewsDir)
	if err != nil {
		return nil, fail(err)
	}
	if err := root.Mkdir(sessionID, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		root.Close()
		return nil, fail(err)
	}
	if fi, err := root.Lstat(sessionID); err != nil || !fi.IsDir() {
		if err == nil {
			err = fmt.Errorf("%s is not a folder", filepath.Join(s.reviewsDir, sessionID))
		}
		root.Close()
		return nil, fail(err)
	}
	return root, nil
}

// readSnapshot returns a kept snapshot whose SHA-256 is want.
func (s *Store) readSnapshot(sessionID, snapshotID, want string) ([]byte, error) {
	bad := func(err error) error {
		return errs.Wrap(err, errs.ReviewNotReversible,
			"the saved copy of this change is missing or damaged, so it cannot be rolled back; restore the file by hand").
			With("snapshotId", snapshotID)
	}
	root, err := os.OpenRoot(s.reviewsDir)
	if err != nil {
		return nil, bad(err)
	}
	defer root.Close()
	name := filepath.Join(sessionID, snapshotID)
	if fi, err := root.Lstat(name); err != nil || !fi.Mode().IsRegular() {
		if err == nil {
			err = errors.New("snapshot is not a regular file")
		}
		return nil, bad(err)
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, bad(err)
	}
	defer f.Close()
	data, big, err := readBounded(f, MaxSnapshotBytes)
	if err != nil || big || sum(data) != want {
		if err == nil {
			err = errors.New("snapshot digest mismatch")
		}
		return nil, bad(err)
	}
	return data, nil
}

func (s *Store) removeSnapshot(sessionID, snapshotID string) {
	root, err := os.OpenRoot(s.reviewsDir)
	if err != nil {
		return
	}
	defer root.Close()
	root.Remove(filepath.Join(sessionID, snapshotID))
}

func (s *Store) removeSessionDir(sessionID string) error {
	root, err := os.OpenRoot(s.reviewsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot open the review folder %s; check its permissions", s.reviewsDir)
	}
	defer root.Close()
	// os.Root.RemoveAll removes a link in place of the folder as a link and
	// never descends through links.
	if err := root.RemoveAll(sessionID); err != nil {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot remove the review snapshots of session %s; check the permissions of %s", sessionID, s.reviewsDir)
	}
	return nil
}
