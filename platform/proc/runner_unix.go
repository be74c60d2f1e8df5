//go:build linux || darwin

package proc

import (
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func runTree(h header, st *statusWriter, stdin *os.File) int {
	closeInheritedFDs()
	t := &tree{self: os.Getpid()}
	_ = t.setup() // best effort: without it orphans escape to init (Linux < 3.4)
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	killc := watchKill()

	if stdin == nil {
		devnull, err := os.Open(os.DevNull)
		if err != nil {
			st.send(spawnStatus(err))
			return 127
		}
		stdin = devnull
	}
	attr := &syscall.ProcAttr{
		Dir:   h.Dir,
		Env:   h.Env,
		Files: []uintptr{stdin.Fd(), 1, 2},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	}
	argv := append([]string{h.Path}, h.Args...)
	var pid int
	var err error
	if h.Cgroup != "" {
		if release := t.intoLeaf(attr.Sys, h.Cgroup); release != nil {
			pid, err = syscall.ForkExec(h.Path, argv, attr)
			release()
			if err == nil {
				t.leaf = h.Cgroup
			}
			// A kernel or policy that refuses CLONE_INTO_CGROUP: start
			// without the leaf (the subreaper still owns the tree).
			attr.Sys = &syscall.SysProcAttr{Setpgid: true}
		}
	}
	if t.leaf == "" {
		pid, err = syscall.ForkExec(h.Path, argv, attr)
	}
	_ = stdin.Close()
	if err != nil {
		st.send(spawnStatus(err))
		return 127
	}
	t.shell = pid
	shellc := make(chan syscall.WaitStatus, 1)
	noChildren := make(chan struct{})
	t.noChildren = noChildren
	go reap(pid, shellc, noChildren)
	st.send(status{Pid: pid})
	t.startTracking()

	var ws syscall.WaitStatus
	exited, killed := false, false
	select {
	case ws = <-shellc:
		exited = true
	case <-killc:
		killed = true
	case <-sigc:
		killed = true
	}
	survivors := 0
	if !killed {
		// The reaper usually sees ECHILD right after the shell: no leftovers.
		t.waitGone(20 * time.Millisecond)
	}
	if killed || !t.gone() {
		// A kill request, or leftovers of a finished shell: nothing of the
		// tree outlives the command.
		survivors = t.terminate(time.Duration(h.GraceMs) * time.Millisecond)
	}
	if !exited {
		select {
		case ws = <-shellc:
			exited = true
		case <-time.After(100 * time.Millisecond):
		}
	}
	final := status{Killed: killed, Survivors: survivors}
	code := -1
	if exited {
		switch {
		case ws.Exited():
			code = ws.ExitStatus()
		case ws.Signaled():
			final.Signal = int(ws.Signal())
			code = 128 + final.Signal
		}
	}
	zero := code
	if final.Signal != 0 {
		zero = 0
	}
	final.Exit = &zero
	if !exited {
		final.Survivors = max(final.Survivors, 1)
	}
	if survivors == 0 && exited {
		t.dropLeaf()
	}
	st.send(final)
	if code < 0 || code > 255 {
		code = 255
	}
	return code
}

// closeInheritedFDs marks every descriptor above stderr close-on-exec, so
// that descriptors the host inherited without CLOEXEC (from whoever started
// it) do not leak into the command.
func closeInheritedFDs() {
	ents, err := os.ReadDir("/dev/fd")
	if err != nil {
		return
	}
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}

// reap reaps every child of the runner (the shell and, on Linux, every
// orphan re-parented to the subreaper) and closes noChildren when there is
// none left.
func reap(shell int, shellc chan<- syscall.WaitStatus, noChildren chan<- struct{}) {
	defer close(noChildren)
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, waitOptions, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return
		}
		if pid == shell {
			shellc <- ws
		}
	}
}

// terminate signals the tree (SIGTERM, then SIGKILL after grace) until it is
// gone. It returns how many processes survived hardKillLimit.
func (t *tree) terminate(grace time.Duration) int {
	t.signalAll(syscall.SIGTERM)
	t.signalAll(syscall.SIGCONT)
	if t.waitGone(grace) {
		return 0
	}
	deadline := time.Now().Add(hardKillLimit)
	for time.Now().Before(deadline) {
		t.killLeaf()
		t.signalAll(syscall.SIGKILL)
		if t.waitGone(50 * time.Millisecond) {
			return 0
		}
	}
	return max(len(t.descendants()), 1)
}

func (t *tree) signalAll(sig syscall.Signal) {
	_ = syscall.Kill(-t.shell, sig)
	for _, pid := range t.descendants() {
		_ = syscall.Kill(pid, sig)
	}
}
