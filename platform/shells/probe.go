package shells

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
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
)

// PathProbe asks the user's login shell for its PATH (Unix), once per
// process: $SHELL, else /bin/zsh, /bin/bash, /bin/sh, run as
// `SHELL -lic 'printf …%s… "$PATH"'` under a 5 s bound. bash -lc alone reads
// only the bash profile, so PATH entries set up in ~/.zshrc or ~/.zprofile
// (nvm, pnpm, Homebrew) would be missing from a Finder/Dock launch. Best
// effort: a missing shell, a non-zero exit or a timeout yields the host PATH.
//
// The host creates one PathProbe and shares it; the zero value is ready.
// The exported fields are read once, on the first call; set them before.
type PathProbe struct {
	// Shells replaces the candidate list (tests); nil = $SHELL, /bin/zsh,
	// /bin/bash, /bin/sh.
	Shells []string
	// Timeout bounds the probe (0 = DefaultProbeTimeout).
	Timeout time.Duration
	// Getenv reads the host environment (nil = os.Getenv).
	Getenv func(string) string
	// GOOS ("" = runtime.GOOS); on Windows the probe is skipped.
	GOOS string

	once   sync.Once
	result ProbeResult
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

// Result runs the probe on the first call and returns the cached outcome.
func (p *PathProbe) Result() ProbeResult {
	p.once.Do(func() { p.result = p.run() })
	return p.result
}

func (p *PathProbe) run() ProbeResult {
	getenv := p.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
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
	path, err := probeShell(shell, timeout)
	if err != nil {
		return ProbeResult{PATH: hostPATH, Err: fmt.Errorf("login-shell PATH probe with %s: %w", shell, err)}
	}
	return ProbeResult{PATH: path, Shell: shell}
}

func probeShell(shell string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, "-lic", `printf '`+probeBegin+`%s`+probeEnd+`' "$PATH"`)
	cmd.Env = append(os.Environ(), ProbeEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout = &out // stdin stays /dev/null; stderr is discarded
	setProbeGroup(cmd)
	// Startup files may leave children holding the pipe: do not wait for them.
	cmd.WaitDelay = 500 * time.Millisecond
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", fmt.Errorf("timed out after %v", timeout)
	}
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return "", err
	}
	s := out.String()
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
