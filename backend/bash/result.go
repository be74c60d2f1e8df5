package bash

import (
	"bytes"
	"fmt"
	"strings"
)

// Result returns the bounded Output as of now. It may run while the
// command still writes; after Close it is final.
func (c *Capture) Result() Output {
	lim := c.lim
	c.mu.Lock()
	o := Output{Stream: c.kind, TotalBytes: c.total, TotalLines: c.linesLocked(), Limits: lim}
	closed := c.closed
	spillPath := c.spillPath
	var window []byte // stdout: a prefix of head; stderr: a suffix of the ring
	atStart := true   // stderr: window[0] starts a line
	var spillBytes, spillLines, spillPartial int64
	if c.kind == Stdout {
		o.RetainedBytes = int64(len(c.head))
		window = c.head[:min(len(c.head), lim.ModelBytes+1)]
		if spillPath != "" {
			e := spillHeadEnd(c.head, c.total, lim.SpillBytes, true)
			spillBytes, spillLines = int64(e), countLines(c.head[:e])
			if e > 0 && c.head[e-1] != '\n' {
				spillPartial = 1 // the line cut by the limit is also partly omitted
			}
		}
	} else {
		o.RetainedBytes = int64(c.ring.Len())
		window = c.ring.AppendTail(nil, lim.ModelBytes+1)
		if int64(len(window)) < c.total {
			if len(window) == c.ring.Len() {
				b, _ := c.ring.PrevByte()
				atStart = b == '\n'
			} else {
				atStart = false
			}
		}
		if spillPath != "" {
			tail := c.ring.AppendTail(nil, lim.SpillBytes+1)
			s := spillTailStart(tail, c.total, lim.SpillBytes)
			spillBytes, spillLines = int64(len(tail)-s), countLines(tail[s:])
			if int64(len(tail)-s) < c.total && (s == 0 || tail[s-1] != '\n') {
				spillPartial = 1
			}
		}
	}
	if c.kind == Stdout {
		// head's bytes never change once written; copy only what is used.
		window = bytes.Clone(window)
	}
	c.mu.Unlock()

	if !closed {
		// A sequence still being written is not shown half-done.
		window = window[:completePrefix(window)]
	}
	if o.TotalBytes <= int64(lim.ModelBytes) && o.TotalLines <= int64(lim.ModelLines) {
		o.Text = validText(window)
		o.KeptBytes, o.KeptLines = int64(len(window)), o.TotalLines
		return o
	}
	o.Truncated = true
	var kept []byte
	if c.kind == Stdout {
		kept, o.KeptLines, o.ClippedLine = selectHead(window, lim)
	} else {
		kept, o.KeptLines, o.ClippedLine = selectTail(window, atStart, o.TotalLines, lim)
	}
	o.Text = validText(kept)
	o.KeptBytes = int64(len(kept))
	if spillPath != "" {
		o.SpillPath, o.SpillBytes, o.SpillLines = spillPath, spillBytes, spillLines
	}
	o.Marker = marker(o, o.TotalLines-spillLines+spillPartial)
	return o
}

// selectHead keeps the first lines of w within the limits, cut at a whole
// line. When the byte limit stops a line that would leave less than half
// the byte budget used, that line is clipped at the limit instead, so one
// long line cannot hide everything after a short one.
func selectHead(w []byte, lim Limits) (kept []byte, lines, clipped int64) {
	cut := 0
	for lines < int64(lim.ModelLines) {
		i := bytes.IndexByte(w[cut:], '\n')
		if i < 0 || cut+i+1 > lim.ModelBytes {
			break
		}
		cut += i + 1
		lines++
	}
	if lines < int64(lim.ModelLines) && cut < lim.ModelBytes/2 && cut < len(w) {
		end := min(len(w), lim.ModelBytes)
		end = completePrefix(w[:end])
		return w[:end], lines, lines + 1
	}
	return w[:cut], lines, 0
}

// selectTail keeps the last lines of w (which ends at the end of the
// stream) within the limits. atStart says whether w[0] begins a line. The
// clip rule mirrors selectHead's: the clipped line keeps its end.
func selectTail(w []byte, atStart bool, totalLines int64, lim Limits) (kept []byte, lines, clipped int64) {
	end := len(w)
	start := end
	for lines < int64(lim.ModelLines) && start > 0 {
		// The line ending at start: its own '\n' (if any) is at start-1.
		search := start
		if w[start-1] == '\n' {
			search--
		}
		ls := bytes.LastIndexByte(w[:search], '\n') + 1
		if ls == 0 && !atStart {
			break // its beginning is not in the window: longer than the limit
		}
		if end-ls > lim.ModelBytes {
			break
		}
		start = ls
		lines++
	}
	if lines < int64(lim.ModelLines) && end-start < lim.ModelBytes/2 && start > 0 {
		s := max(end-lim.ModelBytes, 0)
		s += skipContinuation(w[s:])
		return w[s:], lines, totalLines - lines
	}
	return w[start:], lines, 0
}

func countLines(b []byte) int64 {
	n := int64(bytes.Count(b, newline))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

func validText(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") }

// marker builds the truncation marker (decisions.md): which end survived,
// how much of the total was kept, the limit, and where to get the rest.
func marker(o Output, omittedLines int64) string {
	var b strings.Builder
	end, part := "first", "the start"
	if o.Stream == Stderr {
		end, part = "last", "the end"
	}
	fmt.Fprintf(&b, "[truncated: kept the %s %d of %d lines", end, o.KeptLines, o.TotalLines)
	if o.ClippedLine > 0 {
		fmt.Fprintf(&b, " and %s of line %d (clipped at the limit)", part, o.ClippedLine)
	}
	fmt.Fprintf(&b, "; limit %d lines / %s. ", o.Limits.ModelLines, size(o.Limits.ModelBytes))
	switch {
	case o.SpillPath == "":
		redirect := ">"
		if o.Stream == Stderr {
			redirect = "2>"
		}
		fmt.Fprintf(&b, "The full output was not saved; re-run the command with %s redirected to a file under $PI_SCRATCH_DIR (e.g. %s \"$PI_SCRATCH_DIR/%s.log\"), then Grep it, or Read it with offset/limit.]",
			o.Stream, redirect, o.Stream)
	case o.SpillBytes >= o.TotalBytes:
		fmt.Fprintf(&b, "Full output saved to %s; Grep it, or Read it with offset/limit.]", o.SpillPath)
	default:
		other := "later"
		if o.Stream == Stderr {
			other = "earlier"
		}
		fmt.Fprintf(&b, "The %s %d of %d bytes (%d lines) saved to %s; Grep it, or Read it with offset/limit. The %s %d bytes (%d lines) were not kept (capture limit %s).]",
			end, o.SpillBytes, o.TotalBytes, o.SpillLines, o.SpillPath, other, o.TotalBytes-o.SpillBytes, omittedLines, size(o.Limits.SpillBytes))
	}
	return b.String()
}

func size(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%dKB", n/1024)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Format builds the model-facing text of a finished command: the exit
// code, then stdout and stderr in separate sections that never mix, each
// with its truncation marker at the end that lost data. A negative exitCode
// means the process left no exit status (killed).
func Format(stdout, stderr Output, exitCode int) string {
	var b strings.Builder
	if exitCode < 0 {
		b.WriteString("exit code: none (the process was terminated)\n")
	} else {
		fmt.Fprintf(&b, "exit code: %d\n", exitCode)
	}
	section(&b, "stdout", stdout)
	section(&b, "stderr", stderr)
	return strings.TrimSuffix(b.String(), "\n")
}

func section(b *strings.Builder, name string, o Output) {
	if o.TotalBytes == 0 {
		fmt.Fprintf(b, "[%s: empty]\n", name)
		return
	}
	fmt.Fprintf(b, "[%s]\n", name)
	s := o.WithMarker()
	b.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
}
