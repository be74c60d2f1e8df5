package shells

import "syscall"

// setDeathSignal kills the probe's shell when the host dies. Linux sends
// it when the thread that started the child exits; the Go runtime ends a
// thread only when a goroutine locked to it returns, which the probe's
// callers do not do.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

const deathSignal = true
