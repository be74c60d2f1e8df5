package search

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// rg prints, under --null --no-heading --with-filename:
//
//	content (--line-number --max-columns 1):  path NUL N ":" (one line of ≤1 byte, or "[Omitted …]") LF
//	count (--count):                          path NUL N LF
//	files (--files-with-matches):             path NUL
//
// A path ends at its NUL and may hold any other byte (":" or a newline), so
// odd names parse exactly; the line text is never used (rows are rebuilt
// from the file, as the builtin engine builds them), and --max-columns 1
// keeps a huge matching line from being printed at all. Each file's records
// are contiguous even when rg runs multi-threaded. This is a tenth of the
// bytes of --json and needs no JSON decoding.

// rgHitRec is one file rg reported: its matching line numbers (content
// mode, ascending) or its count (count mode).
type rgHitRec struct {
	path  string // as rg printed it ("./a/b")
	lines []int
	count int
}

// maxRgPath bounds one path read from rg's output.
const maxRgPath = 64 << 10

// rgBinaryWarning is the line rg prints (with ": ", not NUL, after the
// path) after the matches of a file in which it then met a NUL byte. Such
// a file is binary by our rule (isBinary), so it is dropped.
var rgBinaryWarning = regexp.MustCompile(`\A: WARNING: stopped searching binary file after match \(found "\\0" byte around offset [0-9]+\)\n`)

// parseRgText reads rg's output for mode and calls emit once per file that
// has matches, in rg's order. It stops early when emit returns true.
// Anything out of shape is an error, so that the caller falls back to the
// builtin searcher rather than trusting a partial result.
func parseRgText(r io.Reader, mode string, emit func(rgHitRec) bool) error {
	p := rgTextParser{br: bufio.NewReaderSize(r, 64<<10), mode: mode, emit: emit}
	return p.run()
}

type rgTextParser struct {
	br   *bufio.Reader
	mode string
	emit func(rgHitRec) bool
	cur  rgHitRec // the content-mode file being gathered; path "" = none
	seen map[string]bool
	buf  []byte
}

var errEmitStop = errors.New("stop")

func (p *rgTextParser) run() error {
	err := p.loop()
	if errors.Is(err, errEmitStop) {
		return nil
	}
	return err
}

func (p *rgTextParser) loop() error {
	p.seen = map[string]bool{}
	for {
		path, err := p.readPath()
		if err == io.EOF {
			return p.flush()
		}
		if err != nil {
			return err
		}
		switch p.mode {
		case ModeContent:
			n, err := p.readNumber(':')
			if err != nil {
				return err
			}
			if _, err := p.readLine(); err != nil {
				return fmt.Errorf("%w: a match line without its end", errRgOutput)
			}
			if path != p.cur.path {
				if err := p.flush(); err != nil {
					return err
				}
				if err := p.open(path); err != nil {
					return err
				}
			}
			if len(p.cur.lines) > 0 && n <= p.cur.lines[len(p.cur.lines)-1] {
				return fmt.Errorf("%w: line numbers out of order", errRgOutput)
			}
			p.cur.lines = append(p.cur.lines, n)
		case ModeCount:
			n, err := p.readNumber('\n')
			if err != nil {
				return err
			}
			if err := p.open(path); err != nil {
				return err
			}
			if p.emit(rgHitRec{path: path, count: n}) {
				return errEmitStop
			}
		default:
			if err := p.open(path); err != nil {
				return err
			}
			if p.emit(rgHitRec{path: path}) {
				return errEmitStop
			}
		}
	}
}

// open starts path's records; a file seen before means rg's output is not
// what we expect (each file's records are contiguous).
func (p *rgTextParser) open(path string) error {
	if path == "" || p.seen[path] {
		return fmt.Errorf("%w: a path empty or reported twice", errRgOutput)
	}
	p.seen[path] = true
	p.cur = rgHitRec{path: path}
	return nil
}

// flush hands on the content-mode file being gathered.
func (p *rgTextParser) flush() error {
	if p.mode != ModeContent || len(p.cur.lines) == 0 {
		p.cur = rgHitRec{path: p.cur.path}
		return nil
	}
	rec := p.cur
	p.cur = rgHitRec{path: rec.path}
	if p.emit(rec) {
		return errEmitStop
	}
	return nil
}

// readPath reads up to the next NUL. A binary-file warning for the file
// being gathered that precedes it is consumed and drops that file.
func (p *rgTextParser) readPath() (string, error) {
	p.buf = p.buf[:0]
	for {
		chunk, err := p.br.ReadSlice(0)
		if len(p.buf)+len(chunk) > maxRgPath {
			return "", fmt.Errorf("%w: an over-long path", errRgOutput)
		}
		p.buf = append(p.buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && err != io.EOF {
			return "", err
		}
		p.dropWarned()
		if err == io.EOF {
			if len(p.buf) == 0 {
				return "", io.EOF
			}
			return "", fmt.Errorf("%w: output ends inside a record", errRgOutput)
		}
		return string(p.buf[:len(p.buf)-1]), nil
	}
}

// dropWarned removes a leading binary-file warning about the current
// content-mode file from p.buf, forgetting that file's matches.
func (p *rgTextParser) dropWarned() {
	if p.mode != ModeContent || p.cur.path == "" || !bytes.HasPrefix(p.buf, []byte(p.cur.path)) {
		return
	}
	if loc := rgBinaryWarning.FindIndex(p.buf[len(p.cur.path):]); loc != nil {
		p.buf = p.buf[len(p.cur.path)+loc[1]:]
		p.cur.lines = nil
	}
}

// readNumber reads a positive decimal number ended by end.
func (p *rgTextParser) readNumber(end byte) (int, error) {
	chunk, err := p.br.ReadSlice(end)
	if err != nil || len(chunk) < 2 || len(chunk) > 20 {
		return 0, fmt.Errorf("%w: a record without its number", errRgOutput)
	}
	n, err := strconv.Atoi(string(chunk[:len(chunk)-1]))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%w: bad number %q", errRgOutput, chunk)
	}
	return n, nil
}

// readLine skips the (short) rest of a content record.
func (p *rgTextParser) readLine() (int, error) {
	n := 0
	for {
		chunk, err := p.br.ReadSlice('\n')
		n += len(chunk)
		if errors.Is(err, bufio.ErrBufferFull) && n < maxRgPath {
			continue
		}
		return n, err
	}
}
