package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// capture adds what changed in the workspace since the shadow index to it
// and writes its tree. changed counts the paths git saw differ from the
// previous snapshot of the workspace (created, modified, deleted).
func (s *shadow) capture(ctx context.Context, maxFile int64) (tree string, changed int, err error) {
	// -o: untracked and not ignored; -m/-d: tracked and modified/deleted.
	// A nested repository shows as "dir/" and is left out whole.
	out, err := s.run(ctx, nil, "ls-files", "-z", "-o", "-m", "-d", "--exclude-standard", "--full-name")
	if err != nil {
		return "", 0, err
	}
	seen := map[string]bool{}
	var update, remove bytes.Buffer
	for p := range strings.SplitSeq(out, "\x00") {
		if p == "" || strings.HasSuffix(p, "/") || seen[p] {
			continue
		}
		seen[p] = true
		fi, err := os.Lstat(filepath.Join(s.workspace, filepath.FromSlash(p)))
		switch {
		case errors.Is(err, fs.ErrNotExist), err == nil && fi.IsDir():
			remove.WriteString(p + "\x00") // gone, or a file replaced by a folder
		case err != nil:
			return "", 0, err
		case fi.Mode().IsRegular() && fi.Size() > maxFile:
			remove.WriteString(p + "\x00") // too large: not captured, never restored
			continue
		default:
			update.WriteString(p + "\x00")
		}
		changed++
	}
	if update.Len() > 0 {
		if _, err := s.run(ctx, &update, "update-index", "--add", "--remove", "--replace", "-z", "--stdin"); err != nil {
			return "", 0, err
		}
	}
	if remove.Len() > 0 {
		if _, err := s.run(ctx, &remove, "update-index", "--force-remove", "-z", "--stdin"); err != nil {
			return "", 0, err
		}
	}
	tree, err = s.run(ctx, nil, "write-tree")
	return strings.TrimSpace(tree), changed, err
}

// commit records tree as a commit whose parent is the session's previous
// checkpoint of this workspace ("" for none).
func (s *shadow) commit(ctx context.Context, tree, parent, message string) (string, error) {
	args := []string{"commit-tree", tree, "-m", message}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	out, err := s.run(ctx, nil, args...)
	return strings.TrimSpace(out), err
}

// snapshot is one capture under the cap: it returns within cap whatever
// git does, killing git's process group when the deadline passes.
func (s *shadow) snapshot(ctx context.Context, cap time.Duration, maxFile int64, excludes []string, parent, message string, slow func(context.Context) error) (tree, commit string, changed int, err error) {
	ctx, cancel := context.WithTimeout(ctx, cap)
	defer cancel()
	defer func() {
		if err != nil {
			// A git killed mid-write leaves its lock behind; the shadow's
			// lock (held by the caller) says nobody else is writing.
			_ = os.Remove(s.indexFile() + ".lock")
			if ctx.Err() != nil {
				err = fmt.Errorf("%w: %v", errSlow, err)
			}
		}
	}()
	if slow != nil {
		if err := slow(ctx); err != nil {
			return "", "", 0, err
		}
	}
	if err := s.ensure(ctx, excludes); err != nil {
		return "", "", 0, err
	}
	if tree, changed, err = s.capture(ctx, maxFile); err != nil {
		return "", "", 0, err
	}
	commit, err = s.commit(ctx, tree, parent, message)
	return tree, commit, changed, err
}

// errSlow marks a snapshot abandoned at its cap.
var errSlow = errors.New("snapshot abandoned at its time cap")
