//go:build !linux

package pathguard

import (
	"errors"
	"io/fs"
	"os"
)

// linkAcross is not used here: the caller copies instead.
func linkAcross(*os.Root, string, *os.Root, string) error { return errors.ErrUnsupported }

func sameVersion(fs.FileInfo, fs.FileInfo) bool { return false }
