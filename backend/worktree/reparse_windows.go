//go:build windows

package worktree

import (
	"io/fs"
	"syscall"
)

// isReparsePoint reports a Windows reparse point (symlink, junction, mount
// point, cloud placeholder, …). Go already reports symlinks and mount points
// as non-directories; this also catches any other tag.
func isReparsePoint(fi fs.FileInfo) bool {
	if d, ok := fi.Sys().(*syscall.Win32FileAttributeData); ok {
		return d.FileAttributes&syscall.FILE_ATTRIBUTE_REPARSE_POINT != 0
	}
	return false
}
