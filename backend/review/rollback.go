package review

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// Rollback undoes the change snapshotID of sessionID, and its MV partner
// with it, through r (the session's resolver). It returns the changes now
// rolledBack. Every target is checked before any is touched; if a later
// step fails, the earlier ones are undone, so a pair is restored both or
// neither. A target that is no longer what the tool left (other content, a
// link, a hard link, a folder, or for a deletion any entry at the path) is
// CONFLICT and nothing changes.
//
// After it returns, the caller must invalidate the session's edit snapshot
// entries for each returned Change.Path (see the package doc).
func (s *Store) Rollback(ctx context.Context, sessionID, snapshotID string, r *pathguard.Resolver) ([]Change, error) {
	if err := validID("session id", sessionID); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	recs, err := s.query(ctx, `SELECT `+rowColumns+` FROM review_changes WHERE session_id = ? AND snapshot_id = ?`, sessionID, snapshotID)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, errs.New(errs.NotFound, "no review change %s in this session; list the session's review changes to pick one", snapshotID).
			With("snapshotId", snapshotID)
	}
	if g := recs[0].change.GroupID; g != "" {
		if recs, err = s.query(ctx, `SELECT `+rowColumns+` FROM review_changes WHERE session_id = ? AND group_id = ? ORDER BY id`, sessionID, g); err != nil {
			return nil, err
		}
	}
	for _, rec := range recs {
		if rec.change.State == StateRolledBack {
			return nil, errs.New(errs.Conflict, "the change to %s was already rolled back; nothing to do", rec.change.Path).
				With("snapshotId", rec.change.SnapshotID).With("path", rec.change.Path).With("reason", ReasonRolledBack)
		}
		if !rec.change.Reversible {
			return nil, errs.New(errs.ReviewNotReversible, "the change to %s is too large to have been kept, so it cannot be rolled back; restore the file by hand", rec.change.Path).
				With("snapshotId", rec.change.SnapshotID).With("path", rec.change.Path)
		}
	}

	// Check every target before touching any.
	steps := make([]*step, len(recs))
	defer func() {
		for _, st := range steps {
			if st != nil && st.root != nil {
				st.root.Close()
			}
		}
	}()
	for i, rec := range recs {
		st, err := s.check(sessionID, rec, r)
		if err != nil {
			return nil, err
		}
		steps[i] = st
	}

	// Apply, undoing on failure.
	for i, st := range steps {
		err := st.apply()
		if err == nil && s.afterApply != nil && i < len(steps)-1 {
			s.afterApply(i)
		}
		if err != nil {
			for j := i - 1; j >= 0; j-- {
				steps[j].undo()
			}
			return nil, err
		}
	}
	ids := make([]any, 0, len(steps)+1)
	ids = append(ids, s.now().UnixMilli())
	for _, st := range steps {
		ids = append(ids, st.rec.change.SnapshotID)
	}
	if err := s.markRolledBack(ctx, ids); err != nil {
		for j := len(steps) - 1; j >= 0; j-- {
			steps[j].undo()
		}
		return nil, err
	}
	out := make([]Change, len(steps))
	for i, st := range steps {
		st.commit()
		out[i] = st.rec.change
		out[i].State = StateRolledBack
	}
	return out, nil
}

func (s *Store) markRolledBack(ctx context.Context, args []any) error {
	q := `UPDATE review_changes SET state = 'rolledBack', rolled_back_at = ? WHERE state = 'active' AND snapshot_id IN (?`
	for range len(args) - 2 {
		q += `, ?`
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, q+`)`, args...)
	if err != nil {
		return storageErr(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != int64(len(args)-1) {
		return errs.New(errs.Conflict, "the change was rolled back concurrently; list the review changes again").With("reason", ReasonRolledBack)
	}
	return storageErr(tx.Commit())
}

// step is one checked target of a rollback.
type step struct {
	rec   record
	root  *os.Root // the workspace, re-resolved and verified
	name  string   // rec's path relative to root
	abs   string
	cur   current // what the check found
	prev  []byte  // the captured bytes (modified, deleted)
	aside string  // added: where the file waits until commit
	made  fs.FileInfo
}

// check re-resolves rec's path, opens the workspace and verifies that the
// file is still what the tool left.
func (s *Store) check(sessionID string, rec record, r *pathguard.Resolver) (*step, error) {
	ch := rec.change
	res, err := r.Resolve(filepath.FromSlash(ch.Path))
	if err != nil {
		return nil, err
	}
	if res.Root != pathguard.Workspace || res.Rel != ch.Path {
		// The path (or a folder above it) now resolves elsewhere: a link
		// was planted after the edit.
		return nil, conflict(ch, ReasonRedirected, "is now redirected by a symbolic link")
	}
	st := &step{rec: rec, name: filepath.FromSlash(res.Rel), abs: res.Abs}
	if st.root, err = openWorkspace(res.RootDir); err != nil {
		return nil, errs.Wrap(err, errs.PathOutsideWorkspace, "the workspace folder %s changed (a link now points elsewhere); retry the rollback", res.RootDir)
	}
	if st.cur, err = inspect(st.root, st.name, MaxSnapshotBytes); err != nil {
		return nil, checkErr(ch, err)
	}
	switch ch.Status {
	case StatusDeleted:
		if st.cur.present {
			return nil, s.withSince(conflict(ch, ReasonExistsAgain, "exists again"), sessionID, rec, st.cur)
		}
	default:
		if err := st.cur.matches(rec); err != nil {
			return nil, s.withSince(checkErr(ch, err), sessionID, rec, st.cur)
		}
	}
	if ch.Status != StatusAdded {
		if st.prev, err = s.readSnapshot(sessionID, ch.SnapshotID, rec.beforeSum); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// apply performs the step; it changes nothing when it fails.
func (st *step) apply() error {
	ch := st.rec.change
	switch ch.Status {
	case StatusModified:
		// Replace atomically, re-checking right before the rename.
		err := replace(st.root, st.name, st.prev, st.cur.info.Mode().Perm(), func() error {
			return st.recheck(st.name)
		})
		return st.stepErr(err)
	case StatusAdded:
		// Move the file aside first, then check that what was moved is
		// still the checked file: nothing newer is ever removed.
		aside, err := tempName(st.name)
		if err != nil {
			return st.stepErr(err)
		}
		if err := st.root.Rename(st.name, aside); err != nil {
			return st.stepErr(err)
		}
		if err := st.recheck(aside); err != nil {
			putBack(st.root, aside, st.name)
			return st.stepErr(err)
		}
		st.aside = aside
		return nil
	default: // StatusDeleted
		made, err := create(st.root, st.name, st.prev, st.rec.beforeMode)
		if err != nil {
			return st.stepErr(err)
		}
		st.made = made
		return nil
	}
}

// recheck verifies that name is still the file the check saw.
func (st *step) recheck(name string) error {
	now, err := inspect(st.root, name, MaxSnapshotBytes)
	if err != nil {
		return err
	}
	if !now.present || !os.SameFile(now.info, st.cur.info) {
		return errChanged
	}
	return now.matches(st.rec)
}

// undo reverts an applied step, best effort.
func (st *step) undo() {
	switch st.rec.change.Status {
	case StatusModified:
		replace(st.root, st.name, st.cur.data, st.cur.info.Mode().Perm(), func() error {
			now, err := inspect(st.root, st.name, MaxSnapshotBytes)
			if err != nil || !now.present || now.sum != sum(st.prev) {
				return errChanged
			}
			return nil
		})
	case StatusAdded:
		if st.aside != "" {
			putBack(st.root, st.aside, st.name)
			st.aside = ""
		}
	default:
		if st.made != nil {
			if fi, err := st.root.Lstat(st.name); err == nil && os.SameFile(fi, st.made) {
				st.root.Remove(st.name)
			}
		}
	}
}

// commit finishes an applied step once the whole rollback succeeded.
func (st *step) commit() {
	if st.aside != "" {
		st.root.Remove(st.aside)
	}
}

func (st *step) stepErr(err error) error {
	if err == nil {
		return nil
	}
	ch := st.rec.change
	if errors.Is(err, errChanged) || errors.Is(err, errNotRegular) || errors.Is(err, errLinked) || errors.Is(err, fs.ErrExist) {
		return checkErr(ch, err)
	}
	return errs.Wrap(err, errs.ToolFailed, "rolling back %s failed and nothing was changed; check the file's permissions and retry", ch.Path).
		With("path", ch.Path).With("snapshotId", ch.SnapshotID)
}

// Guard errors.
var (
	errChanged    = errors.New("content differs from what the tool left")
	errNotRegular = errors.New("not a regular file")
	errLinked     = errors.New("has more than one hard link")
)

// checkErr maps a failed guard to CONFLICT with the next step.
func checkErr(ch Change, err error) error {
	switch {
	case errors.Is(err, errNotRegular):
		return conflict(ch, ReasonNotRegular, "is no longer a regular file (a link, folder or special file is in its place)")
	case errors.Is(err, errLinked):
		return conflict(ch, ReasonHardLinked, "now has another hard link")
	case errors.Is(err, errChanged):
		return conflict(ch, ReasonChanged, "was changed after this edit")
	case errors.Is(err, fs.ErrExist):
		return conflict(ch, ReasonExistsAgain, "exists again")
	case errors.Is(err, fs.ErrNotExist):
		return conflict(ch, ReasonMissing, "no longer exists")
	}
	if isEscape(err) {
		return conflict(ch, ReasonRedirected, "is now redirected by a symbolic link")
	}
	return errs.Wrap(err, errs.ToolFailed, "cannot inspect %s for the rollback; check its permissions and retry", ch.Path).
		With("path", ch.Path).With("snapshotId", ch.SnapshotID)
}

func conflict(ch Change, reason, why string) error {
	return errs.New(errs.Conflict,
		"%s %s, so the rollback was refused and the file left untouched; review its current content and restore or edit it by hand (or undo the later change first)",
		ch.Path, why).With("path", ch.Path).With("snapshotId", ch.SnapshotID).With("reason", reason)
}

// isEscape reports os.Root refusing to leave the workspace ("path escapes
// from parent"; the error is not exported).
func isEscape(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if e.Error() == "path escapes from parent" {
			return true
		}
	}
	return false
}

// File operations inside the workspace root.

// openWorkspace opens dir as an os.Root and confirms the handle is the
// directory the canonical path names now (no link swapped in).
func openWorkspace(dir string) (*os.Root, error) {
	rt, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	hfi, herr := rt.Stat(".")
	c, cerr := filepath.EvalSymlinks(dir)
	lfi, lerr := os.Lstat(dir)
	if herr != nil || cerr != nil || lerr != nil || filepath.Clean(c) != filepath.Clean(dir) || !os.SameFile(hfi, lfi) {
		rt.Close()
		return nil, errors.New("workspace folder changed")
	}
	return rt, nil
}

// current is what inspect found at a path.
type current struct {
	present bool
	info    fs.FileInfo // Lstat of the entry
	data    []byte      // nil when big
	big     bool
	sum     string
}

// inspect looks at name without following a final link: it must be absent
// or a regular file with a single link. The content is read from the very
// file that Lstat saw.
func inspect(root *os.Root, name string, limit int64) (current, error) {
	fi, err := root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return current{}, nil
	}
	if err != nil {
		return current{}, err
	}
	if !fi.Mode().IsRegular() {
		return current{}, errNotRegular
	}
	f, err := root.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return current{}, err
	}
	defer f.Close()
	ffi, err := f.Stat()
	if err != nil {
		return current{}, err
	}
	if !os.SameFile(fi, ffi) {
		return current{}, errNotRegular // swapped for a link between Lstat and open
	}
	n, err := linkCount(f)
	if err != nil {
		return current{}, err
	}
	if n != 1 {
		return current{}, errLinked
	}
	data, big, err := readBounded(f, limit)
	if err != nil {
		return current{}, err
	}
	c := current{present: true, info: fi, data: data, big: big}
	if !big {
		c.sum = sum(data)
	}
	return c, nil
}

// matches reports whether c is the file the tool left.
func (c current) matches(rec record) error {
	if !c.present {
		return fs.ErrNotExist
	}
	if c.big || c.info.Size() != rec.afterSize || c.sum != rec.afterSum {
		return errChanged
	}
	return nil
}

// replace writes data to a temporary sibling of name, runs guard, and
// renames the temporary file over name. The rename replaces the directory
// entry; it never writes through a link.
func replace(root *os.Root, name string, data []byte, mode fs.FileMode, guard func() error) error {
	tmp, err := tempName(name)
	if err != nil {
		return err
	}
	if err := writeNew(root, tmp, data, mode); err != nil {
		return err
	}
	if err := guard(); err != nil {
		root.Remove(tmp)
		return err
	}
	if err := root.Rename(tmp, name); err != nil {
		root.Remove(tmp)
		return err
	}
	return nil
}

// create makes name with data, failing with fs.ErrExist if anything is at
// name, so a file made after the deletion is never overwritten. Missing
// parent folders are created.
func create(root *os.Root, name string, data []byte, mode fs.FileMode) (fs.FileInfo, error) {
	if dir := filepath.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	if mode == 0 {
		mode = 0o644
	}
	if err := writeNew(root, name, data, mode); err != nil {
		return nil, err
	}
	return root.Lstat(name)
}

// writeNew creates name exclusively and fills it with data, removing it
// again if that fails.
func writeNew(root *os.Root, name string, data []byte, mode fs.FileMode) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	err = func() error {
		if runtime.GOOS != "windows" { // exact bits despite the umask
			if err := f.Chmod(mode); err != nil {
				return err
			}
		}
		if _, err := f.Write(data); err != nil {
			return err
		}
		return f.Sync()
	}()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		root.Remove(name)
	}
	return err
}

// putBack renames aside back to name unless something took name meanwhile.
func putBack(root *os.Root, aside, name string) {
	if _, err := root.Lstat(name); errors.Is(err, fs.ErrNotExist) {
		root.Rename(aside, name)
	}
}

// tempName returns a fresh hidden sibling name of name.
func tempName(name string) (string, error) {
	var b [9]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".pi-rb-"+hex.EncodeToString(b[:])+".tmp"), nil
}
