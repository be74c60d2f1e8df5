//go:build !unix

package desktop

const attachmentOpenFlags = 0
