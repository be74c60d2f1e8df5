//go:build unix

package review

import (
	"os"

	"golang.org/x/sys/unix"
)

// linkCount returns the number of hard links of the open file f.
func linkCount(f *os.File) (uint64, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Fstat(int(fd), &st) }); err != nil {
		return 0, err
	}
	if serr != nil {
		return 0, serr
	}
	return uint64(st.Nlink), nil
}
