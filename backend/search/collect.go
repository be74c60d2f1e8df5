package search

import (
	"bytes"
	"sync/atomic"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// MaxGrepLineRunes is where a Grep row is clipped (edit contract §3).
const MaxGrepLineRunes = 500

// isBinary is the rule both engines apply before reporting a file: binary
// under the text model, or any NUL at all. The second half covers files rg
// stops searching at a NUL past the first 8 KiB, so neither engine reports
// them.
func isBinary(data []byte) bool {
	return hashline.IsBinary(data) || bytes.IndexByte(data, 0) >= 0
}

// maxTaggedFiles is how many files of a result get a tag. No output shows
// more files than it has lines (FormatGrep stops at MaxOutputLines, and a
// file takes a line at least), so the files after these are never shown
// and hashing them (a count over a large tree has thousands) is wasted.
const maxTaggedFiles = MaxOutputLines

// collector turns the engines' raw hits (a path and its matching line
// numbers, in walk order) into GrepFiles. Both engines feed the same
// collector, so limits, tags, context and clipping cannot differ between
// them.
type collector struct {
	q         *query
	files     []GrepFile
	matches   int
	truncated bool
	done      bool
	skipped   []SkippedFile // files over MaxFileBytes, in walk order
	// kept mirrors len(files) for the workers (wantsTag).
	kept atomic.Int64
}

func newCollector(q *query) *collector { return &collector{q: q} }

// reset empties the collector for a new run of the same query.
func (c *collector) reset() {
	c.files, c.matches, c.truncated, c.done, c.skipped = nil, 0, false, false, nil
	c.kept.Store(0)
}

// wantsTag tells a worker whether the file it is checking may still need
// a tag. Hits reach the collector in walk order and a worker's file comes
// after every file kept so far, so once maxTaggedFiles are kept no later
// file is tagged.
func (c *collector) wantsTag() bool { return c.kept.Load() < maxTaggedFiles }

// addHit records one file: lines are its matching line numbers, ascending
// and non-empty. A hit the worker has not checked (checked unset) is read
// and checked here. It returns true once the collector needs nothing more.
func (c *collector) addHit(h hit) bool {
	if c.done {
		return true
	}
	rel, data, lines := h.rel, h.data, h.lines
	needData := !h.checked || (h.untagged && len(c.files) < maxTaggedFiles) || (c.q.opts.Mode == ModeContent && data == nil)
	if needData && data == nil {
		var ok bool
		if data, ok = c.q.readHit(rel); !ok {
			return false // vanished, unreadable or swapped since the search: not a result
		}
	}
	if len(lines) == 0 || (!h.checked && isBinary(data)) {
		return false
	}
	limit := c.q.opts.HeadLimit
	f := GrepFile{Path: rel}
	switch c.q.opts.Mode {
	case ModeContent:
		if c.matches >= limit {
			c.truncated, c.done = true, true
			return true
		}
		keep, stop := lines, 0
		if room := limit - c.matches; len(lines) > room {
			keep, stop = lines[:room], lines[room]
			c.truncated, c.done = true, true
		}
		f.Lines = contextLines(data, keep, c.q.opts.Context, stop)
		f.Count = len(keep)
		c.matches += len(keep)
	default:
		if len(c.files) >= limit {
			c.truncated, c.done = true, true
			return true
		}
		if c.q.opts.Mode == ModeCount {
			f.Count = len(lines)
		}
	}
	switch {
	case len(c.files) >= maxTaggedFiles:
		// never shown: no tag
	case h.checked && !h.untagged:
		f.Digest, f.Tag = h.digest, h.digest.Tag()
	default:
		f.Digest = hashline.DigestOf(data)
		f.Tag = f.Digest.Tag()
	}
	c.files = append(c.files, f)
	c.kept.Store(int64(len(c.files)))
	return c.done
}

// contextLines renders the match rows and up to n context rows around each,
// never at or past stop (the first match cut by the head limit, 0 = none),
// so a cut match never shows up disguised as context.
func contextLines(data []byte, matches []int, n, stop int) []GrepLine {
	cur := newLineCursor(data)
	var out []GrepLine
	next := 1 // first line not yet emitted
	for i, m := range matches {
		from := max(m-n, next)
		to := m + n
		if stop > 0 {
			to = min(to, stop-1)
		}
		for ln := from; ln <= to; ln++ {
			if i+1 < len(matches) && ln == matches[i+1] {
				break // the next match opens its own window
			}
			text, ok := cur.line(ln)
			if !ok {
				break
			}
			out = append(out, clipLine(ln, text, ln != m))
			next = ln + 1
		}
	}
	return out
}

// clipLine makes the row of line n, copying at most the shown part of a
// long line (a 16 MiB line costs no 16 MiB string).
func clipLine(n int, text []byte, context bool) GrepLine {
	if len(text) > 4*MaxGrepLineRunes { // surely longer than shown: cut before copying
		if runes := utf8.RuneCount(text); runes > MaxGrepLineRunes {
			cut, k := 0, 0
			for cut < len(text) && k < MaxGrepLineRunes {
				_, size := utf8.DecodeRune(text[cut:])
				cut += size
				k++
			}
			return GrepLine{N: n, Text: string(text[:cut]), Context: context, Clipped: true, Omitted: runes - MaxGrepLineRunes}
		}
	}
	return clip(GrepLine{N: n, Text: string(text), Context: context})
}

func clip(l GrepLine) GrepLine {
	n := utf8.RuneCountInString(l.Text)
	if n <= MaxGrepLineRunes {
		return l
	}
	l.Text, l.Clipped, l.Omitted = truncate.Runes(l.Text, MaxGrepLineRunes), true, n-MaxGrepLineRunes
	return l
}

// lineCursor walks a file's lines forward, decoding them as hashline does
// (BOM stripped, "\r\n" ends a line without its "\r", a lone "\r" is
// content), without materialising the lines it skips.
type lineCursor struct {
	data []byte
	pos  int // offset of line n
	n    int
}

func newLineCursor(data []byte) *lineCursor {
	return &lineCursor{data: bytes.TrimPrefix(data, []byte("\uFEFF")), n: 1}
}

// line returns line ln (>= the last one asked for) and whether it exists.
// The bytes are the file's: clipLine copies only what is shown.
func (c *lineCursor) line(ln int) ([]byte, bool) {
	for c.n < ln {
		i := bytes.IndexByte(c.data[c.pos:], '\n')
		if i < 0 {
			c.pos = len(c.data) + 1
		} else {
			c.pos += i + 1
		}
		c.n++
	}
	if c.pos >= len(c.data) {
		return nil, false
	}
	rest := c.data[c.pos:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = bytes.TrimSuffix(rest[:i], []byte("\r"))
	}
	return rest, true
}
