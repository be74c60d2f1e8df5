//go:build !windows

package shells

import (
	"os/exec"
	"syscall"
)

// setProbeGroup runs the probe in its own process group and kills the whole
// group on timeout (an interactive login shell may start helpers).
func setProbeGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
