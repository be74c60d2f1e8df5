//go:build unix

package viz

import "syscall"

// openFlags: never block on a FIFO swapped in for the fragment.
const openFlags = syscall.O_NONBLOCK
