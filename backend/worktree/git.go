package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Defaults for Git.
const (
	DefaultGitTimeout   = 60 * time.Second
	DefaultGitMaxOutput = 32 << 20 // bytes of stdout per call
	maxStderr           = 64 << 10 // stderr kept per call (the tail is dropped)
)

// Git runs hardened git commands. Every git command the host runs goes
// through it (worktrees, merges, and any workspace diff collector), so that a
// repository, or the environment the app was started from, cannot make the
// host run code or look at another repository:
//
//   - repository hooks are disabled: core.hooksPath points at HooksDir, an
//     empty directory the host owns (checked before every call);
//   - core.fsmonitor (and the older core.useBuiltinFSMonitor) is off;
//   - diff, log and show get --no-ext-diff and --no-textconv, blame gets
//     --no-textconv, so external diff and textconv helpers never run;
//   - the hardening options come after any global options of the caller, so
//     a later -c cannot undo them, and --git-dir, --work-tree, --exec-path,
//     --namespace and --config-env are refused;
//   - the environment is scrubbed of every GIT_* variable (GIT_DIR,
//     GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
//     GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_CONFIG*, GIT_EXEC_PATH, GIT_SSH*,
//     GIT_ASKPASS, GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_TRACE*, …) except the
//     author/committer identity, plus SSH_ASKPASS; GIT_TERMINAL_PROMPT=0,
//     GIT_OPTIONAL_LOCKS=0 and LC_ALL=C (stable messages) are set;
//   - stdin is empty, every call has a timeout (the whole process group is
//     killed on Unix), and stdout/stderr are bounded.
//
// Repository configuration the user chose (filters such as git-lfs, merge
// drivers, signing) is otherwise honoured. A Git is safe for concurrent use.
type Git struct {
	// Path is the git executable; "" looks "git" up on PATH at each call.
	Path string
	// HooksDir is an absolute path to an empty directory the host owns;
	// NewGit creates it. A call fails when it is missing, a link, or not empty.
	HooksDir string
	// Timeout bounds each call; 0 means DefaultGitTimeout.
	Timeout time.Duration
	// MaxOutput bounds the stdout of Run; 0 means DefaultGitMaxOutput.
	MaxOutput int
}

// NewGit returns a Git whose hooks directory is hooksDir, created (0700) when
// missing. hooksDir must be absolute and host-owned, e.g. <data>/git/empty-hooks.
func NewGit(hooksDir string) (*Git, error) {
	if !filepath.IsAbs(hooksDir) {
		return nil, fmt.Errorf("worktree: hooks dir %q is not absolute", hooksDir)
	}
	if err := os.MkdirAll(hooksDir, 0o700); err != nil {
		return nil, fmt.Errorf("worktree: create hooks dir: %w", err)
	}
	g := &Git{HooksDir: filepath.Clean(hooksDir)}
	if err := g.checkHooksDir(); err != nil {
		return nil, err
	}
	return g, nil
}

// GitError is a git command that ran and exited non-zero.
type GitError struct {
	Args     []string // the caller's arguments (without the hardening options)
	ExitCode int
	Stderr   string // bounded
}

func (e *GitError) Error() string {
	return fmt.Sprintf("git %s: exit %d: %s", strings.Join(e.Args, " "), e.ExitCode, firstLines(e.Stderr, 3))
}

// exitCode returns the exit code of a *GitError in err's chain, or -1.
func exitCode(err error) int {
	var ge *GitError
	if errors.As(err, &ge) {
		return ge.ExitCode
	}
	return -1
}

// Run runs git with args in dir and returns its stdout. A non-zero exit is an
// *errs.Error with code GIT_FAILED whose cause is a *GitError; a missing git
// is GIT_NOT_FOUND, a timeout GIT_TIMEOUT, stdout over MaxOutput GIT_FAILED.
func (g *Git) Run(ctx context.Context, dir string, args ...string) (string, error) {
	limit := g.MaxOutput
	if limit <= 0 {
		limit = DefaultGitMaxOutput
	}
	out, truncated, err := g.run(ctx, dir, limit, nil, nil, args)
	if err != nil {
		return out, err
	}
	if truncated {
		return "", errs.New(errs.GitFailed, "git %s produced more than %d bytes of output", subcommand(args), limit)
	}
	return out, nil
}

// RunTruncated is Run with stdout cut at limit bytes instead of failing; the
// command still runs to its end (or its timeout). truncated reports the cut.
func (g *Git) RunTruncated(ctx context.Context, dir string, limit int, args ...string) (out string, truncated bool, err error) {
	if limit <= 0 {
		limit = DefaultGitMaxOutput
	}
	return g.run(ctx, dir, limit, nil, nil, args)
}

// runEnv is Run with extra "KEY=value" entries set after the scrub: only
// for the host's own values (a temporary index, the PI-Desktop identity),
// never for anything a repository or the agent chose.
func (g *Git) runEnv(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	limit := g.MaxOutput
	if limit <= 0 {
		limit = DefaultGitMaxOutput
	}
	out, truncated, err := g.run(ctx, dir, limit, env, nil, args)
	if err == nil && truncated {
		return "", errs.New(errs.GitFailed, "git %s produced more than %d bytes of output", subcommand(args), limit)
	}
	return out, err
}

// Invocation is what RunWith adds to a hardened call: the host's own
// environment entries (set after the scrub, so only the caller's values
// count: a shadow repository's GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE,
// never anything a repository or the agent chose), standard input, and a
// stdout bound (0 = MaxOutput).
type Invocation struct {
	Dir   string
	Env   []string
	Stdin io.Reader
	Limit int
}

// RunWith is Run with an Invocation's environment and standard input.
func (g *Git) RunWith(ctx context.Context, inv Invocation, args ...string) (string, error) {
	limit := inv.Limit
	if limit <= 0 {
		limit = g.MaxOutput
	}
	if limit <= 0 {
		limit = DefaultGitMaxOutput
	}
	out, truncated, err := g.run(ctx, inv.Dir, limit, inv.Env, inv.Stdin, args)
	if err == nil && truncated {
		return "", errs.New(errs.GitFailed, "git %s produced more than %d bytes of output", subcommand(args), limit)
	}
	return out, err
}

func (g *Git) run(ctx context.Context, dir string, limit int, env []string, stdin io.Reader, args []string) (string, bool, error) {
	full, err := g.hardenArgs(args)
	if err != nil {
		return "", false, err
	}
	if err := g.checkHooksDir(); err != nil {
		return "", false, err
	}
	path := g.Path
	if path == "" {
		p, err := exec.LookPath("git")
		if err != nil {
			return "", false, errs.Wrap(err, errs.GitNotFound, "git was not found on PATH; install git (Git for Windows on Windows) and restart PI-Desktop")
		}
		path = p
	}
	timeout := g.Timeout
	if timeout <= 0 {
		timeout = DefaultGitTimeout
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.CommandContext(ctx, path, full...)
	cmd.Dir = dir
	cmd.Env = append(scrubEnv(os.Environ()), env...)
	cmd.Stdin = stdin // nil: os/exec connects the null device
	stdout := &capWriter{limit: limit}
	stderr := &capWriter{limit: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 2 * time.Second
	setProcAttr(cmd)

	runErr := cmd.Run()
	out := stdout.buf.String()
	if runErr != nil && ctx.Err() != nil {
		if pErr := parent.Err(); pErr != nil {
			return out, stdout.truncated, fmt.Errorf("git %s: %w", subcommand(args), pErr)
		}
		return out, stdout.truncated, errs.Wrap(runErr, errs.GitTimeout, "git %s did not finish within %s", subcommand(args), timeout)
	}
	if runErr != nil {
		var ee *exec.ExitError
		if errors.As(runErr, &ee) && ee.ExitCode() >= 0 {
			ge := &GitError{Args: append([]string(nil), args...), ExitCode: ee.ExitCode(), Stderr: stderr.buf.String()}
			return out, stdout.truncated, errs.Wrap(ge, errs.GitFailed, "git %s failed: %s", subcommand(args), firstLines(ge.Stderr, 3)).
				With("exitCode", ge.ExitCode)
		}
		if errors.Is(runErr, exec.ErrNotFound) || errors.Is(runErr, os.ErrNotExist) {
			return out, false, errs.Wrap(runErr, errs.GitNotFound, "git could not be started from %s; install git and restart PI-Desktop", path)
		}
		return out, false, fmt.Errorf("git %s: %w", subcommand(args), runErr)
	}
	return out, stdout.truncated, nil
}

// refusedGlobal reports whether a is a global option that would point git at
// another repository or program; host code never needs one.
func refusedGlobal(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	switch name {
	case "--git-dir", "--work-tree", "--exec-path", "--namespace", "--config-env", "--super-prefix", "--list-cmds":
		return true
	}
	return false
}

// hardenArgs returns the full argument list: the caller's global options,
// then the hardening options, then the subcommand with its diff flags.
func (g *Git) hardenArgs(args []string) ([]string, error) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		a := args[i]
		if refusedGlobal(a) {
			return nil, fmt.Errorf("worktree: git global option %s is not allowed", a)
		}
		if a == "-c" || a == "-C" {
			i += 2
		} else {
			i++
		}
	}
	if i >= len(args) {
		return nil, fmt.Errorf("worktree: git called without a subcommand")
	}
	full := make([]string, 0, len(args)+16)
	full = append(full, args[:i]...)
	full = append(full,
		"-c", "core.hooksPath="+g.HooksDir,
		"-c", "core.fsmonitor=false",
		"-c", "core.useBuiltinFSMonitor=false",
		"-c", "core.pager=cat",
		"-c", "color.ui=false",
		"-c", "merge.autoStash=false",
		"-c", "rebase.autoStash=false",
		"--no-pager",
	)
	sub := args[i]
	full = append(full, sub)
	switch sub {
	case "diff", "log", "show":
		full = append(full, "--no-ext-diff", "--no-textconv")
	case "blame":
		full = append(full, "--no-textconv")
	}
	return append(full, args[i+1:]...), nil
}

func (g *Git) checkHooksDir() error {
	if g.HooksDir == "" || !filepath.IsAbs(g.HooksDir) {
		return fmt.Errorf("worktree: Git.HooksDir must be an absolute path to an empty directory")
	}
	if !isRealDir(g.HooksDir) {
		return fmt.Errorf("worktree: hooks dir %s is not a real directory", g.HooksDir)
	}
	f, err := os.Open(g.HooksDir)
	if err != nil {
		return fmt.Errorf("worktree: hooks dir: %w", err)
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	if err != nil && err != io.EOF {
		return fmt.Errorf("worktree: hooks dir: %w", err)
	}
	if len(names) > 0 {
		return fmt.Errorf("worktree: hooks dir %s must be empty (found %q)", g.HooksDir, names[0])
	}
	return nil
}

// keptGitVar reports the only GIT_* variables passed to git: identity, which
// cannot redirect git or run anything.
func keptGitVar(k string) bool {
	switch k {
	case "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL":
		return true
	}
	return false
}

// scrubEnv drops every GIT_* variable except identity, SSH_ASKPASS and the
// locale overrides, and sets the variables the host needs.
func scrubEnv(env []string) []string {
	out := make([]string, 0, len(env)+4)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "" { // Windows per-drive cwd entries ("=C:=C:\\x")
			out = append(out, kv)
			continue
		}
		uk := k
		if runtime.GOOS == "windows" {
			uk = strings.ToUpper(k)
		}
		switch {
		case strings.HasPrefix(uk, "GIT_") && !keptGitVar(uk):
			continue
		case uk == "SSH_ASKPASS", uk == "LC_ALL", uk == "LANGUAGE", uk == "PAGER":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
}

// capWriter keeps the first limit bytes and counts the rest.
type capWriter struct {
	buf       bytes.Buffer
	limit     int
	truncated bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.limit - w.buf.Len(); room > 0 {
		if len(p) > room {
			w.buf.Write(p[:room])
			w.truncated = true
		} else {
			w.buf.Write(p)
		}
	} else if len(p) > 0 {
		w.truncated = true
	}
	return len(p), nil
}

func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-c" || a == "-C" {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return "(none)"
}

func firstLines(s string, n int) string {
	s = strings.TrimSpace(s)
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return truncate.BytesEllipsis(strings.Join(lines, "; "), 500)
}
