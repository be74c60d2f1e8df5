//go:build !unix

package attachments

const openFlags = 0
