package worktree

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
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

// mergeState is the identity of a preview: what the token hashes.
type mergeState struct {
	wt     Worktree
	top    string // project's top level
	ref    string // refs/heads/<project branch>
	p, w   string // project branch commit, session branch commit
	merged bool   // w is contained in p
	ff     bool   // p is contained in w
}

func (s mergeState) token() string {
	h := sha256.New()
	for _, f := range []string{"pi-desktop-merge-v1", s.wt.ProjectDir, s.wt.SessionID, s.ref, s.p, s.w} {
		h.Write([]byte(f))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func (s mergeState) branchName() string { return strings.TrimPrefix(s.ref, "refs/heads/") }

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

// mergeState verifies the worktree deeply (it must be the registered
// worktree of this project's repository, on its own branch) and reads the
// commits a preview is about.
func (m *Manager) mergeState(ctx context.Context, projectDir, sessionID string) (mergeState, error) {
	wt, err := m.Verify(projectDir, sessionID)
	if err != nil {
		return mergeState{}, err
	}
	repo, err := m.repo(ctx, projectDir)
	if err != nil {
		return mergeState{}, err
	}
	if err := m.checkBelongs(ctx, wt, repo); err != nil {
		return mergeState{}, err
	}
	head, err := m.git.Run(ctx, wt.Dir, "symbolic-ref", "-q", "HEAD")
	if err != nil && exitCode(err) != 1 {
		return mergeState{}, err
	}
	if strings.TrimSpace(head) != "refs/heads/"+wt.Branch {
		return mergeState{}, errs.New(errs.WorktreeMergeBlocked,
			"the worktree is not on its branch %s any more; check it out in the worktree first", wt.Branch).With("sessionId", sessionID)
	}
	ref, p, err := m.projectHead(ctx, repo.top)
	if err != nil {
		return mergeState{}, err
	}
	if ref == "refs/heads/"+wt.Branch {
		return mergeState{}, errs.New(errs.WorktreeMergeBlocked, "the project has the session branch itself checked out")
	}
	w, err := m.git.Run(ctx, repo.top, "rev-parse", "-q", "--verify", "refs/heads/"+wt.Branch+"^{commit}")
	if err != nil {
		return mergeState{}, err
	}
	st := mergeState{wt: wt, top: repo.top, ref: ref, p: p, w: strings.TrimSpace(w)}
	if st.merged, err = m.isAncestor(ctx, repo.top, st.w, st.p); err != nil {
		return mergeState{}, err
	}
	if st.ff, err = m.isAncestor(ctx, repo.top, st.p, st.w); err != nil {
		return mergeState{}, err
	}
	return st, nil
}

// checkBelongs makes sure the worktree folder is the one git registered for
// this repository: its .git file points into <common>/worktrees/, and git
// run inside it finds the same common dir and this folder as top level. An
// agent that rewrote .git to point at a repository of its own making would
// otherwise choose the configuration the host's git runs with.
func (m *Manager) checkBelongs(ctx context.Context, wt Worktree, repo repoInfo) error {
	bad := func(reason string) error {
		return errs.New(errs.WorktreeMissing,
			"the isolated worktree of session %s no longer belongs to the project's repository (%s); it will not be used", wt.SessionID, reason).
			With("sessionId", wt.SessionID).With("reason", reason)
	}
	dotgit := filepath.Join(wt.Dir, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil || !regularInfo(fi) {
		return bad(".git is not a file")
	}
	data, err := readRegular(dotgit, fi, 4096)
	if err != nil {
		return bad(".git unreadable")
	}
	line, _, _ := strings.Cut(string(data), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return bad(".git has no gitdir")
	}
	gd = filepath.FromSlash(strings.TrimSpace(gd))
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(wt.Dir, gd)
	}
	gdReal, err := filepath.EvalSymlinks(gd)
	if err != nil || !samePath(filepath.Dir(gdReal), filepath.Join(repo.common, "worktrees")) {
		return bad("gitdir outside the repository")
	}
	out, err := m.git.Run(ctx, wt.Dir, "rev-parse", "--path-format=absolute", "--git-common-dir", "--show-toplevel")
	if err != nil {
		if exitCode(err) >= 0 {
			return bad("git does not recognise it")
		}
		return err
	}
	lines := strings.Split(strings.TrimRight(out, "\r\n"), "\n")
	if len(lines) != 2 {
		return bad("unexpected git output")
	}
	common, err1 := filepath.EvalSymlinks(filepath.FromSlash(lines[0]))
	top, err2 := filepath.EvalSymlinks(filepath.FromSlash(lines[1]))
	if err1 != nil || err2 != nil || !samePath(common, repo.common) || !samePath(top, wt.Dir) {
		return bad("git resolves it elsewhere")
	}
	return nil
}

func samePath(a, b string) bool {
	a, b = filepath.Clean(a), filepath.Clean(b)
	if a == b {
		return true
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return strings.EqualFold(a, b)
	}
	return false
}

// projectHead returns the project's current branch ref and its commit;
// a detached HEAD is WORKTREE_MERGE_BLOCKED.
func (m *Manager) projectHead(ctx context.Context, top string) (ref, commit string, err error) {
	out, err := m.git.Run(ctx, top, "symbolic-ref", "-q", "HEAD")
	if err != nil {
		if exitCode(err) == 1 {
			return "", "", errs.New(errs.WorktreeMergeBlocked, "the project checkout is on a detached HEAD; check out the branch to merge into first")
		}
		return "", "", err
	}
	ref = strings.TrimSpace(out)
	if !strings.HasPrefix(ref, "refs/heads/") {
		return "", "", errs.New(errs.WorktreeMergeBlocked, "the project checkout is not on a local branch")
	}
	c, err := m.git.Run(ctx, top, "rev-parse", "-q", "--verify", ref+"^{commit}")
	if err != nil {
		if exitCode(err) == 1 {
			return "", "", errs.New(errs.WorktreeMergeBlocked, "the project branch %s has no commit", strings.TrimPrefix(ref, "refs/heads/"))
		}
		return "", "", err
	}
	return ref, strings.TrimSpace(c), nil
}

func (m *Manager) isAncestor(ctx context.Context, dir, a, b string) (bool, error) {
	if a == b {
		return true, nil
	}
	_, err := m.git.Run(ctx, dir, "merge-base", "--is-ancestor", a, b)
	if err == nil {
		return true, nil
	}
	if exitCode(err) == 1 {
		return false, nil
	}
	return false, err
}

// predictMerge runs git merge-tree --write-tree (git ≥ 2.38): the merged
// tree and the conflicted files, touching no ref and no file. known is
// false when git cannot do it.
func (m *Manager) predictMerge(ctx context.Context, dir, p, w string) (tree string, conflicts []string, known bool, err error) {
	out, err := m.git.Run(ctx, dir, "merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", p, w)
	if err != nil && exitCode(err) != 1 {
		if exitCode(err) >= 0 {
			return "", nil, false, nil // old git: usage error
		}
		return "", nil, false, err
	}
	fields := strings.Split(out, "\x00")
	tree = strings.TrimSpace(fields[0])
	if err != nil { // exit 1: conflicts
		seen := map[string]bool{}
		for _, f := range fields[1:] {
			if f != "" && !seen[f] {
				seen[f] = true
				conflicts = append(conflicts, f)
			}
		}
		if len(conflicts) == 0 {
			conflicts = []string{"(unknown)"}
		}
	}
	return tree, conflicts, true, nil
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

// unmerged lists the worktree's unresolved files.
func (m *Manager) unmerged(ctx context.Context, dir string) ([]string, error) {
	out, err := m.git.Run(ctx, dir, "ls-files", "-u", "-z")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var files []string
	for _, e := range strings.Split(out, "\x00") {
		_, p, ok := strings.Cut(e, "\t")
		if ok && !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	sort.Strings(files)
	return files, nil
}

// dirtyPaths lists up to limit paths with uncommitted changes (staged,
// unstaged or untracked) and how many more there are.
func (m *Manager) dirtyPaths(ctx context.Context, dir string, limit int) ([]string, int, error) {
	all, err := m.statusPaths(ctx, dir)
	if err != nil {
		return nil, 0, err
	}
	if len(all) > limit {
		return all[:limit], len(all) - limit, nil
	}
	return all, 0, nil
}

func (m *Manager) statusPaths(ctx context.Context, dir string) ([]string, error) {
	out, err := m.git.Run(ctx, dir, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=none")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range strings.Split(out, "\x00") {
		if len(e) > 3 {
			paths = append(paths, e[3:])
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// projectBusy refuses while the project is in the middle of a merge,
// cherry-pick, revert, rebase or bisect.
func (m *Manager) projectBusy(ctx context.Context, top string) error {
	names := []string{"MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply", "BISECT_LOG"}
	args := []string{"rev-parse", "--path-format=absolute"}
	for _, n := range names {
		args = append(args, "--git-path", n)
	}
	out, err := m.git.Run(ctx, top, args...)
	if err != nil {
		return err
	}
	for _, p := range strings.Split(strings.TrimRight(out, "\r\n"), "\n") {
		if p == "" {
			continue
		}
		if _, err := os.Lstat(filepath.FromSlash(p)); err == nil {
			return errs.New(errs.WorktreeMergeBlocked,
				"the project checkout is in the middle of a %s; finish or abort it first", filepath.Base(p))
		}
	}
	return nil
}

// checkProjectClean refuses when the project checkout has local changes in a
// file the merge from p to target changes, or an untracked or ignored file
// (or a file where a folder is needed) where the merge adds one: git would
// either refuse or, for ignored files, silently overwrite it.
func (m *Manager) checkProjectClean(ctx context.Context, top, p, target string) error {
	args := []string{"diff", "--name-status", "-z", "--no-renames"}
	if strings.Contains(target, "...") {
		args = append(args, target, "--")
	} else {
		args = append(args, p, target, "--")
	}
	out, err := m.git.Run(ctx, top, args...)
	if err != nil {
		return err
	}
	dirty, err := m.statusPaths(ctx, top)
	if err != nil {
		return err
	}
	dirtySet := make(map[string]bool, len(dirty))
	for _, d := range dirty {
		dirtySet[strings.TrimSuffix(d, "/")] = true
	}
	var blocked []string
	f := strings.Split(out, "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		status, file := f[i], f[i+1]
		if file == "" {
			continue
		}
		switch {
		case dirtySet[file]:
			blocked = append(blocked, file)
		case strings.HasPrefix(status, "A"):
			if occupied(top, file) {
				blocked = append(blocked, file)
			}
		}
	}
	if len(blocked) == 0 {
		return nil
	}
	sort.Strings(blocked)
	return errs.New(errs.WorktreeProjectDirty,
		"the project checkout has local changes (or untracked files) in %d file(s) the merge would change; commit, stash or move them, then merge again",
		len(blocked)).With("files", blocked)
}

// occupied reports whether adding rel in top would replace something on
// disk: the file itself exists, or a folder on its way is not a folder.
func occupied(top, rel string) bool {
	if _, err := os.Lstat(filepath.Join(top, filepath.FromSlash(rel))); err == nil {
		return true
	}
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		fi, err := os.Lstat(filepath.Join(top, filepath.FromSlash(d)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || !fi.IsDir() {
			return true
		}
	}
	return false
}

func parseNumstat(out string, limit int) ([]FileChange, int) {
	files := []FileChange{}
	more := 0
	for _, e := range strings.Split(out, "\x00") {
		parts := strings.SplitN(e, "\t", 3)
		if len(parts) != 3 {
			continue
		}
		if len(files) >= limit {
			more++
			continue
		}
		fc := FileChange{Path: parts[2]}
		if parts[0] == "-" {
			fc.Binary = true
		} else {
			fc.Added, _ = strconv.Atoi(parts[0])
			fc.Deleted, _ = strconv.Atoi(parts[1])
		}
		files = append(files, fc)
	}
	return files, more
}

func parseLog(out string) []Commit {
	commits := []Commit{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.SplitN(line, "\x00", 4)
		if len(f) != 4 {
			continue
		}
		sec, _ := strconv.ParseInt(f[2], 10, 64)
		commits = append(commits, Commit{Hash: f[0], Author: f[1], Time: time.Unix(sec, 0).UTC(), Subject: f[3]})
	}
	return commits
}
