package shells

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
)

// DefaultProbeTimeout bounds the login-shell PATH probe.
const DefaultProbeTimeout = 5 * time.Second

// ProbeEnv is set in the probe's environment so that shell startup files can
// skip slow work when they see it.
const ProbeEnv = "PI_DESKTOP_PATH_PROBE"

const (
	probeBegin = "__PI_DESKTOP_PATH_BEGIN__"
	probeEnd   = "__PI_DESKTOP_PATH_END__"
	probeCmd   = `printf '` + probeBegin + `%s` + probeEnd + `' "$PATH"`
)

// ErrProbeClosed is the probe's error once Close has stopped it.
var ErrProbeClosed = errors.New("the PATH probe was stopped: the host is closing")

// PathProbe asks the user's login shell for its PATH (Unix), once per
// process: $SHELL, else /bin/zsh, /bin/bash, /bin/sh, run as
// `SHELL -lic 'printf …%s… "$PATH"'` under a 5 s bound. bash -lc alone reads
// only the bash profile, so PATH entries set up in ~/.zshrc or ~/.zprofile
// (nvm, pnpm, Homebrew) would be missing from a Finder/Dock launch. Best
// effort: a missing shell, a non-zero exit or a timeout yields the host PATH.
//
// No probe outlives its answer, its bound or the host: the shell and
// whatever its startup files start are killed when it has answered, when
// the bound elapses and on Close (see RunnerExe for host death).
//
// The host creates one PathProbe and shares it; the zero value is ready.
// The exported fields are read once, on the first call; set them before.
type PathProbe struct {
	// Shells replaces the candidate list (tests); nil = $SHELL, /bin/zsh,
	// /bin/bash, /bin/sh.
	Shells []string
	// Timeout bounds the probe (0 = DefaultProbeTimeout).
	Timeout time.Duration
	// Getenv reads the host environment (nil = from Env).
	Getenv func(string) string
	// GOOS ("" = runtime.GOOS); on Windows the probe is skipped.
	GOOS string
	// Env is the environment the login shell starts with (nil = this
	// process's).
	Env []string
	// RunnerExe, when set, is a binary that dispatches proc.RunnerArg: the
	// probe then runs in a process tree the runner owns, which also dies
	// with the host, even a SIGKILLed one (the runner sees its stdin
	// close). "" starts the shell directly in its own process group with a
	// parent-death signal (Linux): host death then kills the shell but not
	// what its startup files started in the background. Hosts set it; the
	// direct mode is for binaries that cannot dispatch the runner.
	RunnerExe string

	once   sync.Once
	result ProbeResult

	mu     sync.Mutex
	closed bool
	stop   context.CancelCauseFunc
	done   chan struct{}
}

// ProbeResult is the outcome of the probe.
type ProbeResult struct {
	// PATH is the login shell's PATH, or the host PATH when the probe failed.
	PATH string
	// Shell is the shell that answered ("" when PATH is the host's).
	Shell string
	// Err says why the probe fell back to the host PATH (nil on success).
	Err error
}

// PATH returns the login-shell PATH (or the host PATH).
func (p *PathProbe) PATH() string { return p.Result().PATH }

// Start runs the probe in the background, so that the first command does
// not wait for it.
func (p *PathProbe) Start() { go p.Result() }

// Result runs the probe on the first call and returns the cached outcome.
// Concurrent callers wait for the same probe, never longer than its bound.
func (p *PathProbe) Result() ProbeResult {
	p.once.Do(func() {
		ctx, ok := p.begin()
		if !ok {
			p.result = ProbeResult{PATH: p.getenv()("PATH"), Err: ErrProbeClosed}
			return
		}
		defer p.end()
		p.result = p.run(ctx)
	})
	return p.result
}

// Close stops a running probe and returns once its process tree is gone;
// the probe then answers the host PATH. Safe to call more than once, and
// before the probe ever ran (it then never runs).
func (p *PathProbe) Close() {
	p.mu.Lock()
	p.closed = true
	stop, done := p.stop, p.done
	p.mu.Unlock()
	if stop != nil {
		stop(ErrProbeClosed)
		<-done
	}
}

func (p *PathProbe) begin() (context.Context, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, false
	}
	ctx, stop := context.WithCancelCause(context.Background())
	p.stop, p.done = stop, make(chan struct{})
	return ctx, true
}

func (p *PathProbe) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop(nil)
	close(p.done)
}

func (p *PathProbe) getenv() func(string) string {
	switch {
	case p.Getenv != nil:
		return p.Getenv
	case p.Env != nil:
		return func(k string) string { return lookupEnv(p.Env, k) }
	}
	return os.Getenv
}

// lookupEnv is os.Getenv over an environment list (the last entry wins, as
// in exec).
func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

func (p *PathProbe) run(ctx context.Context) ProbeResult {
	getenv := p.getenv()
	hostPATH := getenv("PATH")
	goos := p.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	if goos == "windows" {
		return ProbeResult{PATH: hostPATH, Err: errors.New("no login-shell probe on Windows")}
	}
	candidates := p.Shells
	if candidates == nil {
		if sh := getenv("SHELL"); sh != "" {
			candidates = append(candidates, sh)
		}
		candidates = append(candidates, "/bin/zsh", "/bin/bash", "/bin/sh")
	}
	shell := ""
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0 {
			shell = c
			break
		}
	}
	if shell == "" {
		return ProbeResult{PATH: hostPATH, Err: fmt.Errorf("no login shell found (tried %s)", strings.Join(candidates, ", "))}
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("timed out after %v", timeout))
	defer cancel()
	env := p.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(env[:len(env):len(env)], ProbeEnv+"=1")
	out := &tailBuffer{max: maxProbeOutput}
	var err error
	if p.RunnerExe != "" {
		err = probeInTree(ctx, p.RunnerExe, shell, env, out)
	} else {
		err = probeDirect(ctx, shell, env, out)
	}
	if err == nil {
		var path string
		if path, err = parseProbe(out.String()); err == nil {
			return ProbeResult{PATH: path, Shell: shell}
		}
	}
	return ProbeResult{PATH: hostPATH, Err: fmt.Errorf("login-shell PATH probe with %s: %w", shell, err)}
}

// maxProbeOutput bounds what the probe keeps of the shell's output: the
// tail, where the PATH is printed after whatever the startup files print.
const maxProbeOutput = 256 << 10

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 2*t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b[max(0, len(t.b)-t.max):])
}

func parseProbe(s string) (string, error) {
	i := strings.LastIndex(s, probeBegin)
	if i < 0 {
		return "", errors.New("no PATH in the output")
	}
	s = s[i+len(probeBegin):]
	j := strings.Index(s, probeEnd)
	if j < 0 {
		return "", errors.New("truncated PATH in the output")
	}
	path := s[:j]
	if strings.TrimSpace(path) == "" || strings.ContainsAny(path, "\x00\n\r") {
		return "", fmt.Errorf("unusable PATH %q", path)
	}
	return path, nil
}
