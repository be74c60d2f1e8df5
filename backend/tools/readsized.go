package tools

import (
	"bytes"
	"io"
	"os"
)

// readSized reads f up to limit+1 bytes into a buffer sized from its Stat,
// filled in one read instead of io.ReadAll's doubling: regrowing and
// clearing the buffer was most of the cost of reading a 6 MB file. A file
// that grew since Stat is still read to the bound; the extra byte tells
// the caller it is over it.
func readSized(f *os.File, limit int64) ([]byte, error) {
	size := int64(0)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = min(fi.Size(), limit)
	}
	var buf bytes.Buffer
	buf.Grow(int(size) + bytes.MinRead)
	_, err := buf.ReadFrom(io.LimitReader(f, limit+1))
	return buf.Bytes(), err
}

// sameContent reports whether f holds exactly want, comparing in chunks so
// the check before a write costs no second copy of a large file.
func sameContent(f *os.File, want []byte) (bool, error) {
	buf := make([]byte, min(len(want)+1, 256<<10))
	for {
		n, err := io.ReadFull(f, buf)
		if n > len(want) || !bytes.Equal(buf[:n], want[:n]) {
			return false, nil
		}
		want = want[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return len(want) == 0, nil
		case err != nil:
			return false, err
		}
	}
}
