package worktree

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// BranchPrefix is the prefix of every session branch: pi-desktop/<id>.
const BranchPrefix = "pi-desktop/"

// metaDir is the folder, inside <base>/<project-key>, holding one JSON record
// per worktree. Session ids start with a letter or digit, so it never
// collides with a worktree folder.
const metaDir = ".meta"

// Worktree is an isolated session's checkout.
type Worktree struct {
	SessionID  string    `json:"sessionId"`
	ProjectDir string    `json:"projectDir"` // the project path, as given (project identity)
	RepoRoot   string    `json:"repoRoot"`   // the project's git top level (real path)
	Subdir     string    `json:"subdir"`     // the project dir relative to RepoRoot, "/"-separated; "" when equal
	Dir        string    `json:"dir"`        // the checkout: <base>/<project-key>/<id>
	Root       string    `json:"root"`       // the session's workspaceRoot: Dir joined with Subdir
	Branch     string    `json:"branch"`     // pi-desktop/<id>
	Base       string    `json:"base"`       // the commit it was created from
	CreatedAt  time.Time `json:"createdAt"`
}

// Created is the outcome of Create.
type Created struct {
	Worktree
	Included IncludeReport // what .worktreeinclude copied and skipped
}

// Manager owns the worktrees under one base folder (<data>/worktrees). It is
// safe for concurrent use; operations on one project are serialized.
type Manager struct {
	base   string
	git    *Git
	ports  *Ports
	limits IncludeLimits

	mu    sync.Mutex
	locks map[string]*sync.Mutex // per project key
}

// NewManager returns a Manager for base, which it creates (0700) when
// missing. base must be absolute; it is resolved to its real path once, so
// the paths the Manager reports match the ones git reports.
func NewManager(base string, git *Git) (*Manager, error) {
	if git == nil {
		return nil, errors.New("worktree: nil Git")
	}
	if !filepath.IsAbs(base) {
		return nil, fmt.Errorf("worktree: base %q is not absolute", base)
	}
	if err := os.MkdirAll(base, 0o700); err != nil {
		return nil, fmt.Errorf("worktree: create base: %w", err)
	}
	if !isRealDir(base) {
		return nil, fmt.Errorf("worktree: base %s is not a real directory", base)
	}
	real, err := filepath.EvalSymlinks(base)
	if err != nil {
		return nil, fmt.Errorf("worktree: resolve base: %w", err)
	}
	return &Manager{
		base:   real,
		git:    git,
		ports:  NewPorts(),
		limits: DefaultIncludeLimits(),
		locks:  map[string]*sync.Mutex{},
	}, nil
}

// Base returns the real path of the base folder.
func (m *Manager) Base() string { return m.base }

// Git returns the hardened runner the Manager uses.
func (m *Manager) Git() *Git { return m.git }

// Ports returns the port-block allocator; Remove releases a session's block.
func (m *Manager) Ports() *Ports { return m.ports }

// SetIncludeLimits replaces the .worktreeinclude bounds (zero fields keep
// the defaults). Call it before the Manager is shared.
func (m *Manager) SetIncludeLimits(l IncludeLimits) { m.limits = l.withDefaults() }

// ProjectKey returns a stable, filesystem-safe key for a project path: a
// readable slug of its base name and 16 hex digits of a hash of the cleaned
// absolute path (case-folded on Windows and macOS, whose default volumes are
// case-insensitive).
func ProjectKey(projectDir string) string {
	p := filepath.Clean(projectDir)
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	h := p
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		h = strings.ToLower(h)
	}
	sum := sha256.Sum256([]byte(h))
	var slug strings.Builder
	for _, r := range filepath.Base(p) {
		if slug.Len() >= 32 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			slug.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			slug.WriteRune(r + ('a' - 'A'))
		default:
			slug.WriteByte('-')
		}
	}
	s := strings.Trim(slug.String(), "-_")
	if s == "" {
		s = "project"
	}
	return s + "-" + hex.EncodeToString(sum[:8])
}

// BranchName returns the session branch, pi-desktop/<id>.
func BranchName(sessionID string) string { return BranchPrefix + sessionID }

// validSessionID accepts ids safe as a folder name and inside a ref name:
// a letter or digit, then letters, digits, '-' and '_' (UUIDs qualify).
func validSessionID(id string) error {
	ok := id != "" && len(id) <= 128
	for i, r := range id {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !alnum && (i == 0 || (r != '-' && r != '_')) {
			ok = false
			break
		}
	}
	if !ok {
		return errs.New(errs.InvalidArgument, "session id %q cannot name a worktree", id).With("field", "sessionId")
	}
	return nil
}

func cleanProjectDir(projectDir string) (string, error) {
	if projectDir == "" || !filepath.IsAbs(projectDir) {
		return "", errs.New(errs.InvalidArgument, "project path %q must be absolute", projectDir).With("field", "projectDir")
	}
	return filepath.Clean(projectDir), nil
}

func (m *Manager) lock(key string) func() {
	m.mu.Lock()
	l := m.locks[key]
	if l == nil {
		l = &sync.Mutex{}
		m.locks[key] = l
	}
	m.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// paths returns <base>/<key>, <base>/<key>/<id> and the metadata file.
func (m *Manager) paths(projectDir, sessionID string) (keyDir, dir, meta string) {
	keyDir = filepath.Join(m.base, ProjectKey(projectDir))
	return keyDir, filepath.Join(keyDir, sessionID), filepath.Join(keyDir, metaDir, sessionID+".json")
}

// repoInfo describes the repository that contains a project folder.
type repoInfo struct {
	top    string // real path of the work tree's top level
	common string // real path of the common git dir
	subdir string // project dir relative to top, "/"-separated
}

// IsRepo reports whether projectDir is inside a git work tree with at least
// one commit, which is what an isolated session needs. A missing git is an
// error (GIT_NOT_FOUND), not false.
func (m *Manager) IsRepo(ctx context.Context, projectDir string) (bool, error) {
	projectDir, err := cleanProjectDir(projectDir)
	if err != nil {
		return false, err
	}
	if _, err := m.repo(ctx, projectDir); err != nil {
		if errs.Is(err, errs.WorktreeNotGit) {
			return false, nil
		}
		return false, err
	}
	if _, err := m.headCommit(ctx, projectDir); err != nil {
		if errs.Is(err, errs.WorktreeNotGit) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

func (m *Manager) repo(ctx context.Context, projectDir string) (repoInfo, error) {
	if fi, err := os.Stat(projectDir); err != nil || !fi.IsDir() {
		return repoInfo{}, errs.New(errs.ProjectNotFound, "project folder %s does not exist", projectDir)
	}
	out, err := m.git.Run(ctx, projectDir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir")
	if err != nil {
		if exitCode(err) == 128 {
			msg := strings.ToLower(gitStderr(err))
			if strings.Contains(msg, "not a git repository") || strings.Contains(msg, "work tree") {
				return repoInfo{}, errs.Wrap(err, errs.WorktreeNotGit,
					"%s is not in a git repository; an isolated session needs one (run git init and make a first commit)", projectDir)
			}
		}
		return repoInfo{}, err
	}
	lines := strings.Split(strings.TrimRight(out, "\r\n"), "\n")
	if len(lines) != 2 {
		return repoInfo{}, fmt.Errorf("worktree: unexpected rev-parse output %q", out)
	}
	top, err1 := filepath.EvalSymlinks(filepath.FromSlash(strings.TrimSpace(lines[0])))
	common, err2 := filepath.EvalSymlinks(filepath.FromSlash(strings.TrimSpace(lines[1])))
	realProject, err3 := filepath.EvalSymlinks(projectDir)
	if err := errors.Join(err1, err2, err3); err != nil {
		return repoInfo{}, fmt.Errorf("worktree: resolve repository paths: %w", err)
	}
	rel, ok := relWithin(top, realProject)
	if !ok {
		return repoInfo{}, fmt.Errorf("worktree: project %s is not inside its top level %s", realProject, top)
	}
	return repoInfo{top: top, common: common, subdir: rel}, nil
}

func (m *Manager) headCommit(ctx context.Context, dir string) (string, error) {
	out, err := m.git.Run(ctx, dir, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil {
		if exitCode(err) == 1 {
			return "", errs.New(errs.WorktreeNotGit, "the project's repository has no commit yet; commit once before starting an isolated session")
		}
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// Create makes the session's worktree: <base>/<project-key>/<id> on a new
// branch pi-desktop/<id> at the project's current HEAD commit. Uncommitted
// project changes are not carried over; git-ignored files matched by the
// repository's .worktreeinclude are copied (see copyIncludes). Repository
// hooks do not run. A non-git project is WORKTREE_NOT_GIT; an existing
// folder or branch for the session is WORKTREE_EXISTS. On failure nothing is
// left behind.
func (m *Manager) Create(ctx context.Context, projectDir, sessionID string) (Created, error) {
	if err := validSessionID(sessionID); err != nil {
		return Created{}, err
	}
	projectDir, err := cleanProjectDir(projectDir)
	if err != nil {
		return Created{}, err
	}
	repo, err := m.repo(ctx, projectDir)
	if err != nil {
		return Created{}, err
	}
	head, err := m.headCommit(ctx, projectDir)
	if err != nil {
		return Created{}, err
	}
	keyDir, dir, metaPath := m.paths(projectDir, sessionID)
	defer m.lock(filepath.Base(keyDir))()

	if err := ensureRealDir(keyDir); err != nil {
		return Created{}, err
	}
	if err := ensureRealDir(filepath.Join(keyDir, metaDir)); err != nil {
		return Created{}, err
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return Created{}, errs.New(errs.WorktreeExists, "a worktree folder for session %s already exists", sessionID).With("path", dir)
	}
	branch := BranchName(sessionID)
	if _, err := m.git.Run(ctx, repo.top, "rev-parse", "-q", "--verify", "refs/heads/"+branch); err == nil {
		return Created{}, errs.New(errs.WorktreeExists, "branch %s already exists in the project's repository", branch).With("branch", branch)
	} else if exitCode(err) != 1 {
		return Created{}, err
	}

	if _, err := m.git.Run(ctx, repo.top, "worktree", "add", "--quiet", "--no-track", "-b", branch, dir, head); err != nil {
		m.cleanupFailedCreate(context.WithoutCancel(ctx), repo.top, dir, branch)
		return Created{}, err
	}
	wt := Worktree{
		SessionID: sessionID, ProjectDir: projectDir, RepoRoot: repo.top, Subdir: repo.subdir,
		Dir: dir, Root: joinSlash(dir, repo.subdir), Branch: branch, Base: head, CreatedAt: time.Now().UTC(),
	}
	created, err := m.finishCreate(ctx, wt, metaPath)
	if err != nil {
		m.cleanupFailedCreate(context.WithoutCancel(ctx), repo.top, dir, branch)
		_ = os.Remove(metaPath)
		return Created{}, err
	}
	return created, nil
}

func (m *Manager) finishCreate(ctx context.Context, wt Worktree, metaPath string) (Created, error) {
	if !isRealDir(wt.Dir) {
		return Created{}, errs.New(errs.WorktreeMissing, "the new worktree folder is not a real directory")
	}
	if wt.Subdir != "" {
		// The project folder may hold nothing tracked at HEAD; the session
		// still needs its root.
		root, err := os.OpenRoot(wt.Dir)
		if err != nil {
			return Created{}, err
		}
		err = root.MkdirAll(filepath.FromSlash(wt.Subdir), 0o755)
		root.Close()
		if err != nil {
			return Created{}, fmt.Errorf("worktree: create project subfolder: %w", err)
		}
		if err := checkChain(wt.Dir, wt.Subdir); err != nil {
			return Created{}, err
		}
	}
	rep, err := copyIncludes(ctx, m.git, wt.RepoRoot, wt.Dir, m.limits)
	if err != nil {
		return Created{}, err
	}
	data, err := json.MarshalIndent(wt, "", "  ")
	if err != nil {
		return Created{}, err
	}
	if err := os.WriteFile(metaPath, data, 0o600); err != nil {
		return Created{}, fmt.Errorf("worktree: write record: %w", err)
	}
	return Created{Worktree: wt, Included: rep}, nil
}

func (m *Manager) cleanupFailedCreate(ctx context.Context, top, dir, branch string) {
	if fi, err := os.Lstat(dir); err == nil {
		if realDirInfo(fi) {
			_ = os.RemoveAll(dir)
		} else {
			_ = os.Remove(dir)
		}
	}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		_, _ = m.git.Run(ctx, top, "worktree", "remove", "--force", "--force", dir)
	}
	_, _ = m.git.Run(ctx, top, "branch", "-D", branch)
}

// Verify returns the session's worktree when it is usable as a tool root:
// every folder from the base down to the workspace root is a real directory
// (no symbolic link, no junction), the checkout still has its .git file, and
// its record names this project. Anything else is WORKTREE_MISSING: the
// caller must never fall back to the project folder. Verify runs no git and
// is cheap enough to call before every tool call.
func (m *Manager) Verify(projectDir, sessionID string) (Worktree, error) {
	if err := validSessionID(sessionID); err != nil {
		return Worktree{}, err
	}
	projectDir, err := cleanProjectDir(projectDir)
	if err != nil {
		return Worktree{}, err
	}
	keyDir, dir, metaPath := m.paths(projectDir, sessionID)
	missing := func(reason string) error {
		return errs.New(errs.WorktreeMissing,
			"the isolated worktree of session %s is missing or was replaced (%s); it will not be used", sessionID, reason).
			With("sessionId", sessionID).With("path", dir).With("reason", reason)
	}
	for _, p := range []string{m.base, keyDir, dir} {
		fi, err := os.Lstat(p)
		if err != nil {
			return Worktree{}, missing("folder not found")
		}
		if !realDirInfo(fi) {
			return Worktree{}, missing("a link or non-directory stands in its place")
		}
	}
	wt, err := readMeta(metaPath)
	if err != nil {
		return Worktree{}, missing("no record")
	}
	if wt.SessionID != sessionID || filepath.Clean(wt.ProjectDir) != projectDir {
		return Worktree{}, missing("record belongs to another project")
	}
	if fi, err := os.Lstat(filepath.Join(dir, ".git")); err != nil || !regularInfo(fi) {
		return Worktree{}, missing("not a git worktree any more")
	}
	if err := checkChain(dir, wt.Subdir); err != nil {
		return Worktree{}, missing("project subfolder missing or a link")
	}
	wt.Dir = dir
	wt.Root = joinSlash(dir, wt.Subdir)
	wt.Branch = BranchName(sessionID)
	return wt, nil
}

// Remove deletes the session's worktree folder, its git registration and its
// branch (and its delegates' worktrees and branches, kept ones included),
// and releases its port block. A link standing where the folder (or
// the project-key folder) should be is removed as a link: its target is
// never touched. The branch is kept, with a GIT_FAILED error, when git
// refuses to delete it (for instance because it is checked out elsewhere).
// Removing a session that has no worktree is not an error.
func (m *Manager) Remove(ctx context.Context, projectDir, sessionID string) error {
	if err := validSessionID(sessionID); err != nil {
		return err
	}
	projectDir, err := cleanProjectDir(projectDir)
	if err != nil {
		return err
	}
	keyDir, dir, metaPath := m.paths(projectDir, sessionID)
	defer m.lock(filepath.Base(keyDir))()
	defer m.ports.Release(sessionID)
	m.removeSessionDelegates(ctx, projectDir, sessionID) // its delegates' worktrees and branches go first

	if !isRealDir(m.base) {
		return fmt.Errorf("worktree: base %s is not a real directory; nothing removed", m.base)
	}
	if fi, err := os.Lstat(keyDir); err == nil {
		if !realDirInfo(fi) {
			// The project folder of the base was swapped for a link: drop
			// the link only. Every worktree under it was unusable anyway.
			if err := os.Remove(keyDir); err != nil {
				return fmt.Errorf("worktree: remove link %s: %w", keyDir, err)
			}
		} else {
			if fi, err := os.Lstat(dir); err == nil {
				if realDirInfo(fi) {
					err = os.RemoveAll(dir) // never follows links
				} else {
					err = os.Remove(dir) // a link or junction: the link only
				}
				if err != nil {
					return fmt.Errorf("worktree: remove %s: %w", dir, err)
				}
			}
			_ = os.Remove(metaPath)
			_ = os.Remove(filepath.Join(keyDir, metaDir)) // only when empty
			_ = os.Remove(keyDir)                         // only when empty
		}
	}

	// git bookkeeping, in the project's repository, once the folder is gone
	// (so git itself deletes nothing but its own records).
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("worktree: %s reappeared during removal; git records kept", dir)
	}
	repo, err := m.repo(ctx, projectDir)
	if err != nil {
		if errs.Is(err, errs.WorktreeNotGit) || errs.Is(err, errs.ProjectNotFound) {
			return nil
		}
		return err
	}
	if _, err := m.git.Run(ctx, repo.top, "worktree", "remove", "--force", "--force", dir); err != nil && exitCode(err) < 0 {
		return err
	}
	branch := BranchName(sessionID)
	if _, err := m.git.Run(ctx, repo.top, "rev-parse", "-q", "--verify", "refs/heads/"+branch); err != nil {
		if exitCode(err) == 1 {
			return nil // no branch
		}
		return err
	}
	if _, err := m.git.Run(ctx, repo.top, "branch", "-D", branch); err != nil {
		return errs.Wrap(err, errs.GitFailed, "the worktree was removed but branch %s was kept: %s", branch, firstLines(gitStderr(err), 2)).
			With("branch", branch)
	}
	return nil
}

func readMeta(p string) (Worktree, error) {
	return readRecord(p, func(wt Worktree) string { return wt.Subdir })
}

// readRecord reads a small JSON record that must be a regular file (not a
// link planted in its place), and refuses a subdir that could climb out of
// the worktree it describes.
func readRecord[T any](p string, subdirOf func(T) string) (T, error) {
	var rec, zero T
	fi, err := os.Lstat(p)
	if err != nil {
		return zero, err
	}
	if !regularInfo(fi) || fi.Size() > 64<<10 {
		return zero, errors.New("worktree: record is not a small regular file")
	}
	data, err := readRegular(p, fi, 64<<10)
	if err != nil {
		return zero, err
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return zero, err
	}
	if sub := subdirOf(rec); sub != "" {
		for _, c := range strings.Split(sub, "/") {
			if c == "" || c == "." || c == ".." {
				return zero, errors.New("worktree: bad subdir in record")
			}
		}
	}
	return rec, nil
}

// ensureRealDir creates p (0700) when missing and insists it is a real
// directory, not a link.
func ensureRealDir(p string) error {
	if err := os.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("worktree: create %s: %w", p, err)
	}
	if !isRealDir(p) {
		return errs.New(errs.WorktreeMissing, "%s is a link or not a directory; refusing to use it", p).With("path", p)
	}
	return nil
}

// checkChain checks that every folder from dir down through the "/"-separated
// rel is a real directory.
func checkChain(dir, rel string) error {
	p := dir
	if rel != "" {
		for _, c := range strings.Split(rel, "/") {
			p = filepath.Join(p, c)
			if !isRealDir(p) {
				return fmt.Errorf("worktree: %s is not a real directory", p)
			}
		}
	}
	return nil
}

func joinSlash(dir, rel string) string {
	if rel == "" {
		return dir
	}
	return filepath.Join(dir, filepath.FromSlash(rel))
}

// relWithin returns p relative to top, "/"-separated, when p is top or below.
func relWithin(top, p string) (string, bool) {
	rel, err := filepath.Rel(top, p)
	if err != nil {
		return "", false
	}
	if (runtime.GOOS == "windows" || runtime.GOOS == "darwin") && strings.HasPrefix(rel, "..") {
		// case-insensitive volumes: compare folded, keep p's spelling
		if r2, err := filepath.Rel(strings.ToLower(top), strings.ToLower(p)); err == nil && !strings.HasPrefix(r2, "..") {
			rel = p[len(p)-len(r2):]
			if r2 == "." {
				rel = "."
			}
		}
	}
	if rel == "." {
		return "", true
	}
	if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func gitStderr(err error) string {
	var ge *GitError
	if errors.As(err, &ge) {
		return ge.Stderr
	}
	return ""
}
