package bash

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// Stream names which pipe a Capture records; it decides which end survives.
type Stream int

const (
	// Stdout keeps the head of the output.
	Stdout Stream = iota
	// Stderr keeps the tail of the output.
	Stderr
)

func (s Stream) String() string {
	if s == Stderr {
		return "stderr"
	}
	return "stdout"
}

// Limits are the bounds of one stream. The zero value of a field means the
// decisions.md number.
type Limits struct {
	ModelBytes  int // model-facing bytes: 96 KB
	ModelLines  int // model-facing lines: 4,000
	MemoryBytes int // retained in memory: 512 KB (at least ModelBytes)
	SpillBytes  int // spill file: 512 KB (at most MemoryBytes)
}

// Default limits (decisions.md, "Tool result limits").
const (
	DefaultModelBytes  = 96 << 10
	DefaultModelLines  = 4000
	DefaultMemoryBytes = 512 << 10
	DefaultSpillBytes  = 512 << 10
)

// DefaultLimits returns the decisions.md numbers.
func DefaultLimits() Limits {
	return Limits{DefaultModelBytes, DefaultModelLines, DefaultMemoryBytes, DefaultSpillBytes}
}

func (l Limits) normalized() Limits {
	d := DefaultLimits()
	if l.ModelBytes <= 0 {
		l.ModelBytes = d.ModelBytes
	}
	if l.ModelLines <= 0 {
		l.ModelLines = d.ModelLines
	}
	if l.MemoryBytes <= 0 {
		l.MemoryBytes = d.MemoryBytes
	}
	if l.SpillBytes <= 0 {
		l.SpillBytes = d.SpillBytes
	}
	l.MemoryBytes = max(l.MemoryBytes, l.ModelBytes)
	l.SpillBytes = min(l.SpillBytes, l.MemoryBytes)
	return l
}

// CaptureOptions configure a Capture. All fields are optional.
type CaptureOptions struct {
	// OnChunk receives every Write's bytes as UTF-8-complete text, in order,
	// with a per-stream sequence number starting at 0. A multi-byte sequence
	// split across Writes is held back until complete; bytes that can never
	// be valid become U+FFFD, and an incomplete sequence left at Close does
	// too. It runs on the writer's goroutine and must not block. It returns
	// whether it wants more: once it says no, later bytes are not decoded
	// for it (a command's live view stops at 1 MB; decoding each later
	// 32 KB write into a string it dropped halved Bash's throughput).
	OnChunk func(seq int, text string) (more bool)
	// Spill creates the spill file on the first overflow of the model-facing
	// limit and returns it with its path. The caller owns the scratch
	// directory (SpillPath names the usual layout). An error, or a failed
	// write later, costs only the marker's hint: the call goes on.
	Spill func() (io.WriteCloser, string, error)
	// Limits; the zero value means the decisions.md numbers.
	Limits Limits
}

// Output is the bounded result of one stream.
type Output struct {
	Stream Stream `json:"-"`
	// Text is the model-facing part: stdout's head or stderr's tail, cut at
	// a whole line where possible. It is valid UTF-8. When a line had to be
	// clipped, ClippedLine names it and Marker says so.
	Text string `json:"text"`
	// Truncated is true when Text is not the whole stream; Marker is then
	// the truncation marker, "" otherwise.
	Truncated bool   `json:"truncated"`
	Marker    string `json:"marker,omitempty"`
	// ClippedLine is the 1-based number of the line Text holds only part of
	// (its start for stdout, its end for stderr), 0 when none.
	ClippedLine int64 `json:"clippedLine,omitempty"`
	TotalBytes  int64 `json:"totalBytes"`
	TotalLines  int64 `json:"totalLines"`
	KeptBytes   int64 `json:"keptBytes"`
	KeptLines   int64 `json:"keptLines"` // whole lines in Text
	// SpillPath is the spill file, "" when there is none or it failed.
	// SpillBytes and SpillLines say how much of the stream it holds.
	SpillPath  string `json:"spillPath,omitempty"`
	SpillBytes int64  `json:"spillBytes,omitempty"`
	SpillLines int64  `json:"spillLines,omitempty"`
	// RetainedBytes is what the Capture holds in memory for this stream
	// (at most Limits.MemoryBytes whatever TotalBytes is).
	RetainedBytes int64  `json:"-"`
	Limits        Limits `json:"-"`
}

// WithMarker returns Text with the marker at the end that lost data: after
// stdout's head, before stderr's tail.
func (o Output) WithMarker() string {
	if o.Marker == "" {
		return o.Text
	}
	if o.Stream == Stderr {
		return o.Marker + "\n" + o.Text
	}
	if o.Text == "" || strings.HasSuffix(o.Text, "\n") {
		return o.Text + o.Marker
	}
	return o.Text + "\n" + o.Marker
}

var errClosed = errors.New("bash: write to a closed Capture")

// Capture is the io.Writer for one stream of a command. Its Write never
// blocks on the bounds and never fails before Close: past the memory bound
// it only counts. One goroutine writes (then calls Close); any number of
// goroutines may call Result at the same time.
type Capture struct {
	kind    Stream
	lim     Limits
	onChunk func(int, string) bool
	spillFn func() (io.WriteCloser, string, error)

	// Owned by the writer (Write, then Close).
	pend       [utf8.UTFMax]byte
	npend      int
	seq        int
	spillTried bool
	spillW     io.WriteCloser
	spilled    int // stdout: bytes of head already in the spill file
	chunk      strings.Builder

	mu        sync.Mutex
	head      []byte // stdout: the first MemoryBytes bytes
	ring      *Ring  // stderr: the last MemoryBytes bytes
	total     int64
	newlines  int64
	last      byte
	closed    bool
	spillPath string
	spillErr  error
}

// NewCapture returns a Capture for kind.
func NewCapture(kind Stream, opts CaptureOptions) *Capture {
	c := &Capture{kind: kind, lim: opts.Limits.normalized(), onChunk: opts.OnChunk, spillFn: opts.Spill}
	if kind == Stderr {
		c.ring = NewRing(c.lim.MemoryBytes)
	}
	return c
}

var newline = []byte{'\n'}

// Write records p. It returns len(p), nil until Close.
func (c *Capture) Write(p []byte) (int, error) {
	n := len(p)
	if n == 0 {
		return 0, nil
	}
	nl := bytes.Count(p, newline)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return 0, errClosed
	}
	c.total += int64(n)
	c.newlines += int64(nl)
	c.last = p[n-1]
	if c.kind == Stderr {
		c.ring.Write(p)
	} else if room := c.lim.MemoryBytes - len(c.head); room > 0 {
		c.head = appendCapped(c.head, p[:min(room, n)], c.lim.MemoryBytes)
	}
	crossed := !c.spillTried && c.overLocked()
	c.mu.Unlock()

	if crossed {
		c.startSpill()
	}
	if c.kind == Stdout && c.spillW != nil {
		c.pumpSpill(false)
	}
	if c.onChunk != nil {
		c.emit(p)
	}
	return n, nil
}

// overLocked reports whether the stream exceeds its model-facing bound.
func (c *Capture) overLocked() bool {
	return c.total > int64(c.lim.ModelBytes) || c.linesLocked() > int64(c.lim.ModelLines)
}

func (c *Capture) linesLocked() int64 {
	if c.total > 0 && c.last != '\n' {
		return c.newlines + 1
	}
	return c.newlines
}

// emit forwards p to OnChunk, holding back a trailing incomplete sequence.
func (c *Capture) emit(p []byte) {
	b := &c.chunk
	b.Reset()
	b.Grow(len(p) + utf8.UTFMax)
	if c.npend > 0 {
		// Complete the held-back sequence from p's first bytes.
		need := 0
		for need < len(p) && c.npend+need < utf8.UTFMax && !utf8.FullRune(c.pend[:c.npend+need]) {
			c.pend[c.npend+need] = p[need]
			need++
		}
		if !utf8.FullRune(c.pend[:c.npend+need]) { // p too short to finish it
			c.npend += need
			return
		}
		r, size := utf8.DecodeRune(c.pend[:c.npend+need])
		if r == utf8.RuneError && size <= 1 {
			// It never completed: convert it together with p, so it reads
			// as one stream would (rare path, it copies p).
			p = append(c.pend[:c.npend:c.npend], p...)
		} else {
			b.Write(c.pend[:size])
			p = p[size-c.npend:]
		}
		c.npend = 0
	}
	keep := IncompleteSuffix(p)
	body := p[:len(p)-keep]
	c.npend = copy(c.pend[:], p[len(p)-keep:])
	if utf8.Valid(body) {
		b.Write(body)
	} else {
		b.WriteString(strings.ToValidUTF8(string(body), "\uFFFD"))
	}
	if b.Len() == 0 {
		return
	}
	s := b.String()
	b.Reset() // the string keeps the buffer; the builder starts a new one
	more := c.onChunk(c.seq, s)
	c.seq++
	if !more {
		c.onChunk = nil
	}
}

func (c *Capture) startSpill() {
	c.spillTried = true
	if c.spillFn == nil {
		return
	}
	w, path, err := c.spillFn()
	if err == nil && w == nil {
		err = errors.New("bash: spill returned no writer")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.spillErr = err
		return
	}
	c.spillW, c.spillPath = w, path
}

func (c *Capture) failSpill(err error) {
	_ = c.spillW.Close()
	c.spillW = nil
	c.mu.Lock()
	c.spillPath, c.spillErr = "", err
	c.mu.Unlock()
}

// pumpSpill writes the stdout head to the spill file as far as it is known
// to be final.
func (c *Capture) pumpSpill(final bool) {
	c.mu.Lock()
	h, total := c.head, c.total
	c.mu.Unlock()
	end := spillHeadEnd(h, total, c.lim.SpillBytes, final)
	if end <= c.spilled {
		return
	}
	if _, err := c.spillW.Write(h[c.spilled:end]); err != nil {
		c.failSpill(err)
		return
	}
	c.spilled = end
}

// spillHeadEnd is how much of head belongs in the spill file: all of it up
// to the spill limit, ending at a line break where the limit cuts the
// stream (at a character boundary when the window has no line break). While
// the stream is open, the last bytes before the limit wait until it is
// known whether the limit cuts there.
func spillHeadEnd(head []byte, total int64, limit int, final bool) int {
	n := min(len(head), limit)
	if total <= int64(limit) {
		if final {
			return n
		}
		// While the stream runs, spill whole lines only: whether the limit
		// will cut the current line is not known yet, and bytes once
		// spilled cannot be taken back.
		if i := bytes.LastIndexByte(head[:n], '\n'); i >= 0 {
			return i + 1
		}
		return 0
	}
	if i := bytes.LastIndexByte(head[:n], '\n'); i >= 0 {
		return i + 1
	}
	return completePrefix(head[:n])
}

// spillTailStart is where the stderr spill window starts within tail (the
// retained bytes, ending at the end of the stream): at a line start when
// the window cuts the stream, else at a character boundary.
func spillTailStart(tail []byte, total int64, limit int) int {
	s := max(len(tail)-limit, 0)
	if total <= int64(len(tail)-s) {
		return s
	}
	if i := bytes.IndexByte(tail[s:], '\n'); i >= 0 && s+i+1 < len(tail) {
		return s + i + 1
	}
	return s + skipContinuation(tail[s:])
}

// Close flushes a trailing incomplete UTF-8 sequence to OnChunk (as
// U+FFFD), completes and closes the spill file, and freezes the Capture.
// Spill failures are not returned: they cost only the marker's hint (see
// SpillErr). Close is idempotent; it must not run concurrently with Write.
func (c *Capture) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()

	if c.onChunk != nil && c.npend > 0 {
		s := strings.ToValidUTF8(string(c.pend[:c.npend]), "\uFFFD")
		c.npend = 0
		c.onChunk(c.seq, s)
		c.seq++
		c.onChunk = nil
	}
	if c.spillW == nil {
		return nil
	}
	if c.kind == Stdout {
		c.pumpSpill(true)
	} else {
		c.mu.Lock()
		tail := c.ring.AppendTail(nil, -1)
		total := c.total
		c.mu.Unlock()
		if _, err := c.spillW.Write(tail[spillTailStart(tail, total, c.lim.SpillBytes):]); err != nil {
			c.failSpill(err)
			return nil
		}
	}
	if c.spillW != nil {
		if err := c.spillW.Close(); err != nil {
			c.spillW = nil
			c.mu.Lock()
			c.spillPath, c.spillErr = "", err
			c.mu.Unlock()
			return nil
		}
		c.spillW = nil
	}
	return nil
}

// SpillErr returns why the spill file could not be created or written, nil
// when it was fine or not needed. For logs: the model only sees that the
// output was not saved.
func (c *Capture) SpillErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.spillErr
}
