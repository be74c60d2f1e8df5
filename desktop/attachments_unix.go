//go:build unix

package desktop

import "syscall"

// attachmentOpenFlags: never block on a FIFO swapped in for an image.
const attachmentOpenFlags = syscall.O_NONBLOCK
