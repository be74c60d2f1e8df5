//go:build !windows

package shells

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"syscall"
	"time"
)

// probeDirect runs the probe as a child of the host in its own process
// group, which is killed when the shell has answered (startup files may
// leave helpers behind), when ctx ends, and, through the parent-death
// signal where the OS has one, when the host dies.
func probeDirect(ctx context.Context, shell string, env []string, out io.Writer) error {
	cmd := exec.Command(shell, "-lic", probeCmd)
	cmd.Env = env
	cmd.Stdout = out // stdin stays /dev/null; stderr is discarded
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
	// Startup files may leave a process outside the group holding the
	// pipe: do not wait for it.
	cmd.WaitDelay = 500 * time.Millisecond
	if err := cmd.Start(); err != nil {
		return err
	}
	pgid := cmd.Process.Pid
	waitc := make(chan error, 1)
	go func() { waitc <- cmd.Wait() }()
	var err error
	select {
	case err = <-waitc:
	case <-ctx.Done():
		killGroup(pgid)
		<-waitc
		return context.Cause(ctx)
	}
	// The answer is in: nothing of the group outlives the probe.
	killGroup(pgid)
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return err
	}
	return nil
}

// killGroup ends the probe's process group: SIGTERM first, so that startup
// files run their exit traps (pyenv's rehash lock, left behind by a
// SIGKILL, makes every later login shell wait 60 s for it), then SIGKILL
// after probeKillGrace.
func killGroup(pgid int) {
	if syscall.Kill(-pgid, syscall.SIGTERM) != nil {
		return // the group is gone
	}
	_ = syscall.Kill(-pgid, syscall.SIGCONT)
	for deadline := time.Now().Add(probeKillGrace); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if syscall.Kill(-pgid, 0) != nil {
			return
		}
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}
