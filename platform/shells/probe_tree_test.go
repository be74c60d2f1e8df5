//go:build !windows

package shells

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err != nil || !strings.Contains(string(st), ") Z ")
}

// readPid waits for a pid file the fake shell writes.
func readPid(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("%s: %q", path, b)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was never written", path)
		}
	}
}

// waitGone waits (bounded) for every pid to end.
func waitGone(t *testing.T, what string, within time.Duration, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(within)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Errorf("%s: process %d is still alive", what, pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// selfExe is this test binary, which dispatches the runner (TestMain).
func selfExe(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// spawning is a startup file that starts helpers, one in the shell's
// process group and, with setsid, one in a session of its own (as an
// interactive shell with job control does with its jobs), writes their
// pids and its own, then does what rest says.
func spawning(dir string, setsid bool, rest string) string {
	s := "echo $$ >" + dir + "/shell.pid\nsleep 300 & echo $! >" + dir + "/child.pid\n"
	if setsid {
		s += "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! >" + dir + "/setsid.pid\n"
	}
	return s + rest
}

func pidsIn(t *testing.T, dir string, setsid bool) []int {
	t.Helper()
	pids := []int{readPid(t, dir+"/shell.pid"), readPid(t, dir+"/child.pid")}
	if setsid {
		pids = append(pids, readPid(t, dir+"/setsid.pid"))
	}
	return pids
}

// probeModes are the two ways a probe runs: owned by the runner, and
// directly in its own process group. The direct mode cannot follow a
// helper that leaves the group (setsid).
type probeMode struct {
	name   string
	runner string
	setsid bool
}

func probeModes(t *testing.T) []probeMode {
	return []probeMode{{"runner", selfExe(t), true}, {"direct", "", false}}
}

// A probe that answers leaves nothing behind: what the startup files
// started dies with it.
func TestPathProbeAnswersAndLeavesNothing(t *testing.T) {
	t.Parallel()
	for _, m := range probeModes(t) {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			sh := fakeShell(t, spawning(dir, m.setsid, answering))
			p := &PathProbe{Shells: []string{sh}, Getenv: hostEnv(), RunnerExe: m.runner}
			r := p.Result()
			if r.PATH != "/login/bin:/opt/homebrew/bin:/usr/bin" || r.Err != nil {
				t.Fatalf("Result = %+v", r)
			}
			pids := pidsIn(t, dir, m.setsid)
			// The answer is in: killing the tree is part of the probe, so
			// no wait is needed beyond the kernel's delivery.
			waitGone(t, "after the answer", 3*time.Second, pids...)
		})
	}
}

// A probe that hangs past its bound is killed with everything it started,
// and a caller waits no longer than the bound (plus the kill).
func TestPathProbeBoundKillsTheTree(t *testing.T) {
	t.Parallel()
	for _, m := range probeModes(t) {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			sh := fakeShell(t, spawning(dir, m.setsid, "sleep 300"))
			p := &PathProbe{Shells: []string{sh}, Getenv: hostEnv(), RunnerExe: m.runner, Timeout: 3 * time.Second}
			r := p.Result() // long enough for the shell to start under load
			if r.PATH != "/host/bin:/usr/bin" || r.Err == nil || !strings.Contains(r.Err.Error(), "timed out after 3s") {
				t.Fatalf("Result = %+v", r)
			}
			waitGone(t, "after the bound", 3*time.Second, pidsIn(t, dir, m.setsid)...)
		})
	}
}

// Close stops a running probe: once it returns, neither the shell nor what
// its startup files started is alive, and the probe answers the host PATH.
func TestPathProbeClose(t *testing.T) {
	t.Parallel()
	for _, m := range probeModes(t) {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			sh := fakeShell(t, spawning(dir, m.setsid, "sleep 300"))
			p := &PathProbe{Shells: []string{sh}, Getenv: hostEnv(), RunnerExe: m.runner, Timeout: time.Hour}
			p.Start()
			pids := pidsIn(t, dir, m.setsid)
			p.Close()
			for _, pid := range pids[:2] { // the direct mode's group, the runner's whole tree
				if alive(pid) {
					t.Errorf("process %d outlived Close", pid)
				}
			}
			waitGone(t, "after Close", 3*time.Second, pids...)
			if r := p.Result(); r.PATH != "/host/bin:/usr/bin" || !errors.Is(r.Err, ErrProbeClosed) {
				t.Errorf("Result after Close = %+v", r)
			}
			p.Close() // idempotent
		})
	}
	t.Run("before it ran", func(t *testing.T) {
		t.Parallel()
		count := filepath.Join(t.TempDir(), "count")
		p := &PathProbe{Shells: []string{fakeShell(t, "echo x >>"+count+"\n"+answering)}, Getenv: hostEnv()}
		p.Close()
		if r := p.Result(); !errors.Is(r.Err, ErrProbeClosed) || r.PATH != "/host/bin:/usr/bin" {
			t.Errorf("Result = %+v", r)
		}
		if _, err := os.Stat(count); err == nil {
			t.Error("a closed probe ran its shell")
		}
	})
}

// No probe outlives a host that dies, even by SIGKILL: the runner sees its
// stdin close and kills the tree. Without the runner the parent-death
// signal (Linux) kills the shell; what it started in its group survives,
// which is why hosts use the runner.
func TestPathProbeDiesWithTheHost(t *testing.T) {
	t.Parallel()
	modes := probeModes(t)
	if !deathSignal {
		modes = modes[:1] // the direct mode has no parent-death signal here
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			sh := fakeShell(t, spawning(dir, m.setsid, "sleep 300"))
			host := exec.Command(selfExe(t))
			host.Env = append(os.Environ(), fmt.Sprintf("%s=%s:%s", probeHostEnv, m.name, sh))
			if err := host.Start(); err != nil {
				t.Fatal(err)
			}
			pids := pidsIn(t, dir, m.setsid)
			_ = host.Process.Kill()
			_ = host.Wait()
			if m.runner == "" {
				waitGone(t, "after the host died", 10*time.Second, pids[0])
				_ = syscall.Kill(pids[1], syscall.SIGKILL)
				return
			}
			waitGone(t, "after the host died", 10*time.Second, pids...)
		})
	}
}

// A probe killed at its bound lets the startup files clean up first: pyenv
// rehash holds a lock file while it runs and removes it from an EXIT trap;
// a SIGKILL leaves it behind, and every later login shell (each Bash call's
// `bash -lc` too) then waits pyenv's 60 s for it.
func TestPathProbeLetsStartupFilesCleanUp(t *testing.T) {
	t.Parallel()
	for _, m := range probeModes(t) {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			lock, started := filepath.Join(dir, "rehash.lock"), filepath.Join(dir, "started")
			profile := filepath.Join(dir, "profile.bash")
			script := "trap 'rm -f " + lock + "' EXIT\n: >" + lock + "\n: >" + started + "\nsleep 300\n"
			if err := os.WriteFile(profile, []byte(script), 0o644); err != nil {
				t.Fatal(err)
			}
			sh := fakeShell(t, "exec /bin/bash "+profile)
			p := &PathProbe{Shells: []string{sh}, Getenv: hostEnv(), RunnerExe: m.runner, Timeout: 3 * time.Second}
			if r := p.Result(); r.Err == nil {
				t.Fatalf("Result = %+v", r)
			}
			if _, err := os.Stat(started); err != nil {
				t.Fatal("the startup file never ran")
			}
			if _, err := os.Stat(lock); err == nil {
				t.Error("the probe was killed before its startup file could remove its lock")
			}
		})
	}
}
