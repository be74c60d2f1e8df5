package bgtask

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/bash"
)

// stream is one output sink of a task: the last RingBytes bytes, behind
// its own lock.
type stream struct {
	t     *task
	total atomic.Int64 // for events, read without the lock

	mu     sync.Mutex
	ring   *bash.Ring
	sealed bool  // the process ended: the ring is final
	late   int64 // bytes written after the seal (a Proc breaking its contract)
}

// Write keeps p's bytes. It never blocks on anything but the stream's own
// lock and never fails, so the process layer's copy never stalls on it.
func (s *stream) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.mu.Lock()
	if s.sealed {
		s.late += int64(len(p))
		s.mu.Unlock()
		return len(p), nil
	}
	s.ring.Write(p)
	s.mu.Unlock()
	s.total.Add(int64(len(p)))
	s.t.notifyOutput()
	return len(p), nil
}

func (s *stream) seal() {
	s.mu.Lock()
	s.sealed = true
	s.mu.Unlock()
}

// tail returns the last maxChars characters of the stream as valid UTF-8.
// A sequence cut by the ring's start is skipped; one still being written
// is held back until the stream is sealed.
func (s *stream) tail(maxChars int) StreamOutput {
	s.mu.Lock()
	b := s.ring.AppendTail(nil, min(s.ring.Len(), maxChars*utf8.UTFMax))
	total, sealed := s.ring.Total(), s.sealed
	s.mu.Unlock()

	start := 0
	if int64(len(b)) < total {
		for start < len(b) && start < utf8.UTFMax-1 && !utf8.RuneStart(b[start]) {
			start++
		}
	}
	end := len(b)
	if !sealed {
		end -= bash.IncompleteSuffix(b[start:])
	}
	// Walk back maxChars characters (an invalid byte counts as one).
	i, n := end, 0
	for i > start && n < maxChars {
		_, size := utf8.DecodeLastRune(b[start:i])
		i -= size
		n++
	}
	return StreamOutput{
		Text:       strings.ToValidUTF8(string(b[i:end]), "\uFFFD"),
		Truncated:  int64(end-i) < total,
		TotalBytes: total,
	}
}

// notifyOutput emits EventOutput, at most once per OutputInterval with a
// trailing event after a burst. It takes no output lock.
func (t *task) notifyOutput() {
	r := t.r
	if r.opts.Emit == nil || !t.announced.Load() {
		return
	}
	every := r.opts.OutputInterval
	if every < 0 {
		t.emitOutput()
		return
	}
	t.nmu.Lock()
	if t.timerSet {
		t.nmu.Unlock()
		return
	}
	now := r.opts.Now()
	if since := now.Sub(t.lastEmit); since >= every || since < 0 {
		t.lastEmit = now
		t.nmu.Unlock()
		t.emitOutput()
		return
	}
	t.timerSet = true
	wait := every - now.Sub(t.lastEmit)
	t.nmu.Unlock()
	time.AfterFunc(wait, func() {
		t.nmu.Lock()
		t.timerSet = false
		t.lastEmit = r.opts.Now()
		t.nmu.Unlock()
		t.emitOutput()
	})
}

func (t *task) emitOutput() {
	select {
	case <-t.done:
		return // EventExited has it all
	default:
	}
	t.r.emit(EventOutput, OutputEvent{
		SessionID: t.session, TaskID: t.id,
		StdoutBytes: t.stdout.total.Load(), StderrBytes: t.stderr.total.Load(),
	})
}
