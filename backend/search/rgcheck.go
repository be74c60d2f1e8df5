package search

import (
	"bytes"
	"os"
	"path/filepath"
)

// rg walks by path, so a folder swapped for a link between its checks and
// its reads can make it report a file from elsewhere. Nothing rg says is
// shown as such: each hit is re-opened through the search root's handle
// (which no link can leave), its bytes are the ones shown, and its lines
// are kept only where the pattern matches them in those bytes.

// checkHit returns the content and the confirmed matching lines of the hit
// rel, or no lines when it must not be shown.
func (q *query) checkHit(rel string, lines []int) ([]byte, []int) {
	if q.opts.skipped(q.dir, rel) {
		return nil, nil
	}
	data, ok := q.readHit(rel)
	if !ok {
		return nil, nil
	}
	return data, q.confirmLines(data, lines)
}

// readHit reads rel (within MaxFileBytes) through openHit.
func (q *query) readHit(rel string) ([]byte, bool) {
	data, err := readBounded(func() (*os.File, error) { return q.openHit(rel) })
	return data, err == nil
}

// openHit opens rel through the search root's handle if it is, now, a
// regular file whose last component is not a link (the folders on the way
// are resolved by os.Root, inside the root).
func (q *query) openHit(rel string) (*os.File, error) {
	name := filepath.FromSlash(rel)
	lfi, err := q.fs.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !lfi.Mode().IsRegular() {
		return nil, errNotSearchable
	}
	f, err := q.fs.Open(name)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !os.SameFile(lfi, fi) {
		f.Close()
		return nil, errRootChanged
	}
	return f, nil
}

// confirmLines keeps the lines (ascending, 1-based) of data that the
// pattern matches, decoded as matchLines decodes them.
func (q *query) confirmLines(data []byte, lines []int) []int {
	text := bytes.TrimPrefix(data, []byte("\uFEFF"))
	kept := lines[:0:0]
	pos, n := 0, 1
	for _, want := range lines {
		for n < want && pos <= len(text) {
			i := bytes.IndexByte(text[pos:], '\n')
			if i < 0 {
				pos = len(text) + 1
				break
			}
			pos += i + 1
			n++
		}
		if n != want || pos >= len(text) {
			break // the file has fewer lines than rg saw (nothing after a final newline is a line)
		}
		if q.m.matchLine(text[pos:lineEnd(text, pos)]) {
			kept = append(kept, want)
		}
	}
	return kept
}
