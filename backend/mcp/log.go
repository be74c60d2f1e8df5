package mcp

import (
	"bytes"
	"strings"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Bounds of a server's stderr log.
const (
	// DefaultLogSize is how much of a server's stderr the host keeps: enough
	// for the startup banner and the stack trace of a crash, small enough that
	// 16 chatty servers cost nothing.
	DefaultLogSize = 64 << 10
	// LogTailLines is how many of the last lines a status carries.
	LogTailLines = 20
	// maxTailLine cuts a single tail line, so one minified JSON dump cannot
	// fill the status.
	maxTailLine = 512
)

// serverLog is a bounded, line-aware log of a server's stderr: it keeps the
// last bytes written, starting at a line boundary once older output was
// dropped. It is an io.Writer safe for the stderr pump and readers at once.
type serverLog struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newServerLog(size int) *serverLog {
	if size <= 0 {
		size = DefaultLogSize
	}
	return &serverLog{max: size}
}

// Write keeps p; it never fails, so a server's output never blocks on us.
func (l *serverLog) Write(p []byte) (int, error) {
	n := len(p)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(p) > l.max {
		p = p[len(p)-l.max:]
	}
	l.buf = append(l.buf, p...)
	// Trimming only past twice the bound keeps the copying amortised.
	if len(l.buf) > 2*l.max {
		l.trim()
	}
	return n, nil
}

// trim keeps the last max bytes, from the first line start among them when
// there is one (a partial first line would read as garbage).
func (l *serverLog) trim() {
	if len(l.buf) <= l.max {
		return
	}
	kept := l.buf[len(l.buf)-l.max:]
	if i := bytes.IndexByte(kept, '\n'); i >= 0 && i+1 < len(kept) {
		kept = kept[i+1:]
	}
	l.buf = append(l.buf[:0], kept...)
}

// String is the whole kept log, as valid UTF-8.
func (l *serverLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.trim()
	return strings.ToValidUTF8(string(l.buf), "\uFFFD")
}

// Tail is the last n non-empty lines (carriage returns dropped, each cut to
// maxTailLine bytes), oldest first; never nil, so the window gets [] for
// a quiet server.
func (l *serverLog) Tail(n int) []string {
	if n <= 0 {
		return []string{}
	}
	l.mu.Lock()
	l.trim()
	buf := l.buf
	lines := []string{}
	for len(buf) > 0 && len(lines) < n {
		i := bytes.LastIndexByte(buf, '\n')
		line := buf[i+1:]
		buf = buf[:max(i, 0)]
		if i < 0 {
			buf = nil
		}
		if s := tailLine(line); s != "" {
			lines = append(lines, s)
		}
	}
	l.mu.Unlock()
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return lines
}

func tailLine(b []byte) string {
	s := strings.TrimRight(strings.ReplaceAll(string(b), "\r", ""), " \t")
	return strings.ToValidUTF8(truncate.BytesEllipsis(s, maxTailLine), "\uFFFD")
}
