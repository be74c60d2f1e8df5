package worktree

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Bounds of a merge preview.
const (
	MaxPreviewDiff    = 512 << 10 // bytes of diff text
	maxPreviewCommits = 200
	maxPreviewFiles   = 2000
	maxPreviewDirty   = 200
)

// Commit is one commit a merge brings into the project.
type Commit struct {
	Hash    string    `json:"hash"`
	Author  string    `json:"author"`
	Time    time.Time `json:"time" ts_type:"string"`
	Subject string    `json:"subject"`
}

// FileChange is one file the merge changes in the project (numstat).
type FileChange struct {
	Path    string `json:"path"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
	Binary  bool   `json:"binary,omitempty"`
}

// Preview is what "Merge into project" would do, as of now.
type Preview struct {
	// Token must be passed to Merge; it changes when the project branch,
	// its commit, or the session branch's commit changes.
	Token         string `json:"token"`
	ProjectBranch string `json:"projectBranch"` // e.g. "main"
	ProjectHead   string `json:"projectHead"`
	Branch        string `json:"branch"` // pi-desktop/<id>
	WorktreeHead  string `json:"worktreeHead"`
	// UpToDate: the worktree has no commit the project lacks; Merge is a no-op.
	UpToDate bool `json:"upToDate"`
	// FastForward: the project branch is already contained in the worktree,
	// so no sync merge is needed.
	FastForward bool `json:"fastForward"`

	Commits       []Commit     `json:"commits"` // newest first
	MoreCommits   int          `json:"moreCommits,omitempty"`
	Files         []FileChange `json:"files"`
	MoreFiles     int          `json:"moreFiles,omitempty"`
	Diff          string       `json:"diff"` // what the project would receive
	DiffTruncated bool         `json:"diffTruncated,omitempty"`

	// Conflicts lists the files syncing the project branch into the
	// worktree would conflict in (predicted with git merge-tree), or the
	// worktree's unresolved files when a sync is already in progress.
	Conflicts        []string `json:"conflicts,omitempty"`
	ConflictsUnknown bool     `json:"conflictsUnknown,omitempty"` // git too old to predict (< 2.38)
	SyncInProgress   bool     `json:"syncInProgress,omitempty"`   // an unfinished merge sits in the worktree
	// Uncommitted lists worktree changes that are not committed: a merge
	// carries commits only, so these stay behind.
	Uncommitted     []string `json:"uncommitted,omitempty"`
	MoreUncommitted int      `json:"moreUncommitted,omitempty"`
}

// MergeResult reports what Merge did.
type MergeResult struct {
	ProjectBranch string `json:"projectBranch"`
	From          string `json:"from"` // project branch before
	To            string `json:"to"`   // project branch after
	UpToDate      bool   `json:"upToDate"`
	// Synced: the project branch was merged into the worktree first; the
	// merge commit is SyncCommit (on the session branch).
	Synced        bool   `json:"synced"`
	SyncCommit    string `json:"syncCommit,omitempty"`
	FastForwarded bool   `json:"fastForwarded"`
	Commits       int    `json:"commits"` // commits the project branch gained
}

// Preview computes what merging the session's branch into the project's
// current branch would bring, without changing anything. It runs only
// read-only git commands (merge-tree writes objects, never refs or files).
func (m *Manager) Preview(ctx context.Context, projectDir, sessionID string) (Preview, error) {
	projectDir, err := cleanProjectDir(projectDir)
	if err != nil {
		return Preview{}, err
	}
	if err := validSessionID(sessionID); err != nil {
		return Preview{}, err
	}
	defer m.lock(ProjectKey(projectDir))()
	st, err := m.mergeState(ctx, projectDir, sessionID)
	if err != nil {
		return Preview{}, err
	}
	pv := Preview{
		Token: st.token(), ProjectBranch: st.branchName(), ProjectHead: st.p,
		Branch: st.wt.Branch, WorktreeHead: st.w, UpToDate: st.merged, FastForward: st.ff,
		Commits: []Commit{}, Files: []FileChange{},
	}
	if unmerged, err := m.unmerged(ctx, st.wt.Dir); err != nil {
		return Preview{}, err
	} else if len(unmerged) > 0 {
		pv.Conflicts, pv.SyncInProgress = unmerged, true
	}
	if pv.Uncommitted, pv.MoreUncommitted, err = m.dirtyPaths(ctx, st.wt.Dir, maxPreviewDirty); err != nil {
		return Preview{}, err
	}
	if st.merged {
		return pv, nil
	}

	target := st.w
	if !st.ff {
		tree, conflicts, known, err := m.predictMerge(ctx, st.top, st.p, st.w)
		if err != nil {
			return Preview{}, err
		}
		if !pv.SyncInProgress {
			pv.Conflicts = conflicts
		}
		pv.ConflictsUnknown = !known
		if known && len(conflicts) == 0 {
			target = tree
		} else {
			target = st.p + "..." + st.w // what the session branch changed
		}
	}
	diffArgs := func(extra ...string) []string {
		a := append([]string{"diff"}, extra...)
		if strings.Contains(target, "...") {
			return append(a, target, "--")
		}
		return append(a, st.p, target, "--")
	}
	if pv.Diff, pv.DiffTruncated, err = m.git.RunTruncated(ctx, st.top, MaxPreviewDiff, diffArgs("--no-color")...); err != nil {
		return Preview{}, err
	}
	num, err := m.git.Run(ctx, st.top, diffArgs("--numstat", "-z", "--no-renames")...)
	if err != nil {
		return Preview{}, err
	}
	pv.Files, pv.MoreFiles = parseNumstat(num, maxPreviewFiles)

	rng := st.p + ".." + st.w
	log, err := m.git.Run(ctx, st.top, "log", "--format=%H%x00%an%x00%at%x00%s", "-n", strconv.Itoa(maxPreviewCommits), rng, "--")
	if err != nil {
		return Preview{}, err
	}
	pv.Commits = parseLog(log)
	if cnt, err := m.git.Run(ctx, st.top, "rev-list", "--count", rng, "--"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(cnt)); err == nil && n > len(pv.Commits) {
			pv.MoreCommits = n - len(pv.Commits)
		}
	}
	return pv, nil
}

// Merge merges the session's branch into the project's current branch, as
// previewed by token (WORKTREE_STALE_PREVIEW when anything moved since):
//
//  1. unless the project branch is already contained in the worktree, it is
//     merged into the worktree (a merge commit on the session branch); a
//     conflict stays in the worktree: WORKTREE_CONFLICT with the files, the
//     project untouched;
//  2. the project branch is then fast-forwarded to the session branch — never
//     a merge commit in the project. Local changes (or untracked or ignored
//     files) in the project that the merge would touch refuse it with
//     WORKTREE_PROJECT_DIRTY and the files; git's own checks back that up.
func (m *Manager) Merge(ctx context.Context, projectDir, sessionID, token string) (MergeResult, error) {
	projectDir, err := cleanProjectDir(projectDir)
	if err != nil {
		return MergeResult{}, err
	}
	if err := validSessionID(sessionID); err != nil {
		return MergeResult{}, err
	}
	defer m.lock(ProjectKey(projectDir))()
	st, err := m.mergeState(ctx, projectDir, sessionID)
	if err != nil {
		return MergeResult{}, err
	}
	if token == "" || token != st.token() {
		return MergeResult{}, errs.New(errs.WorktreeStalePreview,
			"the project or the worktree changed since the preview; preview the merge again").With("sessionId", sessionID)
	}
	res := MergeResult{ProjectBranch: st.branchName(), From: st.p, To: st.p}
	if unmerged, err := m.unmerged(ctx, st.wt.Dir); err != nil {
		return res, err
	} else if len(unmerged) > 0 {
		return res, conflictErr(st, unmerged)
	}
	if st.merged {
		res.UpToDate = true
		return res, nil
	}
	if err := m.projectBusy(ctx, st.top); err != nil {
		return res, err
	}
	if !st.ff {
		// Refuse early, before touching the worktree, when the project's
		// local changes are in the way of what the session branch changed.
		if err := m.checkProjectClean(ctx, st.top, st.p, st.p+"..."+st.w); err != nil {
			return res, err
		}
		commit, err := m.syncIntoWorktree(ctx, st)
		if err != nil {
			return res, err
		}
		res.Synced, res.SyncCommit = true, commit
		st.w = commit
	}

	// Fast-forward the project. Re-read its branch: it must not have moved.
	ref, p, err := m.projectHead(ctx, st.top)
	if err != nil {
		return res, err
	}
	if ref != st.ref || p != st.p {
		return res, errs.New(errs.WorktreeStalePreview,
			"the project branch moved while merging; the worktree holds the synced result, preview again").With("sessionId", sessionID)
	}
	if err := m.checkProjectClean(ctx, st.top, st.p, st.w); err != nil {
		return res, err
	}
	if _, err := m.git.Run(ctx, st.top, "merge", "--ff-only", "--no-stat", "--quiet", st.w); err != nil {
		if exitCode(err) < 0 {
			return res, err
		}
		return res, errs.Wrap(err, errs.WorktreeMergeBlocked, "git refused to fast-forward the project: %s", firstLines(gitStderr(err), 4)).
			With("sessionId", sessionID)
	}
	_, after, err := m.projectHead(ctx, st.top)
	if err != nil {
		return res, err
	}
	if after != st.w {
		return res, fmt.Errorf("worktree: project branch is at %s after the fast-forward, want %s", after, st.w)
	}
	res.To, res.FastForwarded = after, true
	if cnt, err := m.git.Run(ctx, st.top, "rev-list", "--count", st.p+".."+st.w, "--"); err == nil {
		res.Commits, _ = strconv.Atoi(strings.TrimSpace(cnt))
	}
	return res, nil
}

func conflictErr(st mergeState, files []string) error {
	return errs.New(errs.WorktreeConflict,
		"merging %s into the worktree conflicts in %d file(s); resolve and commit them in the worktree, then preview again. The project was not changed",
		st.branchName(), len(files)).With("files", files).With("sessionId", st.wt.SessionID)
}

// syncIntoWorktree merges the project commit into the worktree and returns
// the new session-branch commit.
func (m *Manager) syncIntoWorktree(ctx context.Context, st mergeState) (string, error) {
	args := m.identityArgs(ctx, st.wt.Dir)
	msg := fmt.Sprintf("Merge branch '%s' into %s", st.branchName(), st.wt.Branch)
	args = append(args, "merge", "--no-ff", "--no-edit", "--no-stat", "--quiet", "-m", msg, st.p)
	if _, err := m.git.Run(ctx, st.wt.Dir, args...); err != nil {
		if exitCode(err) < 0 {
			return "", err
		}
		unmerged, uerr := m.unmerged(context.WithoutCancel(ctx), st.wt.Dir)
		if uerr == nil && len(unmerged) > 0 {
			return "", conflictErr(st, unmerged)
		}
		return "", errs.Wrap(err, errs.WorktreeMergeBlocked, "syncing %s into the worktree failed; the project was not changed: %s",
			st.branchName(), firstLines(gitStderr(err), 4)).With("sessionId", st.wt.SessionID)
	}
	head, err := m.git.Run(ctx, st.wt.Dir, "symbolic-ref", "-q", "HEAD")
	if err != nil || strings.TrimSpace(head) != "refs/heads/"+st.wt.Branch {
		return "", errs.New(errs.WorktreeMergeBlocked, "the worktree left its branch during the sync")
	}
	c, err := m.git.Run(ctx, st.wt.Dir, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(c), nil
}

// identityArgs supplies a committer identity for the sync merge when git
// has none configured (git would refuse to commit otherwise).
func (m *Manager) identityArgs(ctx context.Context, dir string) []string {
	_, err1 := m.git.Run(ctx, dir, "var", "GIT_COMMITTER_IDENT")
	_, err2 := m.git.Run(ctx, dir, "var", "GIT_AUTHOR_IDENT")
	if err1 == nil && err2 == nil {
		return nil
	}
	return []string{"-c", "user.name=PI-Desktop", "-c", "user.email=pi-desktop@localhost"}
}
