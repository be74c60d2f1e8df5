//go:build unix

package hostcore

import (
	"sync/atomic"
	"syscall"
	"unsafe"
)

// The WAL index SQLite keeps in a database's -shm file begins with two
// copies of a 48-byte header (www.sqlite.org/walformat.html, "The WAL-Index
// Header"): every commit, by any connection of any process, rewrites both,
// the second first, and counts itself in iChange. SQLite reads them the
// same way before it takes a read lock.
const (
	walHdrWords   = 12
	walHdrBytes   = 2 * 4 * walHdrWords
	walIndexMagic = 3007000 // iVersion, the first word
)

// walMark is one consistent read of the header.
type walMark [walHdrWords]uint32

// walIndex is a read-only mapping of a database's -shm file.
//
// Its descriptor stays open until the database is closed (closeFile):
// SQLite holds POSIX locks on that file, and closing any descriptor of it
// would release every lock this process holds there. It is a bare
// descriptor, not an *os.File, so no finalizer ever closes it early.
type walIndex struct {
	fd  int
	mem []byte // nil once unmapped, or when the file was not fit to map
}

// openWALIndex maps dbPath's -shm file; nil when there is none (a database
// not in WAL mode). It must be called while a connection of this process
// has the database open in WAL mode: that connection's lock keeps the file
// from being truncated or replaced while it is mapped.
func openWALIndex(dbPath string) *walIndex {
	if dbPath == "" {
		return nil
	}
	fd, err := syscall.Open(dbPath+"-shm", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	w := &walIndex{fd: fd}
	// A file shorter than the header would fault when read: not mapped.
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Size < walHdrBytes {
		return w
	}
	if mem, err := syscall.Mmap(fd, 0, walHdrBytes, syscall.PROT_READ, syscall.MAP_SHARED); err == nil {
		w.mem = mem
	}
	return w
}

// header reads the header; ok is false when there is no mapping or the two
// copies differ (a commit is writing it).
func (w *walIndex) header() (m walMark, ok bool) {
	if w == nil || w.mem == nil {
		return m, false
	}
	var second walMark
	for i := range m {
		m[i] = atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.mem[4*i])))
	}
	for i := range second {
		second[i] = atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.mem[4*(walHdrWords+i)])))
	}
	return m, m == second && m[0] == walIndexMagic
}

// unmap ends the mapping; the file stays open (see walIndex).
func (w *walIndex) unmap() {
	if w == nil || w.mem == nil {
		return
	}
	_ = syscall.Munmap(w.mem)
	w.mem = nil
}

// closeFile closes the file, once the database is closed.
func (w *walIndex) closeFile() {
	if w == nil {
		return
	}
	w.unmap()
	_ = syscall.Close(w.fd)
}
