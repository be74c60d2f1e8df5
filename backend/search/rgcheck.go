package search

import (
	"bytes"
	"os"
	"strings"
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

// readHit reads rel (within MaxFileBytes) through the root.
func (q *query) readHit(rel string) ([]byte, bool) {
	dir, name := splitRel(rel)
	d := newHitDirRef(q.fs, dir)
	defer d.release()
	var buf []byte
	data, err := d.files.read(name, &buf)
	return data, err == nil
}

// splitRel splits a '/'-separated path into its folder ("." for none) and
// last component.
func splitRel(rel string) (dir, name string) {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return ".", rel
	}
	return rel[:i], rel[i+1:]
}

// hitDirs hands the hits of one rg run their folders, in the order rg's
// hits are fed to the workers: consecutive hits in one folder (most of
// them, in walk order) share one handle, opened by the first reader, so a
// file costs one open by name instead of a walk of its whole path. Each
// folder given out is held until the job that got it releases it.
type hitDirs struct {
	fs   *os.Root
	name string
	cur  *dirRef
}

// get returns rel's folder, acquired, and its name there.
func (h *hitDirs) get(rel string) (*dirRef, string) {
	dir, name := splitRel(rel)
	if h.cur == nil || dir != h.name {
		h.close()
		h.cur, h.name = newHitDirRef(h.fs, dir), dir
	}
	h.cur.acquire()
	return h.cur, name
}

// close lets go of the current folder (the jobs holding it keep it open).
func (h *hitDirs) close() {
	if h.cur != nil {
		h.cur.release()
		h.cur = nil
	}
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
