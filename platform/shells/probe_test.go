//go:build !windows

package shells

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func fakeShell(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fakesh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n[ \"$FAKESH_WARMUP\" = 1 ] && exit 0\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A process forked by a parallel test while the file was open for
	// writing keeps that descriptor until it execs, and exec of the script
	// then fails with ETXTBSY ("text file busy"). Run it once, doing nothing,
	// until that window has passed.
	for i := 0; ; i++ {
		cmd := exec.Command(p)
		cmd.Env = []string{"FAKESH_WARMUP=1"}
		err := cmd.Run()
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.ETXTBSY) || i == 100 {
			t.Fatalf("the fake shell does not run: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return p
}

func hostEnv(kv ...string) func(string) string {
	m := map[string]string{"PATH": "/host/bin:/usr/bin"}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// answering is a login shell whose startup files print noise and set PATH;
// it then runs the probe command it was given (-lic CMD: CMD is $2).
const answering = `echo "Welcome to fakesh" ; printf 'motd without newline'
PATH=/login/bin:/opt/homebrew/bin:/usr/bin; export PATH
[ "$1" = "-lic" ] || exit 9
[ "$PI_DESKTOP_PATH_PROBE" = 1 ] || exit 8
exec /bin/sh -c "$2"`

func TestPathProbe(t *testing.T) {
	t.Parallel()
	t.Run("answers", func(t *testing.T) {
		t.Parallel()
		sh := fakeShell(t, answering)
		p := &PathProbe{Shells: []string{"/nonexistent/zsh", sh}, Getenv: hostEnv()}
		r := p.Result()
		if r.PATH != "/login/bin:/opt/homebrew/bin:/usr/bin" || r.Shell != sh || r.Err != nil {
			t.Errorf("Result = %+v", r)
		}
	})
	t.Run("$SHELL first", func(t *testing.T) {
		t.Parallel()
		sh := fakeShell(t, answering)
		p := &PathProbe{Getenv: hostEnv("SHELL", sh)}
		if r := p.Result(); r.Shell != sh || r.PATH != "/login/bin:/opt/homebrew/bin:/usr/bin" {
			t.Errorf("Result = %+v", r)
		}
	})
	for _, tc := range []struct{ name, body, errHas string }{
		{"non-zero exit", "echo PATH=/bad; exit 3", "exit status 3"},
		{"no PATH printed", "exit 0", "no PATH"},
		{"empty PATH", "PATH= exec /bin/sh -c \"$2\"", "unusable PATH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := &PathProbe{Shells: []string{fakeShell(t, tc.body)}, Getenv: hostEnv()}
			r := p.Result()
			if r.PATH != "/host/bin:/usr/bin" || r.Shell != "" || r.Err == nil || !strings.Contains(r.Err.Error(), tc.errHas) {
				t.Errorf("Result = %+v, want the host PATH and an error with %q", r, tc.errHas)
			}
		})
	}
	t.Run("no shell at all", func(t *testing.T) {
		t.Parallel()
		p := &PathProbe{Shells: []string{"/nonexistent/a", t.TempDir()}, Getenv: hostEnv()}
		if r := p.Result(); r.PATH != "/host/bin:/usr/bin" || r.Err == nil {
			t.Errorf("Result = %+v", r)
		}
	})
	t.Run("windows skips the probe", func(t *testing.T) {
		t.Parallel()
		p := &PathProbe{GOOS: "windows", Shells: []string{fakeShell(t, answering)}, Getenv: hostEnv()}
		if p.PATH() != "/host/bin:/usr/bin" {
			t.Errorf("PATH = %q", p.PATH())
		}
	})
	for _, tc := range []struct {
		name    string
		timeout time.Duration
	}{{"hangs: custom bound", 300 * time.Millisecond}, {"hangs: default 5 s bound", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A startup file that never returns, with a helper holding stdout.
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "helper.pid")
			sh := fakeShell(t, "sleep 1000 & echo $! >"+pidFile+"\nsleep 1000")
			p := &PathProbe{Shells: []string{sh}, Getenv: hostEnv(), Timeout: tc.timeout}
			bound := tc.timeout
			if bound == 0 {
				bound = DefaultProbeTimeout
			}
			start := time.Now()
			r := p.Result()
			took := time.Since(start)
			if r.PATH != "/host/bin:/usr/bin" || r.Err == nil || !strings.Contains(r.Err.Error(), "timed out") {
				t.Errorf("Result = %+v", r)
			}
			if took < bound || took > bound+2*time.Second {
				t.Errorf("probe took %v, bound %v", took, bound)
			}
			// The helper was killed with the probe's process group.
			b, _ := os.ReadFile(pidFile)
			if pid := strings.TrimSpace(string(b)); pid != "" {
				deadline := time.Now().Add(2 * time.Second)
				for {
					st, err := os.ReadFile("/proc/" + pid + "/stat")
					if err != nil || strings.Contains(string(st), ") Z ") {
						break
					}
					if time.Now().After(deadline) {
						t.Errorf("helper %s survived the probe", pid)
						break
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	t.Run("cached once per probe, concurrently", func(t *testing.T) {
		t.Parallel()
		count := filepath.Join(t.TempDir(), "count")
		sh := fakeShell(t, "echo x >>"+count+"\n"+answering)
		p := &PathProbe{Shells: []string{sh}, Getenv: hostEnv()}
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if p.PATH() != "/login/bin:/opt/homebrew/bin:/usr/bin" {
					t.Error("wrong PATH")
				}
			}()
		}
		wg.Wait()
		b, _ := os.ReadFile(count)
		if strings.Count(string(b), "x") != 1 {
			t.Errorf("probe ran %d times", strings.Count(string(b), "x"))
		}
	})
}
