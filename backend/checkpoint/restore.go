package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

// Actions a restore takes on a file.
const (
	ActionCreate = "create" // missing now: written back
	ActionModify = "modify" // content, mode or kind (file/link) differs: rewritten
	ActionDelete = "delete" // created since the checkpoint: removed
)

// FileChange is one file a restore changes (or would, or skipped).
type FileChange struct {
	Path   string `json:"path"` // workspace-relative, '/'-separated
	Action string `json:"action"`
	// ModeNow and ModeThen are git modes ("100644", "100755", "120000" for
	// a link; "" when absent).
	ModeNow  string `json:"modeNow,omitempty"`
	ModeThen string `json:"modeThen,omitempty"`
	// Conflict: someone other than the agent (the user's editor, another
	// session, a later turn's unrecorded tool) changed the file after the
	// checkpoint (attribution.go); kept unless overwrite.
	Conflict bool `json:"conflict,omitempty"`
	// Skipped says why a file was not touched (a conflict kept, a path the
	// checkpoints exclude now, a write that failed).
	Skipped string `json:"skipped,omitempty"`
	// Diff is the unified diff from now to the checkpoint (Note says why
	// there is none: binary, too large, a link).
	Diff      string `json:"diff,omitempty"`
	Note      string `json:"note,omitempty"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`

	nowBlob, thenBlob string
}

// Plan is what restoring a checkpoint would do.
type Plan struct {
	Checkpoint Checkpoint   `json:"checkpoint"`
	Files      []FileChange `json:"files"`
	Conflicts  int          `json:"conflicts"`
}

// Result is what a restore did. Restoring Before undoes it.
type Result struct {
	Checkpoint Checkpoint   `json:"checkpoint"`
	Before     Checkpoint   `json:"before"`
	Restored   []FileChange `json:"restored"`
	Skipped    []FileChange `json:"skipped"`
}

// Preview returns what restoring checkpoint id of the session would change,
// with each file's diff and the conflicts. It changes no file (it refreshes
// the shadow index, a cache of the workspace).
func (s *Service) Preview(ctx context.Context, sessionID, id string) (Plan, error) {
	cp, err := s.restorable(ctx, sessionID, id)
	if err != nil {
		return Plan{}, err
	}
	sh, lock := s.shadowFor(cp.Workspace)
	if !lock.acquire(ctx, 0) {
		return Plan{}, ctx.Err()
	}
	defer lock.release()
	now, err := s.currentTree(ctx, sh)
	if err != nil {
		return Plan{}, err
	}
	// The agent's writes no checkpoint kept yet are those of the interval
	// from the latest checkpoint to now.
	files, err := s.plan(ctx, sh, cp, now, s.pendingWrites(sessionID, cp.shadow), true)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Checkpoint: cp, Files: files}
	for _, f := range files {
		if f.Conflict {
			p.Conflicts++
		}
	}
	return p, nil
}

// Restore brings the workspace back to checkpoint id: it takes a
// before-restore checkpoint first (refusing when it cannot), writes every
// file that differs, keeps each conflict unless overwrite covers it, never touches a path
// the checkpoints exclude, then takes an after-restore checkpoint (what
// changed between the two is the restore's own, not a conflict later).
func (s *Service) Restore(ctx context.Context, sessionID, id string, overwrite Overwrite) (Result, error) {
	cp, err := s.restorable(ctx, sessionID, id)
	if err != nil {
		return Result{}, err
	}
	sh, lock := s.shadowFor(cp.Workspace)
	if !lock.acquire(ctx, 0) {
		return Result{}, ctx.Err()
	}
	defer lock.release()
	before, err := s.take(ctx, sh, Point{SessionID: sessionID, Kind: BeforeRestore, Workspace: cp.Workspace})
	if err != nil {
		return Result{}, err
	}
	if !before.Captured {
		return Result{}, errs.New(errs.CheckpointNotCaptured, "nothing was restored: the checkpoint a restore takes first (so it can be undone) failed: %s; retry", before.Reason)
	}
	// The before-restore checkpoint kept the agent's pending writes: it
	// ends the chain, and nothing is pending after it.
	files, err := s.plan(ctx, sh, cp, before.tree, nil, false)
	if err != nil {
		return Result{}, err
	}
	res := Result{Checkpoint: cp, Before: before}
	if err := s.apply(ctx, sh, files, overwrite, &res); err != nil {
		return res, err
	}
	if _, err := s.take(ctx, sh, Point{SessionID: sessionID, Kind: AfterRestore, Workspace: cp.Workspace}); err != nil {
		return res, err
	}
	return res, nil
}

func (s *Service) restorable(ctx context.Context, sessionID, id string) (Checkpoint, error) {
	cp, err := s.Get(ctx, sessionID, id)
	if err != nil {
		return Checkpoint{}, err
	}
	if !cp.Captured {
		return Checkpoint{}, errs.New(errs.CheckpointNotCaptured, "checkpoint %s holds no snapshot (%s); choose an earlier one", id, cp.Reason).With("checkpointId", id)
	}
	return cp, nil
}

// currentTree captures the workspace as a tree without recording a
// checkpoint, under the same cap.
func (s *Service) currentTree(ctx context.Context, sh *shadow) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Cap)
	defer cancel()
	var excludes []string
	if e := insideExclude(sh.workspace, s.opts.Exclude); e != "" {
		excludes = append(excludes, e)
	}
	if err := sh.ensure(ctx, excludes); err != nil {
		return "", err
	}
	tree, _, err := sh.capture(ctx, s.opts.MaxFileSize)
	if err != nil {
		_ = os.Remove(sh.indexFile() + ".lock")
		if ctx.Err() != nil {
			return "", errs.Wrap(err, errs.GitTimeout, "the workspace could not be read within %s; nothing was changed, retry", s.opts.Cap)
		}
	}
	return tree, err
}

// plan lists the files that differ between checkpoint then and tree now,
// marking as conflicts those someone other than the agent changed after
// then (attribution.go; pending are the agent's writes since the latest
// checkpoint); withDiffs adds each file's diff.
func (s *Service) plan(ctx context.Context, sh *shadow, then Checkpoint, now string, pending map[string]string, withDiffs bool) ([]FileChange, error) {
	diffs, err := sh.diffTrees(ctx, now, then.tree)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, d := range diffs {
		want[d.path] = true
	}
	changedSince, err := s.changedByOthers(ctx, sh, then, now, pending, want)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(sh.workspace)
	if err != nil {
		return nil, errs.Wrap(err, errs.NotFound, "the workspace %s cannot be opened; it may have been moved or deleted", sh.workspace)
	}
	defer root.Close()
	var files []FileChange
	var ids []string
	for _, d := range diffs {
		if d.fromMode == modeGitlink || d.toMode == modeGitlink {
			continue // a nested repository is never captured nor restored
		}
		f := FileChange{Path: d.path, ModeNow: present(d.fromMode), ModeThen: present(d.toMode), nowBlob: d.fromBlob, thenBlob: d.toBlob}
		switch {
		case d.fromMode == modeNone:
			f.Action = ActionCreate
			// Something is there that the snapshot left out (ignored now,
			// too large): never overwritten.
			if fi, err := root.Lstat(d.path); err == nil && !fi.IsDir() {
				f.Skipped = "a file the checkpoints exclude (ignored or over the size limit) is there now; it is left alone"
			}
		case d.toMode == modeNone:
			f.Action = ActionDelete
		default:
			f.Action = ActionModify
		}
		f.Conflict = changedSince[d.path]
		if withDiffs {
			ids = append(ids, d.fromBlob, d.toBlob)
		}
		files = append(files, f)
	}
	if withDiffs && len(files) > 0 {
		blobs, err := sh.readBlobs(ctx, realIDs(ids), s.opts.MaxFileSize)
		if err != nil {
			return nil, err
		}
		for i := range files {
			addDiff(&files[i], blobs)
		}
	}
	return files, nil
}

func present(mode string) string {
	if mode == modeNone {
		return ""
	}
	return mode
}

// realIDs drops the all-zero id of an absent side and repeats.
func realIDs(ids []string) []string {
	out := ids[:0]
	for _, id := range ids {
		if id != "" && id != "0000000000000000000000000000000000000000" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func addDiff(f *FileChange, blobs map[string][]byte) {
	if f.ModeNow == modeLink || f.ModeThen == modeLink {
		f.Note = fmt.Sprintf("link: %q → %q", blobs[f.nowBlob], blobs[f.thenBlob])
		return
	}
	nowData, thenData := blobs[f.nowBlob], blobs[f.thenBlob]
	p := review.PreviewChange(nowData, f.ModeNow != "", thenData, f.ModeThen != "")
	f.Diff, f.Note, f.Additions, f.Deletions = p.Diff, p.Note, p.Additions, p.Deletions
	if f.Action == ActionModify && f.ModeNow != f.ModeThen && f.Diff == "" {
		f.Note = fmt.Sprintf("mode %s → %s", f.ModeNow, f.ModeThen)
	}
}

// apply writes the plan. Deletions go first (a folder may have to give way
// to a file), then the rest. Just before touching a path its current
// content is hashed again: a change made since the plan was computed is a
// conflict too.
func (s *Service) apply(ctx context.Context, sh *shadow, files []FileChange, overwrite Overwrite, res *Result) error {
	root, err := os.OpenRoot(sh.workspace)
	if err != nil {
		return errs.Wrap(err, errs.NotFound, "the workspace %s cannot be opened; it may have been moved or deleted", sh.workspace)
	}
	defer root.Close()
	var need []string
	for _, f := range files {
		if f.Action != ActionDelete {
			need = append(need, f.thenBlob)
		}
	}
	blobs, err := sh.readBlobs(ctx, realIDs(need), s.opts.MaxFileSize)
	if err != nil {
		return err
	}
	order := slices.Clone(files)
	slices.SortStableFunc(order, func(a, b FileChange) int {
		return boolInt(a.Action != ActionDelete) - boolInt(b.Action != ActionDelete)
	})
	for _, f := range order {
		skip := f.Skipped
		if skip == "" && f.Conflict && !overwrite.covers(f.Path) {
			skip = "changed after this checkpoint by someone other than the agent; kept (restore with overwrite to replace it)"
		}
		if skip == "" {
			skip = s.applyOne(root, &f, blobs, overwrite.covers(f.Path))
		}
		if skip != "" {
			f.Skipped = skip
			res.Skipped = append(res.Skipped, f)
			continue
		}
		res.Restored = append(res.Restored, f)
	}
	return nil
}

// applyOne makes path f.Path what the checkpoint had; a non-empty return
// says why it was not. It marks f as a conflict when the file changed
// since the plan (f is the caller's: the flag must reach the result).
func (s *Service) applyOne(root *os.Root, f *FileChange, blobs map[string][]byte, overwrite bool) string {
	if why := unsafePath(root, f.Path); why != "" {
		return why
	}
	id, _, exists, err := blobID(root, f.Path)
	if err != nil {
		return "cannot read it now: " + err.Error()
	}
	nowID := f.nowBlob
	if f.ModeNow == "" {
		nowID = ""
	}
	if id != nowID && !overwrite {
		f.Conflict = true
		return "changed while the restore ran; kept (restore with overwrite to replace it)"
	}
	// Every write and deletion goes through the handle of the folder that
	// holds the file (parentdir.go): a folder swapped for a link from here
	// on cannot redirect it.
	dir, name, why := openParent(root, f.Path, f.Action != ActionDelete)
	if why != "" {
		return why
	}
	if dir == nil {
		return "" // a deletion whose folder is gone: nothing is there
	}
	defer dir.Close()
	if s.beforeWrite != nil {
		s.beforeWrite(f.Path)
	}
	if f.Action == ActionDelete {
		if exists {
			if err := dir.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "cannot delete it: " + err.Error()
			}
		}
		pruneEmptyParents(root, f.Path)
		return ""
	}
	if fi, err := dir.Lstat(name); err == nil && fi.IsDir() {
		// A folder took the file's place; it goes only when empty (its
		// files created since were deleted above).
		if err := dir.Remove(name); err != nil {
			return "a folder is in its place now; it is left alone"
		}
	}
	data, ok := blobs[f.thenBlob]
	if !ok {
		return "its content is missing from the checkpoint"
	}
	if f.ModeThen == modeLink {
		if err := dir.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "cannot replace it: " + err.Error()
		}
		if err := dir.Symlink(string(data), name); err != nil {
			return "cannot create the link: " + err.Error()
		}
		return ""
	}
	perm := fs.FileMode(0o644)
	if f.ModeThen == modeExec {
		perm = 0o755
	}
	if err := writeAtomic(dir, name, data, perm); err != nil {
		return "cannot write it: " + err.Error()
	}
	return ""
}

// unsafePath says why p must not be written or deleted, or "" when it may:
// a path into a repository's metadata (.git, in any letter case) never is,
// and neither is one with a folder on its way that is a link or not a
// folder (os.Root follows links that stay inside the workspace, so a
// "scripts" turned into a link to ".git/hooks" would redirect the write).
// Missing folders are fine: they are created as real ones. It runs as each
// path is applied, after the deletions (which may remove such a link).
func unsafePath(root *os.Root, p string) string {
	parts := strings.Split(p, "/")
	for _, part := range parts {
		if strings.EqualFold(part, ".git") {
			return "a path inside a repository's .git folder is never restored; it is left alone"
		}
	}
	for i := 1; i < len(parts); i++ {
		fi, err := root.Lstat(strings.Join(parts[:i], "/"))
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		if err != nil {
			return "cannot check its folder: " + err.Error()
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "a folder on its path is a link now; it is left alone"
		}
		if !fi.IsDir() {
			return "a folder on its path is not a folder now; it is left alone"
		}
	}
	return ""
}

// writeAtomic writes data beside name in dir and renames it over name, so
// a reader never sees half a file and a link at name is replaced, not
// followed. The mode is set on the open file, not through a path.
func writeAtomic(dir *os.Root, name string, data []byte, perm fs.FileMode) error {
	tmp := "." + name + ".pi-restore-" + newID()
	f, err := dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	merr := f.Chmod(perm) // the umask may have cut bits
	cerr := f.Close()
	if err := errors.Join(werr, merr, cerr); err != nil {
		_ = dir.Remove(tmp)
		return err
	}
	if err := dir.Rename(tmp, name); err != nil {
		_ = dir.Remove(tmp)
		return err
	}
	return nil
}

// pruneEmptyParents removes the folders above p that its deletion left
// empty (git keeps no empty folder, so the checkpoint had none of them).
// Only real folders go, each through its parent's handle: a link on the
// path is neither followed nor removed.
func pruneEmptyParents(root *os.Root, p string) {
	for dir := path.Dir(p); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if !removeEmptyDir(root, dir) {
			return
		}
	}
}

func removeEmptyDir(root *os.Root, dir string) bool {
	parent, name, why := openParent(root, dir, false)
	if why != "" || parent == nil {
		return false
	}
	defer parent.Close()
	fi, err := parent.Lstat(name)
	if err != nil || !fi.IsDir() {
		return false
	}
	return parent.Remove(name) == nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
