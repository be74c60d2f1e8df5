package worktree

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// How a delegate's work comes back: committed on its branch, then merged
// into the session's working tree by a three-way merge that is predicted
// first and written whole or not at all, through temporary indexes that
// leave the session's own index, HEAD and branch alone.

// maxMergedFiles bounds the file lists an outcome reports.
const maxMergedFiles = 50

// Merge outcomes of a delegate (DelegateOutcome.State).
const (
	DelegateMerged    = "merged"    // its changes are in the session's working tree
	DelegateUnchanged = "unchanged" // it changed nothing
	DelegateConflict  = "conflict"  // they conflict with the session's: branch kept
	DelegateKept      = "kept"      // not merged (failed, stopped, or the merge was blocked): branch kept
)

// DelegateOutcome is what FinishDelegate did. The worktree folder is gone in
// every case; the branch stays unless the state is merged or unchanged.
type DelegateOutcome struct {
	State  string `json:"state"`
	Branch string `json:"branch"`
	Commit string `json:"commit,omitempty"` // the branch's head ("" when unchanged)
	Base   string `json:"base,omitempty"`   // the checkpoint it started from: Base..Commit is its work
	// Files are the files merged (merged) or in conflict (conflict), at
	// most maxMergedFiles; MoreFiles counts the rest.
	Files     []string `json:"files,omitempty"`
	MoreFiles int      `json:"moreFiles,omitempty"`
	// Reason says why a merge was blocked (state kept after a merge attempt).
	Reason string `json:"reason,omitempty"`
}

// FinishDelegate ends a delegate's worktree. Its changes are committed on
// its branch first (PI-Desktop the author, message the commit message).
// With merge, they are then merged into the session's working tree by a
// three-way merge of checkpoint..branch onto the session's files as they
// are now (its own edits made meanwhile are kept): predicted with git
// merge-tree and written only when clean, so the session's files are never
// left half merged. The session's index and HEAD are not touched: merged
// changes appear as its pending edits. The worktree folder is removed in
// every case; the branch is removed when merged or unchanged, kept
// otherwise (conflict, blocked, or merge false).
func (m *Manager) FinishDelegate(ctx context.Context, projectDir, sessionID, delegationID, message string, merge bool) (DelegateOutcome, error) {
	dw, err := m.VerifyDelegate(projectDir, sessionID, delegationID)
	if err != nil {
		return DelegateOutcome{}, err
	}
	session, err := m.Verify(projectDir, sessionID)
	if err != nil {
		return DelegateOutcome{}, err
	}
	keyDir, _, _ := m.paths(session.ProjectDir, sessionID)
	defer m.lock(filepath.Base(keyDir))()

	head, err := m.commitDelegate(ctx, dw, message)
	if err != nil {
		return DelegateOutcome{}, err
	}
	out := DelegateOutcome{State: DelegateKept, Branch: dw.Branch, Commit: head, Base: dw.Checkpoint}
	switch {
	case head == dw.Checkpoint:
		out = DelegateOutcome{State: DelegateUnchanged, Branch: dw.Branch}
	case merge:
		out, err = m.mergeDelegate(ctx, session, dw, head)
		if err != nil {
			return DelegateOutcome{}, err
		}
	}
	keep := out.State != DelegateMerged && out.State != DelegateUnchanged
	return out, m.removeDelegate(ctx, session.Dir, dw, keep)
}

// commitDelegate commits everything the delegate's checkout holds (what is
// not ignored) on its branch and returns the branch's head.
func (m *Manager) commitDelegate(ctx context.Context, dw DelegateWorktree, message string) (string, error) {
	if _, err := m.git.Run(ctx, dw.Dir, "add", "-A"); err != nil {
		return "", err
	}
	if _, err := m.git.Run(ctx, dw.Dir, "diff", "--cached", "--quiet"); err != nil {
		if exitCode(err) != 1 {
			return "", err
		}
		if _, err := m.git.runEnv(ctx, dw.Dir, identityEnv(), "-c", "commit.gpgSign=false", "commit", "--quiet", "--no-verify", "-m", message); err != nil {
			return "", err
		}
	}
	head, err := m.git.Run(ctx, dw.Dir, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	return strings.TrimSpace(head), err
}

// mergeDelegate merges checkpoint..head into the session's working tree.
func (m *Manager) mergeDelegate(ctx context.Context, session Worktree, dw DelegateWorktree, head string) (DelegateOutcome, error) {
	out := DelegateOutcome{Branch: dw.Branch, Commit: head, Base: dw.Checkpoint}
	snap, err := m.snapshot(ctx, session.Dir)
	if err != nil {
		return out, err
	}
	defer snap.remove()
	base, err := m.git.Run(ctx, session.Dir, "rev-parse", "-q", "--verify", dw.Checkpoint+"^{tree}")
	if err != nil {
		return out, err
	}
	target, err := m.git.Run(ctx, session.Dir, "rev-parse", "-q", "--verify", head+"^{tree}")
	if err != nil {
		return out, err
	}
	merged := strings.TrimSpace(target)
	if snap.tree != strings.TrimSpace(base) {
		// The session changed files meanwhile: a commit of its files now on
		// top of the checkpoint makes the checkpoint the merge base.
		now, err := m.git.runEnv(ctx, session.Dir, identityEnv(), "commit-tree", "--no-gpg-sign", "-p", dw.Checkpoint,
			"-m", "PI-Desktop: the session's files before merging "+dw.Branch, snap.tree)
		if err != nil {
			return out, err
		}
		tree, conflicts, known, err := m.predictMerge(ctx, session.Dir, strings.TrimSpace(now), head)
		if err != nil {
			return out, err
		}
		if !known {
			out.State, out.Reason = DelegateKept, "git is too old to merge without touching the session's files (2.38 or later is needed)"
			return out, nil
		}
		if len(conflicts) > 0 {
			out.State = DelegateConflict
			out.Files, out.MoreFiles = clipFiles(conflicts)
			return out, nil
		}
		merged = tree
	}
	files, err := m.git.Run(ctx, session.Dir, "diff", "--name-only", "-z", "--no-renames", snap.tree, merged, "--")
	if err != nil {
		return out, err
	}
	// A two-tree read-tree on the snapshot's index writes exactly the files
	// that differ, after checking that none changed since the snapshot (it
	// refuses before writing anything, so nothing is left half done).
	if _, err := m.git.runEnv(ctx, session.Dir, snap.env(), "read-tree", "-m", "-u", snap.tree, merged); err != nil {
		if exitCode(err) < 0 {
			return out, err
		}
		out.State, out.Reason = DelegateKept, "the session's files changed while merging: "+firstLines(gitStderr(err), 2)
		return out, nil
	}
	out.State = DelegateMerged
	out.Files, out.MoreFiles = clipFiles(splitZ(files))
	return out, nil
}

type checkpointCommit struct{ commit, tree string }

// checkpoint commits dir's working tree as it is (snapshot) on top of its
// HEAD, without moving any ref: the commit is reachable only through what
// the caller builds on it.
func (m *Manager) checkpoint(ctx context.Context, dir, message string) (checkpointCommit, error) {
	snap, err := m.snapshot(ctx, dir)
	if err != nil {
		return checkpointCommit{}, err
	}
	defer snap.remove()
	head, err := m.headCommit(ctx, dir)
	if err != nil {
		return checkpointCommit{}, err
	}
	c, err := m.git.runEnv(ctx, dir, identityEnv(), "commit-tree", "--no-gpg-sign", "-p", head, "-m", message, snap.tree)
	if err != nil {
		return checkpointCommit{}, err
	}
	return checkpointCommit{commit: strings.TrimSpace(c), tree: snap.tree}, nil
}

// snapshotIndex is a temporary index holding a work tree as it is.
type snapshotIndex struct {
	dir  string // temporary folder holding the index
	tree string
}

func (s snapshotIndex) env() []string {
	return []string{"GIT_INDEX_FILE=" + filepath.Join(s.dir, "index")}
}

func (s snapshotIndex) remove() { _ = os.RemoveAll(s.dir) }

// snapshot writes the tree of dir's work tree as it is now (tracked changes
// and the untracked files that are not ignored) through a temporary index
// seeded with a copy of dir's own, so unchanged files are not hashed again.
// dir's index, HEAD and files are not touched. The caller removes it.
func (m *Manager) snapshot(ctx context.Context, dir string) (snapshotIndex, error) {
	tmp, err := os.MkdirTemp("", "pi-desktop-index-")
	if err != nil {
		return snapshotIndex{}, fmt.Errorf("worktree: temporary index: %w", err)
	}
	s := snapshotIndex{dir: tmp}
	tree, err := m.writeWorkTree(ctx, dir, s, true)
	if err != nil {
		// A copied index git cannot use on its own (a split index, say):
		// start from an empty one, which only costs hashing every file.
		_ = os.Remove(filepath.Join(tmp, "index"))
		tree, err = m.writeWorkTree(ctx, dir, s, false)
	}
	if err != nil {
		s.remove()
		return snapshotIndex{}, err
	}
	s.tree = tree
	return s, nil
}

func (m *Manager) writeWorkTree(ctx context.Context, dir string, s snapshotIndex, seed bool) (string, error) {
	if seed {
		if err := m.copyIndex(ctx, dir, filepath.Join(s.dir, "index")); err != nil {
			return "", err
		}
	}
	if _, err := m.git.runEnv(ctx, dir, s.env(), "add", "-A"); err != nil {
		return "", err
	}
	tree, err := m.git.runEnv(ctx, dir, s.env(), "write-tree")
	return strings.TrimSpace(tree), err
}

// copyIndex copies dir's index file to dst (nothing when it has none).
func (m *Manager) copyIndex(ctx context.Context, dir, dst string) error {
	p, err := m.git.Run(ctx, dir, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return err
	}
	src, err := os.Open(filepath.FromSlash(strings.TrimSpace(p)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("worktree: the index is not a regular file")
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, src)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// git tells a file changed within the index's own second by the index
	// file's time (racy git): the copy must keep it, or such an edit of the
	// same size would look unchanged and be left out.
	return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
}

func splitZ(out string) []string {
	var files []string
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files
}

func clipFiles(files []string) ([]string, int) {
	if len(files) > maxMergedFiles {
		return files[:maxMergedFiles], len(files) - maxMergedFiles
	}
	return files, 0
}
