//go:build !unix

package search

import (
	"errors"
	"io"
	"os"
	"path/filepath"
)

// folderFiles reads the files of one folder by name through os.Root (see
// readfile_unix.go for the Unix fast path).
type folderFiles struct {
	root *os.Root
	dir  string // the folder in root: "." or a '/'-separated path below it
}

func newFolderFiles(root *os.Root, dir string) *folderFiles {
	return &folderFiles{root: root, dir: dir}
}

// read reads the regular file name of the folder, within MaxFileBytes
// (*tooLargeError otherwise, unread), into *buf (grown as needed): the
// bytes returned alias *buf.
func (d *folderFiles) read(name string, buf *[]byte) ([]byte, error) {
	f, err := openRegular(d.root, filepath.Join(filepath.FromSlash(d.dir), name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > MaxFileBytes {
		return nil, &tooLargeError{st.Size()}
	}
	if int64(cap(*buf)) < st.Size() {
		*buf = make([]byte, st.Size())
	}
	data := (*buf)[:st.Size()]
	n, err := io.ReadFull(f, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return data[:n], nil
}

// adopt closes f: reads here open files by name through the root.
func (d *folderFiles) adopt(f *os.File) { f.Close() }

func (d *folderFiles) close() {}
