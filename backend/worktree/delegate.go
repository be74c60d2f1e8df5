package worktree

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// A writing delegate of an isolated session works in a worktree of its own
// (spec §10.2): branched from a checkpoint of the session's worktree (its
// pending edits included), merged back into the session's working tree when
// it finishes, its branch kept when that cannot be done cleanly.

// DelegateBranchPrefix starts every delegate branch:
// pi-desktop-delegate/<session>/<delegation>. It differs from BranchPrefix
// because refs/heads/pi-desktop/<session> is a file and cannot also be a
// folder of refs.
const DelegateBranchPrefix = "pi-desktop-delegate/"

// delegatesDir holds, inside <base>/<project-key>, one folder per session
// with its delegates' checkouts and their records.
const delegatesDir = ".delegates"

// maxMergedFiles bounds the file lists an outcome reports.
const maxMergedFiles = 50

// identityEnv makes PI-Desktop the author and committer of the commits it
// makes for a delegate, whatever the user configured.
func identityEnv() []string {
	return []string{
		"GIT_AUTHOR_NAME=PI-Desktop", "GIT_AUTHOR_EMAIL=pi-desktop@localhost",
		"GIT_COMMITTER_NAME=PI-Desktop", "GIT_COMMITTER_EMAIL=pi-desktop@localhost",
	}
}

// DelegateBranchName returns a delegate's branch.
func DelegateBranchName(sessionID, delegationID string) string {
	return DelegateBranchPrefix + sessionID + "/" + delegationID
}

// DelegateWorktree is a writing delegate's checkout.
type DelegateWorktree struct {
	SessionID    string `json:"sessionId"`
	DelegationID string `json:"delegationId"`
	ProjectDir   string `json:"projectDir"`
	Subdir       string `json:"subdir"`
	Dir          string `json:"dir"`  // <base>/<project-key>/.delegates/<session>/<delegation>
	Root         string `json:"root"` // the delegate's workspaceRoot: Dir joined with Subdir
	Branch       string `json:"branch"`
	// Checkpoint is the commit it was branched from: the session's worktree
	// with its pending edits, as of the delegate's start.
	Checkpoint string    `json:"checkpoint"`
	CreatedAt  time.Time `json:"createdAt"`
}

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

func (m *Manager) delegatePaths(projectDir, sessionID, delegationID string) (sessDir, dir, meta string) {
	keyDir, _, _ := m.paths(projectDir, sessionID)
	sessDir = filepath.Join(keyDir, delegatesDir, sessionID)
	return sessDir, filepath.Join(sessDir, delegationID), filepath.Join(sessDir, delegationID+".json")
}

func validDelegateIDs(sessionID, delegationID string) error {
	if err := validSessionID(sessionID); err != nil {
		return err
	}
	if err := validSessionID(delegationID); err != nil {
		return errs.New(errs.InvalidArgument, "delegation id %q cannot name a worktree", delegationID).With("field", "delegationId")
	}
	return nil
}

// CreateDelegate gives a delegate of an isolated session its worktree: the
// session's worktree is checkpointed (a commit of its working tree as it is,
// pending and untracked-but-not-ignored edits included, made through a
// temporary index: the session's index, HEAD and files are not touched),
// and the delegate's checkout is a new branch at that commit. Ignored files
// the repository's .worktreeinclude lists are copied from the session's
// worktree. On failure nothing is left behind.
func (m *Manager) CreateDelegate(ctx context.Context, projectDir, sessionID, delegationID string) (DelegateWorktree, error) {
	if err := validDelegateIDs(sessionID, delegationID); err != nil {
		return DelegateWorktree{}, err
	}
	session, err := m.Verify(projectDir, sessionID)
	if err != nil {
		return DelegateWorktree{}, err
	}
	keyDir, _, _ := m.paths(session.ProjectDir, sessionID)
	defer m.lock(filepath.Base(keyDir))()

	checkpoint, err := m.checkpoint(ctx, session.Dir, "PI-Desktop checkpoint before delegate "+delegationID)
	if err != nil {
		return DelegateWorktree{}, err
	}
	sessDir, dir, metaPath := m.delegatePaths(session.ProjectDir, sessionID, delegationID)
	for _, d := range []string{keyDir, filepath.Dir(sessDir), sessDir} {
		if err := ensureRealDir(d); err != nil {
			return DelegateWorktree{}, err
		}
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return DelegateWorktree{}, errs.New(errs.WorktreeExists, "a worktree folder for delegation %s already exists", delegationID).With("path", dir)
	}
	branch := DelegateBranchName(sessionID, delegationID)
	if _, err := m.git.Run(ctx, session.Dir, "worktree", "add", "--quiet", "--no-track", "-b", branch, dir, checkpoint.commit); err != nil {
		m.cleanupFailedCreate(context.WithoutCancel(ctx), session.Dir, dir, branch)
		return DelegateWorktree{}, err
	}
	dw := DelegateWorktree{SessionID: sessionID, DelegationID: delegationID, ProjectDir: session.ProjectDir, Subdir: session.Subdir,
		Dir: dir, Root: joinSlash(dir, session.Subdir), Branch: branch, Checkpoint: checkpoint.commit, CreatedAt: time.Now().UTC()}
	if err := m.finishDelegateCreate(ctx, session, dw, metaPath); err != nil {
		m.cleanupFailedCreate(context.WithoutCancel(ctx), session.Dir, dir, branch)
		_ = os.Remove(metaPath)
		return DelegateWorktree{}, err
	}
	return dw, nil
}

func (m *Manager) finishDelegateCreate(ctx context.Context, session Worktree, dw DelegateWorktree, metaPath string) error {
	if !isRealDir(dw.Dir) {
		return errs.New(errs.WorktreeMissing, "the new delegate worktree folder is not a real directory")
	}
	if dw.Subdir != "" {
		root, err := os.OpenRoot(dw.Dir)
		if err != nil {
			return err
		}
		err = root.MkdirAll(filepath.FromSlash(dw.Subdir), 0o755)
		root.Close()
		if err != nil {
			return fmt.Errorf("worktree: create project subfolder: %w", err)
		}
		if err := checkChain(dw.Dir, dw.Subdir); err != nil {
			return err
		}
	}
	if _, err := copyIncludes(ctx, m.git, session.Dir, dw.Dir, m.limits); err != nil {
		return err
	}
	data, err := json.MarshalIndent(dw, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(metaPath, data, 0o600); err != nil {
		return fmt.Errorf("worktree: write delegate record: %w", err)
	}
	return nil
}

// VerifyDelegate returns a delegate's worktree when it is usable as a tool
// root, on Verify's terms: every folder from the base down to its root is a
// real directory, it still has its .git file, and its record names this
// session and project. Anything else is WORKTREE_MISSING, and the caller
// must not fall back to the session's root.
func (m *Manager) VerifyDelegate(projectDir, sessionID, delegationID string) (DelegateWorktree, error) {
	if err := validDelegateIDs(sessionID, delegationID); err != nil {
		return DelegateWorktree{}, err
	}
	projectDir, err := cleanProjectDir(projectDir)
	if err != nil {
		return DelegateWorktree{}, err
	}
	keyDir, _, _ := m.paths(projectDir, sessionID)
	sessDir, dir, metaPath := m.delegatePaths(projectDir, sessionID, delegationID)
	missing := func(reason string) error {
		return errs.New(errs.WorktreeMissing,
			"the worktree of delegation %s is missing or was replaced (%s); it will not be used", delegationID, reason).
			With("delegationId", delegationID).With("path", dir).With("reason", reason)
	}
	for _, p := range []string{m.base, keyDir, filepath.Dir(sessDir), sessDir, dir} {
		fi, err := os.Lstat(p)
		if err != nil {
			return DelegateWorktree{}, missing("folder not found")
		}
		if !realDirInfo(fi) {
			return DelegateWorktree{}, missing("a link or non-directory stands in its place")
		}
	}
	dw, err := readDelegateMeta(metaPath)
	if err != nil {
		return DelegateWorktree{}, missing("no record")
	}
	if dw.SessionID != sessionID || dw.DelegationID != delegationID || filepath.Clean(dw.ProjectDir) != projectDir {
		return DelegateWorktree{}, missing("record belongs to another delegation")
	}
	if fi, err := os.Lstat(filepath.Join(dir, ".git")); err != nil || !regularInfo(fi) {
		return DelegateWorktree{}, missing("not a git worktree any more")
	}
	if err := checkChain(dir, dw.Subdir); err != nil {
		return DelegateWorktree{}, missing("project subfolder missing or a link")
	}
	dw.Dir, dw.Root, dw.Branch = dir, joinSlash(dir, dw.Subdir), DelegateBranchName(sessionID, delegationID)
	return dw, nil
}

func readDelegateMeta(p string) (DelegateWorktree, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return DelegateWorktree{}, err
	}
	if !regularInfo(fi) {
		return DelegateWorktree{}, errors.New("worktree: delegate record is not a regular file")
	}
	data, err := readRegular(p, fi, 64<<10)
	if err != nil {
		return DelegateWorktree{}, err
	}
	var dw DelegateWorktree
	if err := json.Unmarshal(data, &dw); err != nil {
		return DelegateWorktree{}, err
	}
	if dw.Subdir != "" {
		for _, c := range strings.Split(dw.Subdir, "/") {
			if c == "" || c == "." || c == ".." {
				return DelegateWorktree{}, errors.New("worktree: bad subdir in delegate record")
			}
		}
	}
	return dw, nil
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

// RemoveDelegate removes a delegate's worktree folder and record, and its
// branch unless keepBranch. A link standing where a folder should be is
// removed as a link. Removing a delegate that has no worktree is not an error.
func (m *Manager) RemoveDelegate(ctx context.Context, projectDir, sessionID, delegationID string, keepBranch bool) error {
	if err := validDelegateIDs(sessionID, delegationID); err != nil {
		return err
	}
	projectDir, err := cleanProjectDir(projectDir)
	if err != nil {
		return err
	}
	keyDir, _, _ := m.paths(projectDir, sessionID)
	defer m.lock(filepath.Base(keyDir))()
	_, dir, _ := m.delegatePaths(projectDir, sessionID, delegationID)
	repo, err := m.repo(ctx, projectDir)
	if err != nil {
		return err
	}
	dw := DelegateWorktree{SessionID: sessionID, DelegationID: delegationID, ProjectDir: projectDir, Dir: dir,
		Branch: DelegateBranchName(sessionID, delegationID)}
	return m.removeDelegate(ctx, repo.top, dw, keepBranch)
}

// removeDelegate deletes the folder (never following a link), then git's
// record of it, then the branch unless keepBranch. repoDir is any checkout
// of the repository.
func (m *Manager) removeDelegate(ctx context.Context, repoDir string, dw DelegateWorktree, keepBranch bool) error {
	sessDir, dir, metaPath := m.delegatePaths(dw.ProjectDir, dw.SessionID, dw.DelegationID)
	if isRealDir(m.base) && isRealDir(filepath.Dir(filepath.Dir(sessDir))) && isRealDir(filepath.Dir(sessDir)) {
		if fi, err := os.Lstat(sessDir); err == nil && !realDirInfo(fi) {
			if err := os.Remove(sessDir); err != nil {
				return fmt.Errorf("worktree: remove link %s: %w", sessDir, err)
			}
		} else if fi, err := os.Lstat(dir); err == nil {
			if realDirInfo(fi) {
				err = os.RemoveAll(dir)
			} else {
				err = os.Remove(dir)
			}
			if err != nil {
				return fmt.Errorf("worktree: remove %s: %w", dir, err)
			}
		}
		_ = os.Remove(metaPath)
		_ = os.Remove(sessDir)               // only when empty
		_ = os.Remove(filepath.Dir(sessDir)) // only when empty
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("worktree: %s is still there; git records kept", dir)
	}
	if _, err := m.git.Run(ctx, repoDir, "worktree", "remove", "--force", "--force", dir); err != nil && exitCode(err) < 0 {
		return err
	}
	if keepBranch {
		return nil
	}
	if _, err := m.git.Run(ctx, repoDir, "branch", "-D", dw.Branch); err != nil && exitCode(err) < 0 {
		return err
	}
	return nil
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

// removeSessionDelegates discards every delegate worktree and branch of a
// session, kept ones included: they go with the session (spec §4e). Best
// effort, with the project lock held by the caller; folders are removed
// without following links, before git forgets them.
func (m *Manager) removeSessionDelegates(ctx context.Context, projectDir, sessionID string) {
	keyDir, _, _ := m.paths(projectDir, sessionID)
	sessDir, _, _ := m.delegatePaths(projectDir, sessionID, "x")
	var dirs []string
	if isRealDir(m.base) && isRealDir(keyDir) && isRealDir(filepath.Dir(sessDir)) {
		if fi, err := os.Lstat(sessDir); err == nil && !realDirInfo(fi) {
			_ = os.Remove(sessDir) // a link: the link only
		} else if entries, err := os.ReadDir(sessDir); err == nil {
			for _, e := range entries {
				p := filepath.Join(sessDir, e.Name())
				if e.IsDir() {
					dirs = append(dirs, p)
				}
				_ = os.RemoveAll(p) // never follows links
			}
			_ = os.Remove(sessDir)
		}
		_ = os.Remove(filepath.Dir(sessDir)) // only when empty
	}
	repo, err := m.repo(ctx, projectDir)
	if err != nil {
		return
	}
	for _, d := range dirs {
		_, _ = m.git.Run(ctx, repo.top, "worktree", "remove", "--force", "--force", d)
	}
	refs, err := m.git.Run(ctx, repo.top, "for-each-ref", "--format=%(refname)", "refs/heads/"+DelegateBranchPrefix+sessionID+"/")
	if err != nil {
		return
	}
	for _, ref := range strings.Split(strings.TrimSpace(refs), "\n") {
		if branch, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
			_, _ = m.git.Run(ctx, repo.top, "branch", "-D", branch)
		}
	}
}
