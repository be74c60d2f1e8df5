package worktree

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// What Preview and Merge read of the two checkouts: the state a preview
// token names, and the checks that the worktree and the project may take
// part in a merge. Nothing here changes a ref or a file.

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
