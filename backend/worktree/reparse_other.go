//go:build !windows

package worktree

import "io/fs"

func isReparsePoint(fs.FileInfo) bool { return false }
