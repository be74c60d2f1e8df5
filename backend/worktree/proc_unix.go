//go:build unix

package worktree

import (
	"os/exec"
	"syscall"
)

// setProcAttr starts git in its own process group so that a timeout kills
// whatever git started (filters, merge drivers) along with it.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		return cmd.Process.Kill()
	}
}
