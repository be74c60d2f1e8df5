//go:build !windows && !linux

package shells

import "syscall"

// setDeathSignal: no parent-death signal on this OS; the runner
// (PathProbe.RunnerExe) covers host death.
func setDeathSignal(*syscall.SysProcAttr) {}

const deathSignal = false
