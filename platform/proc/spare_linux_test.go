package proc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitIdle waits for the spare's background start to leave a runner
// waiting, and returns its pid.
func waitIdle(t *testing.T, sp *Spare) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		sp.mu.Lock()
		r, filling := sp.idle, sp.filled != nil
		sp.mu.Unlock()
		if r != nil {
			return r.cmd.Process.Pid
		}
		if !filling {
			t.Fatal("no spare runner is waiting or starting")
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the spare runner did not start")
	return 0
}

// runEcho runs a command through sp and returns the pid of its runner.
func runEcho(t *testing.T, sp *Spare, spec Spec) int {
	t.Helper()
	var buf bytes.Buffer
	spec.Path, spec.Args, spec.Stdout = "/bin/sh", []string{"-c", "echo $PPID; echo ok"}, &buf
	p, err := sp.Start(t.Context(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if code, err := p.Wait(); code != 0 || err != nil {
		t.Fatalf("Wait = %d, %v", code, err)
	}
	lines := strings.Fields(buf.String())
	if len(lines) != 2 || lines[1] != "ok" {
		t.Fatalf("output %q", buf.String())
	}
	pid, err := strconv.Atoi(lines[0])
	if err != nil {
		t.Fatalf("output %q", buf.String())
	}
	return pid
}

// TestSpareRunsTheNextCommandOnTheWaitingRunner: the first command starts
// as Start does; the next runs on the runner started meanwhile, and a new
// spare follows it. Close ends the waiting runner.
func TestSpareRunsTheNextCommandOnTheWaitingRunner(t *testing.T) {
	sp := NewSpare("")
	defer sp.Close()
	runEcho(t, sp, Spec{})
	spare := waitIdle(t, sp)
	if runner := runEcho(t, sp, Spec{}); runner != spare {
		t.Errorf("the command's runner is %d, not the spare %d", runner, spare)
	}
	next := waitIdle(t, sp)
	if next == spare {
		t.Fatal("the used runner is still the spare")
	}
	sp.Close()
	if err := syscall.Kill(next, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the spare runner %d outlived Close (kill 0: %v)", next, err)
	}
	// Closed: commands still start, without a spare.
	runEcho(t, sp, Spec{})
	sp.mu.Lock()
	idle, filling := sp.idle, sp.filled != nil
	sp.mu.Unlock()
	if idle != nil || filling {
		t.Error("a closed Spare started another runner")
	}
}

// TestSpareLeavesWhatItCannotServeToStart: a command with its own stdin
// pipe or another runner binary never takes the spare.
func TestSpareLeavesWhatItCannotServeToStart(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sp := NewSpare("")
	defer sp.Close()
	runEcho(t, sp, Spec{})
	spare := waitIdle(t, sp)
	if runner := runEcho(t, sp, Spec{RunnerExe: self}); runner == spare {
		t.Error("a command naming its own runner binary took the spare")
	}
	p, err := sp.Start(t.Context(), Spec{Path: "/bin/cat", StdinPipe: true})
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Stdin().Close()
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := waitIdle(t, sp); got != spare {
		t.Errorf("the spare changed from %d to %d", spare, got)
	}
}

// TestSpareRunnerThatDiedStartsAnother: a spare that died while it waited
// costs nothing: the command starts on a new runner.
func TestSpareRunnerThatDiedStartsAnother(t *testing.T) {
	sp := NewSpare("")
	defer sp.Close()
	runEcho(t, sp, Spec{})
	spare := waitIdle(t, sp)
	if err := syscall.Kill(spare, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if runner := runEcho(t, sp, Spec{}); runner == spare {
		t.Fatal("the command ran on the dead spare")
	}
}

// TestSpareTreeIsKilledWhole: a command started on the spare is owned as
// any other: Kill ends its whole tree, a detached grandchild included.
func TestSpareTreeIsKilledWhole(t *testing.T) {
	sp := NewSpare("")
	defer sp.Close()
	runEcho(t, sp, Spec{})
	waitIdle(t, sp)
	var out syncBuffer
	p, err := sp.Start(t.Context(), Spec{Path: "/bin/sh", Args: []string{"-c", "setsid sleep 1000 & echo $!; wait"}, Stdout: &out, KillGrace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var child int
	deadline := time.Now().Add(5 * time.Second)
	for child == 0 && time.Now().Before(deadline) {
		if f := strings.Fields(out.String()); len(f) == 1 {
			child, _ = strconv.Atoi(f[0])
		}
		time.Sleep(10 * time.Millisecond)
	}
	if child == 0 {
		t.Fatal("the command did not report its child")
	}
	_ = p.Kill()
	if _, err := p.Wait(); !errors.Is(err, ErrKilled) {
		t.Fatalf("Wait err = %v, want ErrKilled", err)
	}
	if err := syscall.Kill(child, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the detached grandchild %d survived (kill 0: %v)", child, err)
	}
}

// TestSpareWaitsForTheRunnerBeingStarted: a command that arrives while
// the next spare is still starting takes that one when it is ready
// instead of starting another (a slow runner binary started twice at
// once was slower than waiting).
func TestSpareWaitsForTheRunnerBeingStarted(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	started := dir + "/started"
	slow := dir + "/slow-runner"
	script := "#!/bin/sh\necho $$ >> " + started + "\nsleep 0.3\nexec " + self + " \"$@\"\n"
	if err := os.WriteFile(slow, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	sp := NewSpare(slow)
	defer sp.Close()
	runEcho(t, sp, Spec{RunnerExe: slow})
	runner := runEcho(t, sp, Spec{RunnerExe: slow}) // the spare is still starting
	waitIdle(t, sp)
	// The spare is ready once its script was exec'd: wait for its line.
	var pids []string
	for deadline := time.Now().Add(10 * time.Second); len(pids) < 3 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(started)
		if err != nil {
			t.Fatal(err)
		}
		pids = strings.Fields(string(b))
	}
	if len(pids) != 3 || pids[1] != strconv.Itoa(runner) {
		t.Errorf("runners started %v; the second command ran on %d, want the first spare (the second of them)", pids, runner)
	}
}

// spareState is whether a runner is waiting, and whether one is starting.
func spareState(sp *Spare) (idle, filling bool) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.idle != nil, sp.filled != nil
}

// TestSpareStartsTheNextRunnerOnceTheCommandEnds: no runner is started
// beside a short command (its start would take a core from the command);
// one is under way by the time Wait returns, and one starts beside a
// command that runs past the delay.
func TestSpareStartsTheNextRunnerOnceTheCommandEnds(t *testing.T) {
	sp := NewSpare("")
	defer sp.Close()
	sp.delay = time.Hour
	runEcho(t, sp, Spec{})
	waitIdle(t, sp)
	p, err := sp.Start(t.Context(), Spec{Path: "/bin/sh", Args: []string{"-c", "sleep 0.3"}})
	if err != nil {
		t.Fatal(err)
	}
	if idle, filling := spareState(sp); idle || filling {
		t.Errorf("a runner is waiting (%v) or starting (%v) beside the command", idle, filling)
	}
	if code, err := p.Wait(); code != 0 || err != nil {
		t.Fatalf("Wait = %d, %v", code, err)
	}
	if idle, filling := spareState(sp); !idle && !filling {
		t.Error("no runner is starting once the command ended")
	}
	waitIdle(t, sp)

	sp.delay = time.Millisecond
	p, err = sp.Start(t.Context(), Spec{Path: "/bin/sh", Args: []string{"-c", "sleep 30"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Wait()
	defer p.Kill()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if idle, filling := spareState(sp); idle || filling {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no runner started beside a command running past the delay")
		}
	}
	waitIdle(t, sp)
	select {
	case <-p.done:
		t.Fatal("the command ended before the spare started")
	default:
	}
}
