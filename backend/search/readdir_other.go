//go:build !linux

package search

import (
	"io/fs"
	"os"
)

// listDir lists the folder f (see readdir_linux.go for why Linux differs).
func listDir(f *os.File) ([]fs.DirEntry, error) { return f.ReadDir(-1) }
