//go:build linux || darwin

package proc

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// platState is the host's per-process platform state. On Unix the runner
// does all the tree work; the host only keeps a backstop: the tree's cgroup
// leaf on Linux when the session can create one (cgroup_linux.go).
type platState struct {
	leaf string // "" = none: the runner's subreaper is the only owner
}

func prepare(cmd *exec.Cmd, noCgroup bool) (*platState, error) {
	// Its own process group: a terminal's ^C or a group kill aimed at the
	// host does not reach the runner before it could clean up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	s := &platState{}
	if !noCgroup {
		// Best effort: without a leaf the subreaper owns the tree alone.
		s.leaf, _ = newLeaf()
	}
	return s, nil
}

func (s *platState) leafDir() string         { return s.leaf }
func (s *platState) started(*exec.Cmd) error { return nil }
func (s *platState) kill()                   {}

// close removes the leaf once nothing is in it (a failed start).
func (s *platState) close() {
	if s.leaf != "" {
		_ = killLeaf(s.leaf, leafBound)
	}
}

// leafBound bounds the wait for a killed leaf to empty.
const leafBound = 2 * time.Second

// afterExit runs once the runner has exited. When the runner did not report
// a clean end (it crashed or was killed), kill what is left: the whole leaf
// when there is one, else the shell's process group (best effort: a setsid
// descendant escapes it).
func (s *platState) afterExit(shellPid int, clean bool) {
	if s.leaf != "" {
		// A clean runner emptied and removed the leaf already.
		_ = killLeaf(s.leaf, leafBound)
	}
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
		return nil, errors.New("bad " + name + " descriptor " + strconv.Quote(arg))
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
