//go:build windows

package search

import (
	"os/exec"
	"syscall"
)

// hideWindow keeps rg from flashing a console window: the desktop app has
// no console of its own, so Windows would create one per spawn.
func hideWindow(cmd *exec.Cmd) {
	const createNoWindow = 0x08000000
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
}
