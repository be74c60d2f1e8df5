package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// errLinkChanged: the entry linked is not the file the caller described.
var errLinkChanged = errors.New("the file changed before it could be linked")

// LinkInto makes dstName (a path inside dst) a second name of the regular
// file res, if res is still the very file want describes (same file, size
// and modification time: nothing rewrote it in place since). A caller about to
// replace res by rename keeps the previous version this way without
// copying its bytes. It never follows a link at res, never leaves res's
// root, and leaves nothing at dstName when it fails; where hard links
// cannot be made here (another file system, another platform) it fails
// and the caller copies instead.
func (r *Resolver) LinkInto(res Resolved, want fs.FileInfo, dst *os.Root, dstName string) error {
	if err := r.recheck(res); err != nil {
		return err
	}
	dirPath, name, fold := r.split(res)
	if name == "." {
		return isFolderErr(res)
	}
	dir, err := openDir(dirPath, fold, r.dirIdentity(res, dirPath))
	if err != nil {
		return opErr(err, res, "link")
	}
	defer dir.Close()
	if err := linkAcross(dir, name, dst, dstName); err != nil {
		return opErr(err, res, "link")
	}
	fi, err := dst.Lstat(dstName)
	switch {
	case err != nil:
		err = opErr(err, res, "link")
	case want == nil || !fi.Mode().IsRegular() || !os.SameFile(fi, want):
		err = changedErr(res) // a link or another file swapped in: linked as it is, never followed
	case !sameVersion(fi, want):
		err = errLinkChanged
	default:
		return nil
	}
	_ = dst.Remove(dstName)
	return err
}

// openParent opens the folder of name inside root (name's first part).
func openParent(root *os.Root, name string) (*os.File, error) {
	return root.Open(filepath.Dir(name))
}
