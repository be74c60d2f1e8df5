//go:build unix

package attachments

import "syscall"

// openFlags: never block on a FIFO swapped in for a stored file.
const openFlags = syscall.O_NONBLOCK
