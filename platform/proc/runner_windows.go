package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// runTree runs the command inside the runner's job (the host assigned the
// runner to a kill-on-close job before sending the header, so the shell and
// everything it starts are in it). The host terminates the job on kill and
// after the shell exits; the runner only starts, waits and reports.
func runTree(h header, st *statusWriter, stdin *os.File) int {
	killc := watchKill()
	cmd := &exec.Cmd{
		Path:   h.Path,
		Args:   append([]string{h.Path}, h.Args...),
		Dir:    h.Dir,
		Env:    h.Env,
		Stdin:  stdin, // nil: the null device
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		SysProcAttr: &syscall.SysProcAttr{
			CreationFlags: createNoWindow,
			HideWindow:    true,
			CmdLine:       h.CmdLine,
		},
	}
	if err := cmd.Start(); err != nil {
		st.send(spawnStatus(err))
		return 127
	}
	st.send(status{Pid: cmd.Process.Pid})
	waitc := make(chan struct{})
	go func() { _ = cmd.Wait(); close(waitc) }()
	killed := false
	select {
	case <-waitc:
	case <-killc:
		killed = true
		_ = cmd.Process.Kill()
		<-waitc
	}
	code := cmd.ProcessState.ExitCode()
	st.send(status{Exit: &code, Killed: killed})
	if code < 0 {
		code = 1
	}
	return code
}
