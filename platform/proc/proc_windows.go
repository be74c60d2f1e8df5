package proc

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// platState holds the kill-on-close Job Object that owns the runner and,
// through it, the whole command tree.
type platState struct {
	mu     sync.Mutex
	job    windows.Handle
	closed bool
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobAccounting struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

// hostJob reports whether the host runs inside a job and that job's limit flags.
func hostJob() (inJob bool, limits uint32) {
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	// A zero handle queries the job that contains the calling process; the
	// call fails when there is none.
	err := windows.QueryInformationJobObject(0, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	if err != nil {
		return false, 0
	}
	return true, info.BasicLimitInformation.LimitFlags
}

// leafDir: Windows owns trees with the Job Object, not a cgroup.
func (s *platState) leafDir() string { return "" }

func prepare(cmd *exec.Cmd, _ bool) (*platState, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, classifySpawnError(fmt.Errorf("proc: create job object: %w", err))
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return nil, fmt.Errorf("proc: configure job object: %w", err)
	}
	inJob, limits := hostJob()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags: runnerCreationFlags(inJob, limits),
		HideWindow:    true,
	}
	return &platState{job: job}, nil
}

// started assigns the runner to the job. The runner waits for its command
// header, which is sent only after this, so nothing it starts escapes.
func (s *platState) started(cmd *exec.Cmd) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		return fmt.Errorf("proc: open the runner: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(s.job, h); err != nil {
		return fmt.Errorf("proc: assign the runner to its job: %w", err)
	}
	return nil
}

func (s *platState) kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		_ = windows.TerminateJobObject(s.job, 1)
	}
}

// afterExit terminates whatever the command left in the job and waits (up
// to a bound) until the job is empty.
func (s *platState) afterExit(int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	_ = windows.TerminateJobObject(s.job, 1)
	deadline := time.Now().Add(hardKillLimit)
	for time.Now().Before(deadline) {
		var acc jobAccounting
		err := windows.QueryInformationJobObject(s.job, windows.JobObjectBasicAccountingInformation,
			uintptr(unsafe.Pointer(&acc)), uint32(unsafe.Sizeof(acc)), nil)
		if err != nil || acc.ActiveProcesses == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *platState) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		_ = windows.CloseHandle(s.job)
	}
}

// attachFile lets the runner inherit f (the status pipe, the command's
// stdin) and returns its handle value.
func attachFile(cmd *exec.Cmd, f *os.File) string {
	h := windows.Handle(f.Fd())
	_ = windows.SetHandleInformation(h, windows.HANDLE_FLAG_INHERIT, windows.HANDLE_FLAG_INHERIT)
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.AdditionalInheritedHandles = append(cmd.SysProcAttr.AdditionalInheritedHandles, syscall.Handle(h))
	return strconv.FormatUint(uint64(h), 10)
}

func openAttached(arg, name string) (*os.File, error) {
	h, err := strconv.ParseUint(arg, 10, 64)
	if err != nil || h == 0 {
		return nil, fmt.Errorf("bad %s handle %q", name, arg)
	}
	// Not inherited by the command: os/exec passes an explicit handle list.
	return os.NewFile(uintptr(h), name), nil
}

func isExhausted(errno syscall.Errno) bool {
	switch errno {
	case windows.ERROR_NOT_ENOUGH_MEMORY, windows.ERROR_OUTOFMEMORY, windows.ERROR_NO_SYSTEM_RESOURCES,
		windows.ERROR_COMMITMENT_LIMIT, windows.ERROR_MAX_THRDS_REACHED, windows.ERROR_TOO_MANY_OPEN_FILES:
		return true
	}
	return false
}
