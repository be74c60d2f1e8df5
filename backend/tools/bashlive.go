package tools

import (
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/redact"
)

// liveOutput forwards one stream of a running command to the UI as it
// arrives, redacted for display (spec §8): whole lines only, so a secret
// cut between two writes is still seen whole. At most liveOutputMax bytes
// are sent; the UI shows the rest from the (redacted) result.
type liveOutput struct {
	// mu: after a timeout the copy goroutine may still deliver a chunk
	// while the call flushes.
	mu    sync.Mutex
	c     *Call
	label string
	red   redact.Stream
	seq   int
	sent  int
}

// chunk takes the next text of the stream; it wants no more once the
// limit is sent (or with nothing to send to).
func (l *liveOutput) chunk(_ int, text string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.c.Env.Emit == nil || l.sent >= liveOutputMax {
		return false
	}
	l.send(l.red.Write(text))
	return l.sent < liveOutputMax
}

// flush sends a last partial line once the stream has closed.
func (l *liveOutput) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.c.Env.Emit == nil || l.sent >= liveOutputMax {
		return
	}
	l.send(l.red.Flush())
}

func (l *liveOutput) send(text string) {
	if text == "" {
		return
	}
	l.sent += len(text)
	ev := map[string]any{"sessionId": l.c.SessionID, "toolCallId": l.c.Env.ToolCallID, "stream": l.label, "seq": l.seq, "text": text}
	l.seq++
	if l.sent >= liveOutputMax {
		ev["paused"] = true // the UI shows the rest from the result
	}
	l.c.Env.Emit(EventToolOutput, ev)
}
