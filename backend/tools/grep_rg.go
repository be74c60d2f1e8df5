package tools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// rgProbeWait bounds how long a Grep waits for the login-shell PATH probe
// before searching with the builtin engine; the probe keeps running and a
// later Grep uses its answer.
const rgProbeWait = 250 * time.Millisecond

// rgFinder finds the rg binary for Grep when none is configured: on the
// app's PATH, else (Unix) on the login shell's PATH (decisions.md "Grep",
// spec §4), since an app started from the Finder or the Dock has a PATH
// without Homebrew's or a version manager's directories. The login PATH
// comes from the shared probe, asked once in the background and cached.
type rgFinder struct {
	probe *shells.PathProbe // nil: the app's PATH only
	wait  time.Duration

	once  sync.Once
	ready chan struct{} // closed when login is known
	login string        // rg on the login PATH, "" when not there
}

func newRgFinder(probe *shells.PathProbe) *rgFinder {
	return &rgFinder{probe: probe, wait: rgProbeWait, ready: make(chan struct{})}
}

// find returns the rg to run, or "-" for the builtin engine.
func (f *rgFinder) find(ctx context.Context) string {
	if p, err := exec.LookPath("rg"); err == nil {
		return p
	}
	if f == nil || f.probe == nil || runtime.GOOS == "windows" {
		return "-"
	}
	f.once.Do(func() {
		go func() {
			f.login = lookIn("rg", f.probe.PATH())
			close(f.ready)
		}()
	})
	timer := time.NewTimer(f.wait)
	defer timer.Stop()
	select {
	case <-f.ready:
		if f.login != "" {
			return f.login
		}
	case <-timer.C: // not known yet: this search is the builtin engine's
	case <-ctx.Done():
	}
	return "-"
}

// lookIn finds an executable regular file named name in one of the
// absolute directories of path (a PATH value).
func lookIn(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue // a relative entry would depend on the search root
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}
