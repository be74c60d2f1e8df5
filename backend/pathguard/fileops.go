package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Race-free access.
//
// Spec §4 resolves symlinks again immediately before execution, after
// approval, so a link swapped in after approval cannot redirect the
// operation. OpenFile, Stat and WriteFileAtomic take the Resolved that was
// approved and:
//
//  1. resolve res.Abs again and require the same Root, RootDir and Abs;
//  2. open the directory to operate in as an os.Root (RootDir for contained
//     roots; the parent of Abs for External) and confirm that the handle is
//     the directory the canonical path names now (no link in the path,
//     os.SameFile with an Lstat);
//  3. perform the operation through that os.Root, by the relative name.
//
// What os.Root guarantees: every component below the opened directory is
// walked with openat-style calls relative to the directory handle, and a
// symlink (or "..") that would leave the directory fails the call with
// "path escapes from parent" — even if it was swapped in after step 1. The
// handle keeps pointing at the same directory if that directory is renamed.
// Such an escape is reported as PATH_OUTSIDE_WORKSPACE with a message to
// retry, so the next attempt is resolved (and approved) afresh.
//
// What it does not guarantee: OpenRoot itself follows links in the root's
// own path (an ancestor of RootDir). Step 1 catches a swap made before the
// call and step 2 one made around OpenRoot, unless an attacker flips an
// ancestor back and forth between step 2's EvalSymlinks and Lstat; once
// step 2 passes, the handle is fixed and later swaps there do not matter.
// Links that stay inside
// the root are followed, so an operation may land on another file of the
// same root than the one approved (never outside it). os.Root does not stop
// bind mounts, /proc magic links or device files, and on Unix Chmod/Chown/
// Chtimes by name race with link swaps (these helpers only chmod through an
// open descriptor). For External the containing directory is the parent of
// Abs, so only the last component is protected by os.Root; the rest is
// protected by the re-resolution in step 1.

// OpenFile opens the approved path res with os.OpenFile's flag and perm
// semantics.
func (r *Resolver) OpenFile(res Resolved, flag int, perm os.FileMode) (*os.File, error) {
	if flag&writeFlags != 0 {
		if err := refuseSkillWrite(res); err != nil {
			return nil, err
		}
	}
	dir, name, err := r.prepare(res)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	f, err := dir.OpenFile(name, flag, perm)
	if err != nil {
		return nil, opErr(err, res, "open")
	}
	return f, nil
}

// Stat returns the file info of the approved path res, following links that
// stay inside its root.
func (r *Resolver) Stat(res Resolved) (fs.FileInfo, error) {
	dir, name, err := r.prepare(res)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	fi, err := dir.Stat(name)
	if err != nil {
		return nil, opErr(err, res, "inspect")
	}
	return fi, nil
}

// StatFresh is Stat for a res that Resolve returned just before on the
// caller's goroutine with nothing in between (a pipeline's early shape
// check): it skips step 1, whose re-resolution would repeat that walk a
// few microseconds later (issue #24: five of a call's thirty syscalls) and
// narrow no window that matters, since step 1 is itself followed by a gap
// before the stat. Steps 2 and 3 stay, so a link swapped in meanwhile still
// cannot lead the stat out of res's root. The operation itself must still
// go through Stat, OpenFile and the others, which re-resolve.
func (r *Resolver) StatFresh(res Resolved) (fs.FileInfo, error) {
	if !filepath.IsAbs(res.Abs) || (res.Root != External && r.rootOf(res).canon != res.RootDir) {
		return nil, errs.New(errs.InvalidArgument, "the path was not resolved by this session; resolve it again before use").
			With("field", "path")
	}
	dirPath, name, fold := r.split(res)
	dir, err := openDir(dirPath, fold, r.dirIdentity(res, dirPath))
	if err != nil {
		return nil, opErr(err, res, "open")
	}
	defer dir.Close()
	fi, err := dir.Stat(name)
	if err != nil {
		return nil, opErr(err, res, "inspect")
	}
	return fi, nil
}

// prepare runs steps 1 and 2 above and returns the directory to operate in
// and the name of res relative to it.
func (r *Resolver) prepare(res Resolved) (*os.Root, string, error) {
	if err := r.recheck(res); err != nil {
		return nil, "", err
	}
	dirPath, name, fold := r.split(res)
	dir, err := openDir(dirPath, fold, r.dirIdentity(res, dirPath))
	if err != nil {
		return nil, "", opErr(err, res, "open")
	}
	return dir, name, nil
}

// split returns the directory an operation on res runs in and res's name
// relative to it.
func (r *Resolver) split(res Resolved) (dir, name string, fold bool) {
	if res.Root != External {
		return res.RootDir, filepath.FromSlash(res.Rel), r.rootOf(res).fold
	}
	parent := filepath.Dir(res.Abs)
	if parent == res.Abs { // a volume root: nothing above it to hold on to
		return res.Abs, ".", false
	}
	return parent, filepath.Base(res.Abs), false
}

// rootOf returns the configured root res lies in (res is not External).
func (r *Resolver) rootOf(res Resolved) *root {
	switch res.Root {
	case Scratch:
		return &r.scratch
	case Visualization:
		return &r.viz
	case Skill:
		for i := range r.skills {
			if r.skills[i].canon == res.RootDir {
				return &r.skills[i]
			}
		}
	}
	return &r.workspace
}

// recheck resolves res again and requires the classification that was
// approved.
func (r *Resolver) recheck(res Resolved) error {
	if !filepath.IsAbs(res.Abs) {
		return errs.New(errs.InvalidArgument, "the path was not resolved by this session; resolve it again before use").
			With("field", "path")
	}
	fresh, err := r.Resolve(res.Abs)
	if err != nil {
		return err
	}
	if fresh.Root != res.Root || fresh.Abs != res.Abs || fresh.RootDir != res.RootDir {
		return changedErr(res)
	}
	if r.afterRecheck != nil {
		r.afterRecheck()
	}
	return nil
}

// dirIdentity is what New saw of dirPath when it is res's root folder
// confirmed canonical (see root.canonInfo), or nil.
func (r *Resolver) dirIdentity(res Resolved, dirPath string) fs.FileInfo {
	if res.Root == External {
		return nil
	}
	if rt := r.rootOf(res); rt.canon == dirPath {
		return rt.canonInfo
	}
	return nil
}

// openDir opens dir as an os.Root and confirms it is the directory the
// canonical path dir names now. dir was canonical when resolved, so a link
// found in it now was swapped in. known, when set, is what an Lstat of dir
// showed when dir was confirmed canonical: a handle and an Lstat that both
// find that very directory confirm it without walking dir's ancestors
// again (issue #24), with the RootCache's reasoning: the only change that
// passes is an ancestor turned into a link that leads to the same place.
func openDir(dir string, fold bool, known fs.FileInfo) (*os.Root, error) {
	rt, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	hfi, herr := rt.Stat(".")
	if known != nil && herr == nil {
		if lfi, err := os.Lstat(dir); err == nil && realDirInfo(lfi) && os.SameFile(hfi, known) && os.SameFile(lfi, known) {
			return rt, nil
		}
	}
	c, cerr := filepath.EvalSymlinks(dir)
	lfi, lerr := os.Lstat(dir)
	if herr != nil || cerr != nil || lerr != nil || !samePath(c, dir, fold) || !os.SameFile(hfi, lfi) {
		rt.Close()
		return nil, errEscapes
	}
	return rt, nil
}

// samePath compares two clean paths, case-folded when fold is set.
func samePath(a, b string, fold bool) bool {
	return a == b || (fold && strings.EqualFold(a, b))
}

// errEscapes stands for os.Root's unexported "path escapes from parent".
var errEscapes = errors.New("path escapes from parent")

// isEscape reports whether err is os.Root refusing to leave its directory.
// The standard library does not export that error, so the chain is searched
// for its text (os wraps it in one or more *PathError).
func isEscape(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if e == errEscapes || e.Error() == errEscapes.Error() {
			return true
		}
	}
	return false
}

// changedErr is the error for a path whose resolution changed after it was
// approved.
func changedErr(res Resolved) error {
	return errs.New(errs.PathOutsideWorkspace,
		"the path %s changed after approval (a symbolic link or folder now points elsewhere); retry the call so it is checked again", res.Abs).
		With("path", res.Abs).With("root", string(res.Root))
}

// opErr maps a file-system error to a coded error, keeping it as the cause
// so errors.Is(err, fs.ErrNotExist) still works.
func opErr(err error, res Resolved, verb string) error {
	switch {
	case isEscape(err):
		return changedErr(res)
	case errors.Is(err, fs.ErrNotExist):
		return errs.Wrap(err, errs.NotFound, "%s does not exist; check the path, or list its folder with Glob", res.Abs).
			With("path", res.Abs)
	case errors.Is(err, fs.ErrPermission):
		return errs.Wrap(err, errs.ToolFailed, "permission denied to %s %s; check the file's permissions", verb, res.Abs).
			With("path", res.Abs)
	}
	return errs.Wrap(err, errs.ToolFailed, "cannot %s %s; check that the path names a file and retry", verb, res.Abs).
		With("path", res.Abs)
}

// Key is the identity of res for locks and snapshot stores: its canonical
// path, case-folded when its root's volume compares names without case, so
// two spellings of one file share one lock (edit-contract §2).
func (r *Resolver) Key(res Resolved) string {
	if res.Root != External && r.rootOf(res).fold {
		return strings.ToLower(res.Abs)
	}
	return res.Abs
}

// Remove deletes the approved file res (never a folder), through the same
// re-check and os.Root containment as the other operations: a link swapped
// in for the file is removed as a link, never followed.
func (r *Resolver) Remove(res Resolved) error {
	if err := refuseSkillWrite(res); err != nil {
		return err
	}
	dir, name, err := r.prepare(res)
	if err != nil {
		return err
	}
	defer dir.Close()
	fi, err := dir.Lstat(name)
	if err != nil {
		return opErr(err, res, "remove")
	}
	if fi.IsDir() {
		return isFolderErr(res)
	}
	if err := dir.Remove(name); err != nil {
		return opErr(err, res, "remove")
	}
	return nil
}
