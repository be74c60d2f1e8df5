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
// that search whole files, and their hits reach the collector in walk
// order, so the result is the one rg --sort path gives however the work
// was scheduled.
func runBuiltin(ctx context.Context, q *query, c *collector) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

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

	workers := runtime.GOMAXPROCS(0)
	type job struct {
		file walkFile // its folder acquired for the worker
		out  chan hit
	}
	jobs := make(chan job)
	order := make(chan chan hit, 4*workers) // bounds hits held out of order
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for j := range jobs {
				if ctx.Err() != nil {
					j.file.dir.release()
					j.out <- hit{}
					continue
				}
				j.out <- q.searchFile(c, j.file.dir, j.file.name, j.file.rel, max, &buf)
				j.file.dir.release()
			}
		}()
	}
	walkErr := make(chan error, 1)
	go func() {
		defer close(order)
		defer close(jobs)
		walk := walkOptions{include: q.include, skip: q.opts.Skip}
		walkErr <- walkTree(ctx, q.fs, q.dir, walk, func(f walkFile) error {
			out := make(chan hit, 1)
			select {
			case order <- out:
			case <-ctx.Done():
				return ctx.Err()
			}
			f.dir.acquire()
			select {
			case jobs <- job{f, out}:
			case <-ctx.Done():
				f.dir.release()
				out <- hit{}
				return ctx.Err()
			}
			return nil
		})
	}()
	for out := range order {
		h := <-out
		if h.big > 0 {
			c.skip(SkippedFile{Path: h.rel, Size: h.big})
		}
		if len(h.lines) > 0 && !c.done && c.addHit(h) {
			cancel()
		}
	}
	wg.Wait()
	err := <-walkErr
	if c.done {
		return nil // we cancelled the walk ourselves
	}
	return err
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
