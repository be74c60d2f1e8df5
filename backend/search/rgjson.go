package search

import (
	"bufio"
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
func parseRgJSON(r io.Reader, emit func(path string, lines []int) bool) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		open  bool
		path  string
		lines []int
	)
	for {
		raw, err := br.ReadBytes('\n')
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
				open, path, lines = true, p, nil
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
				if len(lines) > 0 && emit(path, lines) {
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
