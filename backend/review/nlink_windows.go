//go:build windows

package review

import (
	"os"

	"golang.org/x/sys/windows"
)

// linkCount returns the number of hard links of the open file f.
func linkCount(f *os.File) (uint64, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var info windows.ByHandleFileInformation
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = windows.GetFileInformationByHandle(windows.Handle(fd), &info) }); err != nil {
		return 0, err
	}
	if serr != nil {
		return 0, serr
	}
	return uint64(info.NumberOfLinks), nil
}
