package search

import (
	"bytes"
	"context"
	"runtime"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
)

// hit is one searched file, handed from the workers to the collector.
type hit struct {
	rel string
	// data is the file's content: kept for content mode, whose rows are cut
	// from it; nil in the other modes once checked.
	data  []byte
	lines []int
	big   int64 // > 0: the file was not read, it is this large (over MaxFileBytes)
	// checked: the file is not binary and, unless untagged, digest is its
	// digest, both worked out by the worker so the collector's single
	// goroutine does not hash. untagged: the worker saw the result already
	// hold maxTaggedFiles files, so this one can never be shown (collect.go).
	checked, untagged bool
	digest            hashline.Digest
	// cut: the check was stopped by cancellation before it looked, so
	// whether the file matches is unknown (not "no match").
	cut bool
}

// checkedHit returns the hit for rel with its binary test done and its
// digest taken (unless tag is false), or a hit without lines when it is no
// result. data may alias a reused buffer: it is copied out when keep is
// set, and not kept otherwise.
func checkedHit(rel string, data []byte, lines []int, keep, tag bool) hit {
	if len(lines) == 0 || isBinary(data) {
		return hit{rel: rel}
	}
	h := hit{rel: rel, lines: lines, checked: true, untagged: !tag}
	if tag {
		h.digest = hashline.DigestOf(data)
	}
	if keep {
		h.data = bytes.Clone(data)
	}
	return h
}

// runBuiltin is the in-process engine: the walker feeds a pool of workers
// the files of each folder in batches, they search whole files, and their
// hits reach the collector in walk order, so the result is the one
// rg --sort path gives however the work was scheduled.
func runBuiltin(ctx context.Context, q *query, c *collector) error {
	max := 0 // lines per file; 0 = all
	if q.opts.Mode == ModeFilesWithMatches {
		max = 1
	}
	if q.file != "" {
		var buf []byte
		dir := newHitDirRef(q.fs, ".")
		h := q.searchFile(c, dir, q.file, q.file, max, &buf)
		dir.release()
		if h.big > 0 {
			c.skip(SkippedFile{Path: h.rel, Size: h.big})
		}
		if len(h.lines) > 0 {
			c.addHit(h)
		}
		return nil
	}

	bufs := &sync.Pool{}
	var walkErr error
	runInOrder(ctx, runtime.GOMAXPROCS(0), func(put func(func(context.Context) []hit) bool) {
		var batch []walkFile // consecutive files of one folder, each holding it
		send := func() bool {
			files := batch
			batch = nil
			return len(files) == 0 || put(func(ctx context.Context) []hit {
				buf, _ := bufs.Get().(*[]byte)
				if buf == nil {
					buf = new([]byte)
				}
				defer bufs.Put(buf)
				hits := make([]hit, len(files))
				for i, f := range files {
					if ctx.Err() == nil {
						hits[i] = q.searchFile(c, f.dir, f.name, f.rel, max, buf)
					}
					f.dir.release()
				}
				return hits
			})
		}
		walk := walkOptions{include: q.include, skip: q.opts.Skip}
		walkErr = walkTree(ctx, q.fs, q.dir, walk, func(f walkFile) error {
			if len(batch) > 0 && (batch[0].dir != f.dir || len(batch) == fileBatch) && !send() {
				return errStop
			}
			f.dir.acquire()
			batch = append(batch, f)
			return nil
		})
		if walkErr != nil {
			releaseAll(batch)
			return
		}
		send()
	}, func(h hit) bool {
		if h.big > 0 {
			c.skip(SkippedFile{Path: h.rel, Size: h.big})
		}
		return len(h.lines) > 0 && c.addHit(h)
	})
	if c.done {
		return nil // we stopped the walk ourselves
	}
	return walkErr
}

// fileBatch bounds the files of one folder handed to a worker as one job:
// with a job per file, handing files over cost more than searching small
// ones, and a walk of 11,000 files kept two cores only 70% busy.
const fileBatch = 32

func releaseAll(files []walkFile) {
	for _, f := range files {
		f.dir.release()
	}
}

// searchFile reads and searches the file name of dir, rel in the result.
// Binary and oversized files give no lines; the binary check runs only on
// files that matched, since most files do not and the check reads every
// byte. buf is the worker's reusable read buffer: only content mode copies
// a matching file out of it.
func (q *query) searchFile(c *collector, dir *dirRef, name, rel string, max int, buf *[]byte) hit {
	data, err := dir.files.read(name, buf)
	if err != nil {
		h := hit{rel: rel}
		if size := sizeOf(err); size > 0 {
			h.big = size
		}
		return h
	}
	return checkedHit(rel, data, q.m.matchLines(data, max), q.opts.Mode == ModeContent, c.wantsTag())
}

// matchLines returns the 1-based numbers of the lines of data that contain
// a match, at most max of them (0 = all). With a required literal only the
// lines containing it are tried; without one the regexp runs over the whole
// file. Both are exact because the regexp cannot match across lines.
func (m *matcher) matchLines(data []byte, max int) []int {
	text := bytes.TrimPrefix(data, []byte("\uFEFF"))
	if m.prog != nil {
		d, _ := m.dfas.Get().(*lineDFA)
		if d == nil {
			d = newLineDFA(m.prog)
		}
		lines, ok := d.lines(text, max)
		if !d.full {
			m.dfas.Put(d) // a DFA that spent its budget is dropped with its states
		}
		if ok {
			return lines
		}
	}
	var lines []int
	counted, lineNo := 0, 1 // line number of offset counted
	lineAt := func(off int) int {
		lineNo += bytes.Count(text[counted:off], []byte{'\n'})
		counted = off
		return lineNo
	}
	for pos := 0; pos < len(text) && (max == 0 || len(lines) < max); {
		var start int
		if !m.lit.empty() {
			i := m.lit.index(text[pos:])
			if i < 0 {
				break
			}
			at := pos + i
			end := lineEnd(text, at)
			// A pure literal's line matches: it holds the literal, which
			// holds no '\n'. Any other pattern is tried on the line.
			if !m.pure && !m.matchLine(text[pos+bytes.LastIndexByte(text[pos:at], '\n')+1:end]) {
				pos = end + 1
				continue
			}
			lines = append(lines, lineAt(at))
			pos = end + 1
			continue
		}
		loc := m.re.FindIndex(text[pos:])
		if loc == nil {
			break
		}
		start = pos + loc[0]
		if start == len(text) && text[start-1] == '\n' {
			break // an empty match after the final newline is not on a line
		}
		lines = append(lines, lineAt(start))
		pos = lineEnd(text, start) + 1
	}
	return lines
}

// lineEnd is the offset of the '\n' ending the line at off, or len(text).
func lineEnd(text []byte, off int) int {
	if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(text)
}
