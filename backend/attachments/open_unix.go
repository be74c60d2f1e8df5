//go:build unix

package attachments

import "syscall"

// openFlags: never block on a FIFO swapped in for a stored file.
const openFlags = syscall.O_NONBLOCK

// sourceFlags open a file the user attaches: a link in its place is
// refused by the kernel (ELOOP), not followed, and a FIFO never blocks.
const sourceFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
