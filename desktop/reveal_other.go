//go:build !windows

package desktop

import "os/exec"

// rawCmdLine: only Windows has a raw command line.
func rawCmdLine(*exec.Cmd, string) {}
