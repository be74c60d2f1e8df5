package search

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Containment.
//
// A search never reaches a file by its path. The search directory is
// opened once as an os.Root, each folder below it is opened relative to
// its parent's handle and must be the very folder the listing showed (not a
// link, same identity), and files are opened relative to their folder's
// handle. A folder swapped for a link while the walk runs is therefore
// never entered, and os.Root refuses any link that would leave the folder
// it is resolved in. rg walks by path, so each of its hits is opened again
// through the same handle before anything of it is shown (rgcheck.go).

// Within pins a search to a directory handle the caller opened and
// checked (pathguard.Resolver.OpenIn), so that even the search root cannot
// be swapped for a link between the caller's check and the walk.
type Within struct {
	// Base, when set, is the folder Root is Name inside of; the search
	// opens Name through it. nil opens Root by path.
	Base *os.Root
	Name string
	// Skip, when set, reports whether the folder or file at the absolute
	// path abs must be left out silently (the host's data folder). The
	// walk follows no links, so abs is where the entry really is.
	Skip func(abs string) bool
}

// errRootChanged: the search root is not the entry it was a moment ago.
var errRootChanged = errors.New("the search root changed while it was opened")

// openSearchRoot opens the search root: a directory (file == "") or the
// folder of a file root (file is then its base name).
func openSearchRoot(w Within, root string) (dir *os.Root, file string, err error) {
	base, name := w.Base, w.Name
	if base == nil {
		canon, err := canonicalDir(root)
		if err != nil {
			return nil, "", err
		}
		parent := filepath.Dir(canon)
		if parent == canon { // a volume root
			parent, canon = canon, filepath.Join(canon, ".")
		}
		if base, err = os.OpenRoot(parent); err != nil {
			return nil, "", err
		}
		defer base.Close()
		name, _ = filepath.Rel(parent, canon)
	}
	fi, err := base.Lstat(name)
	if err != nil {
		return nil, "", err
	}
	switch {
	case fi.IsDir() && fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) == 0:
		d, err := openSame(base, name, fi)
		return d, "", err
	case fi.Mode().IsRegular():
		d, err := base.OpenRoot(filepath.Dir(name))
		if err != nil {
			return nil, "", err
		}
		file = filepath.Base(name)
		if lfi, err := d.Lstat(file); err != nil || !os.SameFile(fi, lfi) {
			d.Close()
			return nil, "", errRootChanged
		}
		return d, file, nil
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, "", errRootChanged
	}
	return nil, "", errNotSearchable
}

var errNotSearchable = errors.New("neither a regular file nor a directory")

// openSame opens the folder name of parent and confirms it is the entry fi
// (from Lstat): a link swapped in since is refused, even one that stays
// inside parent.
func openSame(parent *os.Root, name string, fi fs.FileInfo) (*os.Root, error) {
	d, err := parent.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	if hfi, err := d.Stat("."); err != nil || !os.SameFile(fi, hfi) {
		d.Close()
		return nil, errRootChanged
	}
	return d, nil
}

// rootErr maps an openSearchRoot failure to a coded error for tool.
func rootErr(err error, tool, root string) error {
	switch {
	case errors.Is(err, errRootChanged):
		return errs.Wrap(err, errs.PathOutsideWorkspace, "%s changed while %s opened it (a link was swapped in); nothing is reported. Retry the call", root, tool).
			With("field", "path")
	case errors.Is(err, fs.ErrNotExist):
		return errs.Wrap(err, errs.NotFound, "%s does not exist", root).With("field", "path")
	case errors.Is(err, errNotSearchable):
		return invalidField("path", "%s is neither a regular file nor a directory", root)
	}
	return errs.Wrap(err, errs.ToolFailed, "%s cannot open %s", tool, root)
}

// dirRef shares one open folder between the walk and the workers that
// read its files; the last release closes it.
type dirRef struct {
	root *os.Root // the folder's handle; nil for a folder of rg hits or one openChild opened
	// top is the walk's top folder and rel this folder's '/'-separated
	// path there ("" for top itself): an ignore file that is a link is
	// read through top, which follows links that stay inside it, as rg
	// follows them.
	top   *os.Root
	rel   string
	plain *os.File // a folder openChild opened, until listKeeping hands it to files
	files *folderFiles
	refs  atomic.Int32
}

// newDirRef is the walk's top folder r.
func newDirRef(r *os.Root) *dirRef {
	d := &dirRef{root: r, top: r, files: newFolderFiles(r, ".")}
	d.refs.Store(1)
	return d
}

// newHitDirRef is the folder dir (a '/'-separated path in fs, "." for fs
// itself) whose files rg reported, opened through fs when first read.
func newHitDirRef(fs *os.Root, dir string) *dirRef {
	d := &dirRef{files: newFolderFiles(fs, dir)}
	d.refs.Store(1)
	return d
}

func (d *dirRef) acquire() { d.refs.Add(1) }

func (d *dirRef) release() {
	if d.refs.Add(-1) == 0 {
		d.files.close()
		if d.plain != nil {
			d.plain.Close() // never listed: the walk stopped first
		}
		if d.root != nil {
			d.root.Close()
		}
	}
}

// skipped reports whether Skip leaves out the entry rel (relative to the
// folder at abs).
func (w Within) skipped(abs, rel string) bool {
	return w.Skip != nil && w.Skip(filepath.Join(abs, filepath.FromSlash(rel)))
}

// errIsFile: a folder search (Glob, Files) was given a file.
var errIsFile = errors.New("a file, not a folder")

// openWalkRoot opens the folder a Glob or file search walks and returns
// its path for ignore rules and Skip. A file root is errIsFile; other
// failures are coded for tool.
func openWalkRoot(w Within, root, tool string) (*os.Root, string, error) {
	top, file, err := openSearchRoot(w, root)
	if err != nil {
		return nil, "", rootErr(err, tool, root)
	}
	if file != "" {
		top.Close()
		return nil, "", errIsFile
	}
	abs := filepath.Clean(root)
	if w.Base == nil {
		if abs, err = canonicalDir(root); err != nil {
			top.Close()
			return nil, "", errs.Wrap(err, errs.ToolFailed, "%s cannot resolve %s", tool, root)
		}
	}
	return top, abs, nil
}

// openRegular opens name in folder r only if it is, at the moment it is
// opened, the regular file an Lstat saw: os.Root follows a link that stays
// inside r, so a file swapped for a link to a sibling (the data folder, when
// it lies inside the workspace) would otherwise be read under the file's name.
func openRegular(r *os.Root, name string) (*os.File, error) {
	fi, err := r.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errRootChanged
	}
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	if ofi, err := f.Stat(); err != nil || !os.SameFile(fi, ofi) {
		f.Close()
		return nil, errRootChanged
	}
	return f, nil
}
