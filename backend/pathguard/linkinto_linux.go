package pathguard

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// linkAcross is linkat(2) from name in src to dstName in dst. Flags 0: a
// link at name is linked itself, never followed (LinkInto then refuses it).
func linkAcross(src *os.Root, name string, dst *os.Root, dstName string) error {
	from, err := openParent(src, name)
	if err != nil {
		return err
	}
	defer from.Close()
	to, err := openParent(dst, dstName)
	if err != nil {
		return err
	}
	defer to.Close()
	fromRC, err := from.SyscallConn()
	if err != nil {
		return err
	}
	toRC, err := to.SyscallConn()
	if err != nil {
		return err
	}
	var lerr error
	cerr := fromRC.Control(func(fromFD uintptr) {
		if err := toRC.Control(func(toFD uintptr) {
			lerr = unix.Linkat(int(fromFD), filepath.Base(name), int(toFD), filepath.Base(dstName), 0)
		}); err != nil {
			lerr = err
		}
	})
	if cerr != nil {
		return cerr
	}
	return lerr
}

// sameVersion reports whether linked (looked at through the new name) is
// the file want described: same inode, size and modification time, and no
// name but the two (a file with another name elsewhere can be rewritten
// through it once the caller has renamed a new version over this one). The
// change time cannot tell: making the link itself changes it.
func sameVersion(linked, want fs.FileInfo) bool {
	sl, ok1 := linked.Sys().(*syscall.Stat_t)
	sw, ok2 := want.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && os.SameFile(linked, want) && linked.Size() == want.Size() &&
		linked.ModTime().Equal(want.ModTime()) && sw.Nlink == 1 && sl.Nlink == 2
}
