//go:build unix

package search

import (
	"errors"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// folderFiles reads the files of one folder by name. On Unix the folder is
// opened once (lazily, by the first reader) and each file costs one
// openat(2) with O_NOFOLLOW, one fstat(2), its reads and a close: the same
// guarantee as openRegular (the name is read only while it is a regular
// file, never through a link) in about half the system calls, and without
// an *os.File (whose set-up alone was a tenth of a Grep's time).
type folderFiles struct {
	root *os.Root
	dir  string // the folder in root: "." or a '/'-separated path below it

	once sync.Once
	f    *os.File // the folder, once opened
	rc   syscall.RawConn
	err  error
}

func newFolderFiles(root *os.Root, dir string) *folderFiles {
	return &folderFiles{root: root, dir: dir}
}

// openFlags: never follow a link, never block on a FIFO or claim a
// terminal swapped in since the listing (fstat then refuses them).
const openFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC

func (d *folderFiles) openFolder() {
	if d.root == nil { // a folder openChild opened: its handle is adopted, or it is gone
		d.err = os.ErrClosed
		return
	}
	// O_DIRECTORY: a name swapped for a FIFO fails instead of blocking.
	// os.Root resolves the folders on the way inside root, as openRegular's
	// Lstat and Open do.
	d.f, d.err = d.root.OpenFile(d.dir, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if d.err == nil {
		if d.rc, d.err = d.f.SyscallConn(); d.err != nil {
			d.f.Close()
			d.f = nil
		}
	}
}

// adopt makes f, the folder itself opened in root (dir "."), the handle
// reads go through, unless one is open already: the walk lists a folder
// through that very handle, so it is not opened a second time.
func (d *folderFiles) adopt(f *os.File) {
	taken := false
	d.once.Do(func() {
		taken = true
		d.f = f
		if d.rc, d.err = f.SyscallConn(); d.err != nil {
			d.f = nil
			f.Close()
		}
	})
	if !taken {
		f.Close()
	}
}

// read reads the regular file name (one path component) of the folder,
// within MaxFileBytes (*tooLargeError otherwise, unread), into *buf
// (grown as needed): the bytes returned alias *buf.
func (d *folderFiles) read(name string, buf *[]byte) ([]byte, error) {
	fd, err := d.openAt(name, openFlags)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if _, err := retryEINTR(func() (int, error) { return 0, unix.Fstat(fd, &st) }); err != nil {
		return nil, err
	}
	if uint32(st.Mode)&unix.S_IFMT != unix.S_IFREG {
		return nil, errRootChanged
	}
	if st.Size > MaxFileBytes {
		return nil, &tooLargeError{st.Size}
	}
	size := int(st.Size)
	if cap(*buf) < size {
		*buf = make([]byte, size)
	}
	data := (*buf)[:size]
	n := 0
	for n < size { // as io.ReadFull: a file that shrank since fstat is read to its end
		k, err := retryEINTR(func() (int, error) { return unix.Read(fd, data[n:]) })
		if err != nil {
			return nil, err
		}
		if k == 0 {
			break
		}
		n += k
	}
	return data[:n], nil
}

// openAt opens name (one path component) in the folder with flags, which
// must hold O_NOFOLLOW: a link there is errRootChanged.
func (d *folderFiles) openAt(name string, flags int) (int, error) {
	d.once.Do(d.openFolder)
	if d.err != nil {
		return -1, d.err
	}
	fd, oerr := -1, error(nil)
	if err := d.rc.Control(func(dirfd uintptr) {
		fd, oerr = retryEINTR(func() (int, error) { return unix.Openat(int(dirfd), name, flags, 0) })
	}); err != nil {
		return -1, err
	}
	if errors.Is(oerr, unix.ELOOP) {
		return -1, errRootChanged // a link, swapped in since the listing
	}
	return fd, oerr
}

// close closes the folder, if it was opened.
func (d *folderFiles) close() {
	d.once.Do(func() { d.err = os.ErrClosed }) // a later read must not open it
	if d.f != nil {
		d.f.Close()
	}
}

func retryEINTR(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
}
