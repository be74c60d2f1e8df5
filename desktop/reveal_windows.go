package desktop

import (
	"os/exec"
	"syscall"
)

// rawCmdLine hands explorer its command line unquoted by Go's rules.
func rawCmdLine(cmd *exec.Cmd, line string) {
	if line != "" {
		cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: line}
	}
}
