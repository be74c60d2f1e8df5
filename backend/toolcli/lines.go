package toolcli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxScriptLine is the longest script line `pi-desktop tool` reads:
// far above any call the host accepts (a Write's 16 MiB of text, escaped),
// so a real line is never cut, while a runaway input without newlines
// cannot take all memory.
const DefaultMaxScriptLine = 256 << 20

// lineReader reads script lines of any length up to max bytes. It never
// holds more than max bytes plus one read buffer.
type lineReader struct {
	r    *bufio.Reader
	max  int
	buf  []byte
	line int // number of the line last returned
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxScriptLine
	}
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// lineTooLong stops a script: the rest of a line cannot be skipped safely,
// since running the lines after it out of order would be worse.
type lineTooLong struct{ line, max int }

func (e *lineTooLong) Error() string {
	return fmt.Sprintf("script line %d is longer than %s, the longest line pi-desktop tool reads", e.line, byteSize(e.max))
}

// next returns the next line without its line ending, or io.EOF after the
// last one. The slice is valid until the next call.
func (lr *lineReader) next() ([]byte, error) {
	lr.buf = lr.buf[:0]
	lr.line++
	for {
		frag, err := lr.r.ReadSlice('\n')
		content := len(lr.buf) + len(frag)
		if err == nil {
			content-- // the newline
		}
		if content > lr.max {
			lr.buf = nil
			return nil, &lineTooLong{line: lr.line, max: lr.max}
		}
		lr.buf = append(lr.buf, frag...)
		switch {
		case err == nil:
			return trimEOL(lr.buf), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(lr.buf) > 0:
			return lr.buf, nil // a last line without a newline
		default:
			return nil, err
		}
	}
}

func trimEOL(b []byte) []byte {
	b = b[:len(b)-1]
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return b
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
