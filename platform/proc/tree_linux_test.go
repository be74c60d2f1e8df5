package proc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v3/process"
)

var markerSeq atomic.Int64 // test-only counter

func newMarker(t *testing.T) string {
	return fmt.Sprintf("m%d-%d-%s", os.Getpid(), markerSeq.Add(1), strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()))
}

// markerProcs lists the live processes whose environment carries marker.
func markerProcs(t *testing.T, marker string) []int32 {
	t.Helper()
	procs, err := process.Processes()
	if err != nil {
		t.Fatalf("process scan: %v", err)
	}
	want := markerVar + "=" + marker
	var out []int32
	for _, p := range procs {
		env, err := p.Environ()
		if err != nil {
			continue // gone, or a zombie
		}
		for _, kv := range env {
			if kv == want {
				if st, err := p.Status(); err == nil && len(st) > 0 && st[0] == process.Zombie {
					break
				}
				out = append(out, p.Pid)
				break
			}
		}
	}
	return out
}

func describe(pids []int32) string {
	var b strings.Builder
	for _, pid := range pids {
		p, err := process.NewProcess(pid)
		if err != nil {
			continue
		}
		cmd, _ := p.Cmdline()
		ppid, _ := p.Ppid()
		fmt.Fprintf(&b, "\n  pid %d ppid %d: %s", pid, ppid, cmd)
	}
	return b.String()
}

func waitMarkers(t *testing.T, marker string, atLeast int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := len(markerProcs(t, marker))
		if n >= atLeast {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d marked processes came up, want >= %d", n, atLeast)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitTail waits until a marked process runs the script's last command.
func waitTail(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, pid := range markerProcs(t, marker) {
			if p, err := process.NewProcess(pid); err == nil {
				if cmd, _ := p.Cmdline(); cmd == "sleep 1001" {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the script's tail never ran:%s", describe(markerProcs(t, marker)))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func assertNoSurvivors(t *testing.T, marker string) {
	t.Helper()
	if left := markerProcs(t, marker); len(left) > 0 {
		t.Errorf("%d processes survived:%s", len(left), describe(left))
		for _, pid := range left {
			_ = syscall.Kill(int(pid), syscall.SIGKILL)
		}
	}
}

func bashSpec(script, marker string, stdout, stderr *syncBuffer) Spec {
	s := Spec{
		Path:      "bash",
		Args:      []string{"-c", script},
		Env:       append(os.Environ(), markerVar+"="+marker),
		KillGrace: 300 * time.Millisecond,
	}
	if stdout != nil {
		s.Stdout = stdout
	}
	if stderr != nil {
		s.Stderr = stderr
	}
	return s
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// treeCases start descendants that try to leave the tree. spawn runs in the
// background of the shell; want is how many marked processes must be up
// before the kill: the sleeps (bash execs its last command, so the shell
// may count as the final sleep).
var treeCases = []struct {
	name  string
	spawn string
	want  int
}{
	{"plain child", "", 1},
	{"background", "sleep 1000 &", 2},
	{"disown", "sleep 1000 & disown", 2},
	{"setsid", "setsid sh -c 'sleep 1000' &", 2},
	{"nohup", "nohup sleep 1000 >/dev/null 2>&1 &", 2},
	{"double fork", "(sh -c 'sleep 1000 &' &)", 2},
	{"holds stdout and stderr", "sleep 1000 >&1 2>&2 &", 2},
	{"closes pipes", "sleep 1000 >/dev/null 2>&1 <&- &", 2},
	{"setsid double fork holding pipes", "setsid sh -c '(sleep 1000 &) ; sleep 1000' &", 3},
	{"ignores SIGTERM", "sh -c 'trap \"\" TERM HUP; sleep 1000' &", 2},
}

// script runs spawn, reports readiness, then keeps the shell busy (keep) or
// lets it exit with the descendants still running.
func script(spawn string, keep bool) string {
	s := spawn
	if s != "" {
		s += "\n"
	}
	s += "echo ready\n"
	if keep {
		// A distinct tail: once it runs, the echo before it has written.
		s += "sleep 1001\n"
	} else {
		s += "exit 0\n"
	}
	return s
}

// treeModes are the two owners of a tree on Linux: the runner's subreaper
// alone (the fallback) and a cgroup v2 leaf with it.
var treeModes = []struct {
	name     string
	noCgroup bool
}{{"subreaper", true}, {"cgroup", false}}

// requireLeaf skips a cgroup row, saying why, on a machine where this
// session cannot create a leaf (no cgroup v2, no delegation).
func requireLeaf(t *testing.T, noCgroup bool) {
	t.Helper()
	if noCgroup {
		return
	}
	dir, err := newLeaf()
	if err != nil {
		t.Skipf("this session cannot create a cgroup v2 leaf (%v); the subreaper rows cover the fallback", err)
	}
	removeLeaf(dir)
}

func TestTreeKill(t *testing.T) {
	for _, tc := range treeCases {
		for _, mode := range treeModes {
			t.Run(tc.name+"/"+mode.name, func(t *testing.T) {
				requireLeaf(t, mode.noCgroup)
				treeKillRows(t, tc.spawn, tc.want, mode.noCgroup)
			})
		}
	}
}

func treeKillRows(t *testing.T, spawn string, want int, noCgroup bool) {
	spec := func(script, marker string, stdout, stderr *syncBuffer) Spec {
		s := bashSpec(script, marker, stdout, stderr)
		s.noCgroup = noCgroup
		return s
	}
	t.Run("abort", func(t *testing.T) {
		t.Parallel()
		marker := newMarker(t)
		var out, errb syncBuffer
		p, err := Start(t.Context(), spec(script(spawn, true), marker, &out, &errb))
		if err != nil {
			t.Fatal(err)
		}
		waitMarkers(t, marker, want)
		// The shell counts as a marked process before it echoes (a plain
		// child's count is the shell itself); what is written before the
		// kill must arrive, so the kill waits for the tail.
		waitTail(t, marker)
		_ = p.Kill()
		code, err := p.Wait()
		if !errors.Is(err, ErrKilled) {
			t.Errorf("Wait err = %v, want ErrKilled", err)
		}
		if code == 0 {
			t.Errorf("killed shell reported exit 0")
		}
		assertNoSurvivors(t, marker)
		if !strings.Contains(out.String(), "ready") {
			t.Errorf("stdout = %q", out.String())
		}
	})
	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		marker := newMarker(t)
		// The deadline passes once the tree is up: a fixed one raced a
		// loaded machine (2 cores shared by many took over 6 s to start
		// the tree) and killed a tree that never grew.
		ctx, cancel := context.WithCancelCause(t.Context())
		defer cancel(nil)
		p, err := Start(ctx, spec(script(spawn, true), marker, nil, nil))
		if err != nil {
			t.Fatal(err)
		}
		waitMarkers(t, marker, want)
		time.AfterFunc(50*time.Millisecond, func() { cancel(context.DeadlineExceeded) })
		_, err = p.Wait()
		if !errors.Is(err, ErrKilled) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Wait err = %v, want ErrKilled and DeadlineExceeded", err)
		}
		assertNoSurvivors(t, marker)
	})
	if spawn != "" {
		t.Run("shell exits first", func(t *testing.T) {
			t.Parallel()
			marker := newMarker(t)
			var out syncBuffer
			p, err := Start(t.Context(), spec(script(spawn, false), marker, &out, nil))
			if err != nil {
				t.Fatal(err)
			}
			code, err := p.Wait()
			if code != 0 || err != nil {
				t.Errorf("Wait = %d, %v; want 0, nil", code, err)
			}
			assertNoSurvivors(t, marker)
			if out.String() != "ready\n" {
				t.Errorf("stdout = %q", out.String())
			}
		})
	}
	t.Run("host crash", func(t *testing.T) {
		t.Parallel()
		marker := newMarker(t)
		host := exec.Command(os.Args[0])
		host.Env = append(os.Environ(), fakeHostEnv+"="+marker, "PI_PROC_TEST_SCRIPT="+script(spawn, true))
		if noCgroup {
			host.Env = append(host.Env, fakeHostNoCgroupEnv+"=1")
		}
		stdout, err := host.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := host.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = host.Process.Kill(); _ = host.Wait() }()
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		if line != "ready\n" {
			t.Fatalf("fake host said %q", line)
		}
		waitMarkers(t, marker, want)
		// The runner is among these: it ends only once it has killed the
		// tree, so waiting for it keeps the check below from running while
		// it still works.
		owned := descendantsOf(host.Process.Pid)
		_ = host.Process.Kill() // SIGKILL: the host gets no chance to clean up
		_ = host.Wait()
		waitPidsGone(owned, 5*time.Second)
		waitNoMarkers(t, marker)
		assertNoSurvivors(t, marker)
	})
	if !noCgroup {
		// The runner itself dies by SIGKILL: its subreaper is gone, and
		// only the leaf still holds setsid descendants (without one they
		// escape: the documented limit of the fallback).
		t.Run("runner killed", func(t *testing.T) {
			t.Parallel()
			marker := newMarker(t)
			p, err := Start(t.Context(), spec(script(spawn, true), marker, nil, nil))
			if err != nil {
				t.Fatal(err)
			}
			waitMarkers(t, marker, want)
			_ = p.cmd.Process.Kill()
			if _, err := p.Wait(); err == nil {
				t.Error("Wait after the runner died: no error")
			}
			waitNoMarkers(t, marker)
			assertNoSurvivors(t, marker)
		})
	}
}

// waitNoMarkers gives a dying tree up to 5 s to go. One empty scan is not
// enough: a scan can miss a process whose environment it cannot read at
// that instant (it is in the middle of an exec), so the tree must stay
// absent for a second scan.
func waitNoMarkers(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	empty := 0
	for empty < 2 && time.Now().Before(deadline) {
		if len(markerProcs(t, marker)) == 0 {
			empty++
		} else {
			empty = 0
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitPidsGone waits up to bound for every pid to exit (or be a zombie).
func waitPidsGone(pids []int, bound time.Duration) {
	deadline := time.Now().Add(bound)
	for _, pid := range pids {
		for time.Now().Before(deadline) {
			if _, state, ok := readStat(pid); !ok || state == 'Z' || state == 'X' {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// The shell and its descendants run in a fresh leaf, which is gone once the
// command is.
func TestCgroupLeaf(t *testing.T) {
	requireLeaf(t, false)
	var out syncBuffer
	p, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", "grep ^0:: /proc/self/cgroup; (grep ^0:: /proc/self/cgroup) & wait"}, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	leaf := p.plat.leafDir()
	if code, err := p.Wait(); code != 0 || err != nil {
		t.Fatalf("Wait = %d, %v", code, err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || lines[0] != lines[1] || !strings.HasSuffix(lines[0], "/"+filepath.Base(leaf)) || !strings.Contains(leaf, leafPrefix) {
		t.Errorf("cgroups %q, leaf %q", lines, leaf)
	}
	if _, err := os.Stat(leaf); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("leaf %s left behind: %v", leaf, err)
	}
	// Without a leaf the command stays in the host's cgroup.
	out = syncBuffer{}
	q, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", "grep ^0:: /proc/self/cgroup"}, Stdout: &out, noCgroup: true})
	if err != nil {
		t.Fatal(err)
	}
	if q.plat.leafDir() != "" {
		t.Errorf("noCgroup made a leaf")
	}
	_, _ = q.Wait()
	if strings.Contains(out.String(), leafPrefix) {
		t.Errorf("noCgroup command in a leaf: %q", out.String())
	}
}

// TestShutdown starts every case at once and kills them all concurrently,
// as app shutdown does.
func TestShutdown(t *testing.T) {
	marker := newMarker(t)
	var procs []*Process
	want := 0
	for _, tc := range treeCases {
		p, err := Start(t.Context(), bashSpec(script(tc.spawn, true), marker, nil, nil))
		if err != nil {
			t.Fatal(err)
		}
		procs = append(procs, p)
		want += tc.want
	}
	waitMarkers(t, marker, want)
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = p.Kill()
			if _, err := p.Wait(); !errors.Is(err, ErrKilled) {
				t.Errorf("Wait err = %v", err)
			}
		}()
	}
	wg.Wait()
	assertNoSurvivors(t, marker)
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   int
	}{
		{"true", 0},
		{"exit 3", 3},
		{"exit 255", 255},
		{"false", 1},
		{"kill -TERM $$", 128 + 15},
		{"kill -KILL $$", 128 + 9},
		{"nonexistent-command-xyz 2>/dev/null", 127},
	} {
		t.Run(tc.script, func(t *testing.T) {
			t.Parallel()
			p, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", tc.script}})
			if err != nil {
				t.Fatal(err)
			}
			if p.Pid() <= 0 {
				t.Errorf("Pid = %d", p.Pid())
			}
			code, err := p.Wait()
			if code != tc.want || err != nil {
				t.Errorf("Wait = %d, %v; want %d, nil", code, err, tc.want)
			}
		})
	}
}

func TestOutputDeliveredCompletely(t *testing.T) {
	t.Parallel()
	t.Run("large", func(t *testing.T) {
		var out, errb syncBuffer
		p, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", "head -c 5000000 /dev/zero | tr '\\0' a; head -c 3000000 /dev/zero | tr '\\0' b >&2"}, Stdout: &out, Stderr: &errb})
		if err != nil {
			t.Fatal(err)
		}
		if code, err := p.Wait(); code != 0 || err != nil {
			t.Fatalf("Wait = %d, %v", code, err)
		}
		if n := len(out.String()); n != 5000000 || strings.Trim(out.String(), "a") != "" {
			t.Errorf("stdout: %d bytes", n)
		}
		if n := len(errb.String()); n != 3000000 || strings.Trim(errb.String(), "b") != "" {
			t.Errorf("stderr: %d bytes", n)
		}
	})
	t.Run("background child before the shell exits", func(t *testing.T) {
		var out syncBuffer
		script := "(for i in $(seq 1 20000); do echo bg$i; done; echo bg-done) & sleep 0.05; echo fg; wait"
		p, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", script}, Stdout: &out})
		if err != nil {
			t.Fatal(err)
		}
		if code, err := p.Wait(); code != 0 || err != nil {
			t.Fatalf("Wait = %d, %v", code, err)
		}
		s := out.String()
		// "fg" may land anywhere between the child's lines: check each.
		if !strings.Contains(s, "bg20000\n") || !strings.Contains(s, "bg-done\n") || !strings.Contains(s, "fg\n") || strings.Count(s, "\n") != 20002 {
			t.Errorf("output incomplete: %d lines", strings.Count(s, "\n"))
		}
	})
	t.Run("background child writes then shell exits", func(t *testing.T) {
		var out syncBuffer
		// The child writes while the shell exits; everything written before
		// the tree is killed reaches the writer.
		script := "(echo child-start; head -c 1000000 /dev/zero | tr '\\0' c; echo; echo child-end) & wait $!; echo shell-end"
		p, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", script}, Stdout: &out})
		if err != nil {
			t.Fatal(err)
		}
		if code, err := p.Wait(); code != 0 || err != nil {
			t.Fatalf("Wait = %d, %v", code, err)
		}
		if s := out.String(); !strings.HasPrefix(s, "child-start\n") || !strings.HasSuffix(s, "child-end\nshell-end\n") || len(s) != 1000000+len("child-start\n\nchild-end\nshell-end\n") {
			t.Errorf("output: %d bytes", len(s))
		}
	})
}

func TestStdinIsDevNullAndNoTTY(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	p, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", `cat; echo "cat=$?"; test -t 0 || echo stdin-not-tty; readlink /proc/self/fd/0`}, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	if code, err := p.Wait(); code != 0 || err != nil {
		t.Fatalf("Wait = %d, %v", code, err)
	}
	if out.String() != "cat=0\nstdin-not-tty\n/dev/null\n" {
		t.Errorf("stdout = %q", out.String())
	}
}

func TestDirEnvAndFileDescriptors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var out syncBuffer
	p, err := Start(t.Context(), Spec{
		Path:   "bash",
		Args:   []string{"-c", `pwd; echo "$FOO"; ls /proc/$$/fd >"$PWD/fds"; echo $(cat "$PWD/fds")`},
		Dir:    dir,
		Env:    []string{"FOO=bar", "PATH=" + os.Getenv("PATH")},
		Stdout: &out,
	})
	if err != nil {
		t.Fatal(err)
	}
	if code, err := p.Wait(); code != 0 || err != nil {
		t.Fatalf("Wait = %d, %v", code, err)
	}
	// The shell has 0, 1 and 2 only: the status pipe is not inherited.
	want := dir + "\nbar\n0 1 2\n"
	if out.String() != want {
		t.Errorf("stdout = %q, want %q", out.String(), want)
	}
}

func TestStartErrors(t *testing.T) {
	t.Parallel()
	_, err := Start(t.Context(), Spec{Path: "/nonexistent/shell"})
	if err == nil || errors.Is(err, ErrResourceExhausted) || !errors.Is(err, syscall.ENOENT) {
		t.Errorf("missing executable: %v", err)
	}
	_, err = Start(t.Context(), Spec{Path: "bash", RunnerExe: "/nonexistent/runner"})
	if err == nil {
		t.Error("missing runner: no error")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Start(ctx, Spec{Path: "bash"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: %v", err)
	}
	if _, err := Start(t.Context(), Spec{}); err == nil {
		t.Error("empty spec: no error")
	}
}

func TestKillIdempotentAndConcurrentWait(t *testing.T) {
	t.Parallel()
	p, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", "sleep 1000"}, KillGrace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(2)
		go func() { defer wg.Done(); _ = p.Kill() }()
		go func() {
			defer wg.Done()
			if _, err := p.Wait(); !errors.Is(err, ErrKilled) {
				t.Errorf("Wait err = %v", err)
			}
		}()
	}
	wg.Wait()
	if err := p.Kill(); err != nil {
		t.Errorf("Kill after exit: %v", err)
	}
	// Kill after a normal exit does not turn it into a kill.
	q, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", "exit 4"}})
	if err != nil {
		t.Fatal(err)
	}
	code, err := q.Wait()
	_ = q.Kill()
	if code2, err2 := q.Wait(); code != 4 || err != nil || code2 != 4 || err2 != nil {
		t.Errorf("Wait = %d, %v then %d, %v", code, err, code2, err2)
	}
}

type failingWriter struct{ n atomic.Int64 }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.n.Add(int64(len(p)))
	return 0, errors.New("sink full")
}

func TestWriterErrorDoesNotBlockTheCommand(t *testing.T) {
	t.Parallel()
	w := &failingWriter{}
	p, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", "head -c 2000000 /dev/zero; exit 7"}, Stdout: w})
	if err != nil {
		t.Fatal(err)
	}
	code, err := p.Wait()
	if code != 7 || err == nil || !strings.Contains(err.Error(), "sink full") {
		t.Errorf("Wait = %d, %v", code, err)
	}
}

func TestSubreaper(t *testing.T) {
	// The runner marks itself a subreaper: a double-forked orphan's parent
	// is the runner, not init.
	t.Parallel()
	var out syncBuffer
	// The shell waits for the orphan's answer (a file), not for a time: a
	// loaded machine can take longer than any pause.
	ppidFile := filepath.Join(t.TempDir(), "ppid")
	p, err := Start(t.Context(), Spec{Path: "bash", Args: []string{"-c", `(sh -c 'sleep 0.3; ps -o ppid= -p $$ >"$0.tmp"; mv "$0.tmp" "$0"' "$F" &); while [ ! -s "$F" ]; do sleep 0.05; done; cat "$F"; echo runner=$PPID`},
		Env: append(os.Environ(), "F="+ppidFile), Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(out.String())
	if len(f) != 2 || "runner="+f[0] != f[1] {
		t.Errorf("orphan's parent vs runner: %q", out.String())
	}
}
