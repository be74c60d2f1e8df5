//go:build linux || darwin

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// platState is the host's per-process platform state. On Unix the runner
// does all the tree work; the host only keeps a backstop.
type platState struct{}

func prepare(cmd *exec.Cmd) (*platState, error) {
	// Its own process group: a terminal's ^C or a group kill aimed at the
	// host does not reach the runner before it could clean up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &platState{}, nil
}

func (s *platState) started(*exec.Cmd) error { return nil }
func (s *platState) kill()                   {}
func (s *platState) close()                  {}

// afterExit runs once the runner has exited. When the runner did not report
// a clean end (it crashed or was killed), kill what is left of the shell's
// process group: best effort, the runner is the real owner.
func (s *platState) afterExit(shellPid int, clean bool) {
	if !clean && shellPid > 0 {
		_ = syscall.Kill(-shellPid, syscall.SIGKILL)
		_ = syscall.Kill(shellPid, syscall.SIGKILL)
	}
}

// attachFile passes f (the status pipe, the command's stdin) to the runner
// as an extra descriptor and returns the argument that names it.
func attachFile(cmd *exec.Cmd, f *os.File) string {
	cmd.ExtraFiles = append(cmd.ExtraFiles, f)
	return strconv.Itoa(2 + len(cmd.ExtraFiles))
}

// openAttached opens the descriptor named by attachFile, close-on-exec so
// that the command does not inherit it (the runner hands the stdin pipe to
// the command explicitly, as its fd 0).
func openAttached(arg, name string) (*os.File, error) {
	fd, err := strconv.Atoi(arg)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("bad %s descriptor %q", name, arg)
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), name), nil
}

func isExhausted(errno syscall.Errno) bool {
	switch errno {
	case syscall.EAGAIN, syscall.ENOMEM, syscall.EMFILE, syscall.ENFILE:
		return true
	}
	return false
}
