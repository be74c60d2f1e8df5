//go:build !unix

package attachments

const openFlags = 0

// sourceFlags: no O_NOFOLLOW here; the Lstat before the open and the
// SameFile check after it refuse a link.
const sourceFlags = 0
