package worktree

import (
	"io/fs"
	"os"
)

// isRealDir reports whether p is a directory itself: not a symbolic link, a
// junction or any other reparse point, even one that leads to a directory.
func isRealDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && realDirInfo(fi)
}

func realDirInfo(fi fs.FileInfo) bool {
	return fi.Mode().Type() == fs.ModeDir && !isReparsePoint(fi)
}

// regularInfo reports a plain file: no link, device or pipe (on Windows, Go
// reports links, junctions and other non-file reparse points as irregular).
func regularInfo(fi fs.FileInfo) bool {
	return fi.Mode().IsRegular()
}
