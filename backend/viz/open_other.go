//go:build !unix

package viz

const openFlags = 0
