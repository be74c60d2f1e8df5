//go:build unix

package search

import (
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// openChild opens the folder name of dir through dir's own descriptor:
// one openat(2) that refuses a link (O_NOFOLLOW) and anything but a folder
// (O_DIRECTORY), so only a real folder in dir is walked, as the Lstat and
// os.Root of openChildByRoot ensure, in a third of the system calls per
// folder (os.Root's open, the stat that confirms it and the second handle
// that lists it cost some eleven; Go's src has 1,300 folders).
func openChild(dir *dirRef, name string) (*dirRef, error) {
	fd, err := dir.files.openAt(name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err != nil {
		return nil, err
	}
	child := &dirRef{top: dir.top, rel: path.Join(dir.rel, name), plain: os.NewFile(uintptr(fd), name), files: newFolderFiles(nil, ".")}
	child.refs.Store(1)
	return child, nil
}
