package search

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// rgMessage is the part of one rg --json line we use. Line text is not
// decoded: rows are rebuilt from the file itself, exactly as the builtin
// searcher builds them.
type rgMessage struct {
	Type string `json:"type"`
	Data struct {
		Path       rgString `json:"path"`
		LineNumber *int     `json:"line_number"`
	} `json:"data"`
}

// rgString is rg's encoding of possibly non-UTF-8 data: {"text": …} or
// {"bytes": base64}.
type rgString struct {
	Text  *string `json:"text"`
	Bytes *string `json:"bytes"`
}

func (s rgString) value() (string, error) {
	switch {
	case s.Text != nil:
		return *s.Text, nil
	case s.Bytes != nil:
		b, err := base64.StdEncoding.DecodeString(*s.Bytes)
		return string(b), err
	}
	return "", errors.New("missing path")
}

// parseRgJSON reads rg --json output and calls emit once per file that has
// matches, with its matching line numbers (ascending), in rg's order. It
// stops early when emit returns true. Anything out of shape is an error so
// that the caller falls back to the builtin searcher rather than trusting
// a partial result.
//
// A record longer than maxRgRecord (a match on a huge line: rg --json
// ignores --max-columns) is never held whole: its line number is lost, so
// the file is emitted with nil lines, for the caller to find its matching
// lines itself.
func parseRgJSON(r io.Reader, emit func(path string, lines []int) bool) error {
	rr := recordReader{br: bufio.NewReaderSize(r, 64<<10)}
	var (
		open   bool
		path   string
		lines  []int
		rescan bool // a match record was too long to read
	)
	for {
		raw, long, err := rr.next()
		if long {
			if !open || !bytes.HasPrefix(raw, []byte(`{"type":"match",`)) {
				return fmt.Errorf("%w: an over-long record that is not a match", errRgOutput)
			}
			rescan = true
			raw = nil
		}
		if len(raw) > 0 {
			var msg rgMessage
			if jerr := json.Unmarshal(raw, &msg); jerr != nil {
				return fmt.Errorf("%w: %v", errRgOutput, jerr)
			}
			switch msg.Type {
			case "begin":
				if open {
					return fmt.Errorf("%w: begin inside a file", errRgOutput)
				}
				p, perr := msg.Data.Path.value()
				if perr != nil {
					return fmt.Errorf("%w: %v", errRgOutput, perr)
				}
				open, path, lines, rescan = true, p, nil, false
			case "match":
				p, perr := msg.Data.Path.value()
				if !open || perr != nil || p != path {
					return fmt.Errorf("%w: match outside its file", errRgOutput)
				}
				n := msg.Data.LineNumber
				if n == nil || *n < 1 || (len(lines) > 0 && *n <= lines[len(lines)-1]) {
					return fmt.Errorf("%w: bad line number", errRgOutput)
				}
				lines = append(lines, *n)
			case "end":
				p, perr := msg.Data.Path.value()
				if !open || perr != nil || p != path {
					return fmt.Errorf("%w: end outside its file", errRgOutput)
				}
				open = false
				if rescan {
					lines = nil
				}
				if (rescan || len(lines) > 0) && emit(path, lines) {
					return nil
				}
			}
			// "context", "summary" and future types carry nothing we need.
		}
		if err == io.EOF {
			if open {
				return fmt.Errorf("%w: output ends inside a file", errRgOutput)
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// maxRgRecord bounds one line of rg --json output held in memory.
const maxRgRecord = 1 << 20

// recordReader reads rg --json output one record (line) at a time,
// holding at most maxRgRecord bytes of one.
type recordReader struct {
	br  *bufio.Reader
	buf []byte
}

// next returns the next record with its newline. A record longer than
// maxRgRecord is returned as its first bytes only, with long set; the rest
// is read and dropped. At the end of the input it returns io.EOF (with the
// last record, if that lacks a newline).
func (r *recordReader) next() (rec []byte, long bool, err error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		switch {
		case long:
		case len(r.buf)+len(chunk) > maxRgRecord:
			long = true
			r.buf = append(r.buf, chunk[:min(len(chunk), 64)]...)
		default:
			r.buf = append(r.buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return r.buf, long, err
	}
}
