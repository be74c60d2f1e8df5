//go:build windows

package worktree

import (
	"os/exec"
	"syscall"
)

const createNoWindow = 0x08000000

// setProcAttr keeps git from flashing a console window from the GUI app.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
}
