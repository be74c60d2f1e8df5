package pathguard

import (
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// WriteFileAtomic replaces the approved path res with data, so readers see
// the old content or the new, never a torn file. Missing parent folders are
// created inside the root; the data goes to a temporary file in the target's
// folder (created O_EXCL), is fsynced, and is renamed over the target. An
// existing file keeps its permission bits; a new one gets perm. A missing
// scratch or visualization folder is created (they are made lazily, spec
// §4b) when its data folder is a real directory. See fileops.go for the
// re-check and what os.Root guarantees.
//
// The rename replaces the directory entry: if the target was swapped for a
// link, the link is replaced, never followed.
func (r *Resolver) WriteFileAtomic(res Resolved, data []byte, perm os.FileMode) error {
	return r.writeFile(res, data, perm, false)
}

// WriteFileNew is WriteFileAtomic for a file that must not exist yet: the
// complete file appears under its name only if nothing is there, so a file
// created meanwhile is never replaced (an error matching fs.ErrExist).
func (r *Resolver) WriteFileNew(res Resolved, data []byte, perm os.FileMode) error {
	return r.writeFile(res, data, perm, true)
}

func (r *Resolver) writeFile(res Resolved, data []byte, perm os.FileMode, noReplace bool) error {
	if err := refuseSkillWrite(res); err != nil {
		return err
	}
	if err := r.recheck(res); err != nil {
		return err
	}
	dirPath, name, fold := r.split(res)
	if name == "." {
		return isFolderErr(res)
	}
	if err := r.ensureDir(res, dirPath); err != nil {
		return err
	}
	dir, err := openDir(dirPath, fold, r.dirIdentity(res, dirPath))
	if err != nil {
		return opErr(err, res, "write")
	}
	defer dir.Close()
	if sub := filepath.Dir(name); sub != "." {
		if err := dir.MkdirAll(sub, 0o755); err != nil {
			return opErr(err, res, "create the folders of")
		}
	}
	if err := writeIn(dir, name, data, perm, noReplace); err != nil {
		if errors.Is(err, errNotRegular) {
			return isFolderErr(res)
		}
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		return opErr(err, res, "write")
	}
	return nil
}

// ensureDir makes the directory an operation on res runs in exist.
func (r *Resolver) ensureDir(res Resolved, dirPath string) error {
	if _, err := os.Lstat(dirPath); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil // present, or an error openDir will report
	}
	switch res.Root {
	case Workspace:
		return nil // must exist; openDir reports it
	case Scratch, Visualization:
		// Only the session folder is created, and only in a real data
		// folder: Mkdir does not follow a link planted in its place.
		if !realDir(filepath.Dir(dirPath)) {
			return errs.New(errs.NotFound, "the %s base folder %s is missing or redirected; restart PI-Desktop to recreate it", res.Root, filepath.Dir(dirPath))
		}
		if err := os.Mkdir(dirPath, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return opErr(err, res, "create the folder of")
		}
		return nil
	}
	// External: the approval covers the path, so its parents may be made.
	// MkdirAll follows links, so the path is checked again afterwards.
	if err := os.MkdirAll(dirPath, 0o755); err != nil {
		return opErr(err, res, "create the folders of")
	}
	return r.recheck(res)
}

// realDir reports whether p is an existing directory that is not a link.
func realDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir() && fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) == 0
}

// errNotRegular marks a target that exists but is not a regular file.
var errNotRegular = errors.New("not a regular file")

func isFolderErr(res Resolved) error {
	return errs.New(errs.InvalidArgument, "%s is a folder or special file, not a regular file; pass the path of a file to write", res.Abs).
		With("field", "path")
}

// writeIn writes data to name inside dir through a temporary sibling. With
// noReplace the finished file is hard-linked into place, which fails if the
// name exists, instead of renamed over it.
func writeIn(dir *os.Root, name string, data []byte, perm os.FileMode, noReplace bool) error {
	mode := perm.Perm()
	if noReplace {
		if _, err := dir.Lstat(name); err == nil {
			return fs.ErrExist
		}
	}
	fi, err := dir.Stat(name)
	switch {
	case err == nil:
		if !fi.Mode().IsRegular() {
			return errNotRegular
		}
		mode = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	tmp, f, err := createTemp(dir, name, mode)
	if err != nil {
		return err
	}
	if err := fill(f, data, mode); err != nil {
		f.Close()
		dir.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		dir.Remove(tmp)
		return err
	}
	if noReplace {
		err := dir.Link(tmp, name)
		dir.Remove(tmp)
		if err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fs.ErrExist
			}
			return err
		}
		syncDir(dir, filepath.Dir(name))
		return nil
	}
	if err := dir.Rename(tmp, name); err != nil {
		dir.Remove(tmp)
		return err
	}
	syncDir(dir, filepath.Dir(name))
	return nil
}

// createTemp creates a fresh temporary file next to name. O_EXCL means an
// entry planted under the same name (a link, say) is never opened.
func createTemp(dir *os.Root, name string, mode os.FileMode) (string, *os.File, error) {
	base := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".pi-")
	for range 8 {
		tmp := base + rand.Text()[:12] + ".tmp"
		f, err := dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err == nil {
			return tmp, f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", nil, err
		}
	}
	return "", nil, fs.ErrExist
}

// fill writes data, sets the exact mode (the umask applied at create) and
// flushes it to stable storage. Chmod goes through the descriptor, so it
// cannot be redirected by a link.
func fill(f *os.File, data []byte, mode os.FileMode) error {
	if runtime.GOOS != "windows" { // Windows keeps only a read-only bit
		if err := f.Chmod(mode); err != nil {
			return err
		}
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Sync()
}

// syncDir flushes the directory entry of the rename. It is best effort:
// some systems (Windows) cannot sync a directory, and the data itself is
// already synced.
func syncDir(dir *os.Root, sub string) {
	d, err := dir.Open(sub)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
