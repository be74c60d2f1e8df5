package instance

import (
	"errors"
	"io"
)

// limitReader fails once more than n bytes were asked for, so an endless
// line from a local client cannot grow the buffer without bound.
type limitReader struct {
	r io.Reader
	n int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errors.New("request too large")
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}
