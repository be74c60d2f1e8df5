package worktree

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	return readRecord(p, func(dw DelegateWorktree) string { return dw.Subdir })
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
