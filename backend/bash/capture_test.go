package bash

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// memSpill is a Spill target in memory.
type memSpill struct {
	mu      sync.Mutex
	calls   int
	buf     bytes.Buffer
	closed  bool
	failAt  int // fail the write that would pass this many bytes (0 = never)
	openErr error
}

func (m *memSpill) open() (io.WriteCloser, string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	if m.openErr != nil {
		return nil, "", m.openErr
	}
	return m, "/scratch/s1/tool-output/bash-1700000000000-1.log", nil
}

func (m *memSpill) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failAt > 0 && m.buf.Len()+len(p) > m.failAt {
		return 0, errors.New("disk full")
	}
	return m.buf.Write(p)
}

func (m *memSpill) Close() error { m.closed = true; return nil }

// feed writes s in chunks of n bytes, closes c and returns its Result.
func feed(t testing.TB, c *Capture, s string, n int) Output {
	t.Helper()
	for len(s) > 0 {
		k := min(n, len(s))
		if w, err := c.Write([]byte(s[:k])); err != nil || w != k {
			t.Fatalf("Write = %d, %v", w, err)
		}
		s = s[k:]
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return c.Result()
}

func lines(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s%d\n", prefix, i)
	}
	return b.String()
}

var small = Limits{ModelBytes: 40, ModelLines: 4, MemoryBytes: 200, SpillBytes: 200}

func TestHeadTailSelection(t *testing.T) {
	long := strings.Repeat("x", 100)
	tests := []struct {
		name    string
		kind    Stream
		in      string
		text    string
		trunc   bool
		kept    int64
		clipped int64
	}{
		{"stdout fits", Stdout, "a\nb\n", "a\nb\n", false, 2, 0},
		{"stdout fits without final newline", Stdout, "a\nb", "a\nb", false, 2, 0},
		{"stdout exactly the line limit", Stdout, "1\n2\n3\n4\n", "1\n2\n3\n4\n", false, 4, 0},
		{"stdout line limit keeps the head", Stdout, "1\n2\n3\n4\n5\n6\n", "1\n2\n3\n4\n", true, 4, 0},
		{"stdout partial fifth line counts", Stdout, "1\n2\n3\n4\n5", "1\n2\n3\n4\n", true, 4, 0},
		{"stdout byte limit cuts at a whole line", Stdout, lines("line-", 8), "line-1\nline-2\nline-3\nline-4\n", true, 4, 0},
		{"stdout byte limit, whole lines", Stdout, "aaaaaaaaaaaaaaaaaaaaaaaaa\nbbbbbbbbbbbbbbbbbbbbbbbbbbb\n", "aaaaaaaaaaaaaaaaaaaaaaaaa\n", true, 1, 0},
		{"stdout long first line clipped", Stdout, long + "\nnext\n", long[:40], true, 0, 1},
		{"stdout short line then long line clipped", Stdout, "ok\n" + long + "\n", "ok\n" + long[:37], true, 1, 2},
		{"stdout long line without newline", Stdout, long, long[:40], true, 0, 1},
		{"stderr fits", Stderr, "e1\ne2\n", "e1\ne2\n", false, 2, 0},
		{"stderr line limit keeps the tail", Stderr, "1\n2\n3\n4\n5\n6\n", "3\n4\n5\n6\n", true, 4, 0},
		{"stderr tail without final newline", Stderr, "1\n2\n3\n4\n5\n6", "3\n4\n5\n6", true, 4, 0},
		{"stderr byte limit cuts at a whole line", Stderr, lines("line-", 8), "line-5\nline-6\nline-7\nline-8\n", true, 4, 0},
		{"stderr long last line clipped", Stderr, "first\n" + long + "\n", long[len(long)-39:] + "\n", true, 0, 2},
		{"stderr long line then short", Stderr, long + "\nok\n", long[len(long)-36:] + "\nok\n", true, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, chunk := range []int{1, 3, 1 << 20} {
				o := feed(t, NewCapture(tt.kind, CaptureOptions{Limits: small}), tt.in, chunk)
				if o.Text != tt.text || o.Truncated != tt.trunc || o.KeptLines != tt.kept || o.ClippedLine != tt.clipped {
					t.Fatalf("chunk %d: got text %q truncated %v kept %d clipped %d\nwant text %q truncated %v kept %d clipped %d",
						chunk, o.Text, o.Truncated, o.KeptLines, o.ClippedLine, tt.text, tt.trunc, tt.kept, tt.clipped)
				}
				if o.TotalBytes != int64(len(tt.in)) || o.TotalLines != countLines([]byte(tt.in)) || o.KeptBytes != int64(len(o.Text)) {
					t.Fatalf("totals: %+v", o)
				}
				if o.Truncated != (o.Marker != "") {
					t.Fatalf("marker %q with truncated=%v", o.Marker, o.Truncated)
				}
				if o.ClippedLine > 0 && !strings.Contains(o.Marker, fmt.Sprintf("of line %d (clipped", o.ClippedLine)) {
					t.Fatalf("clipped line not marked: %q", o.Marker)
				}
			}
		})
	}
}

// 100 MB+ through each stream: retention stays at the memory bound and the
// totals stay exact.
func TestCaptureMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 2 x 101 MB")
	}
	const total = 101 << 20
	line := []byte(strings.Repeat("y", 99) + "\n") // 100 bytes
	chunk := bytes.Repeat(line, 320)               // 32,000 bytes
	for _, kind := range []Stream{Stdout, Stderr} {
		t.Run(kind.String(), func(t *testing.T) {
			sp := &memSpill{}
			c := NewCapture(kind, CaptureOptions{Spill: sp.open})
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			written := 0
			for written+len(chunk) <= total {
				c.Write(chunk)
				written += len(chunk)
			}
			c.Write(chunk[:total-written])
			c.Close()
			runtime.ReadMemStats(&after)
			o := c.Result()
			if o.TotalBytes != total || o.TotalLines != (total+99)/100 {
				t.Fatalf("totals %d bytes %d lines", o.TotalBytes, o.TotalLines)
			}
			if o.RetainedBytes > DefaultMemoryBytes {
				t.Fatalf("retained %d bytes, bound %d", o.RetainedBytes, DefaultMemoryBytes)
			}
			if o.KeptBytes > DefaultModelBytes || o.KeptLines > DefaultModelLines {
				t.Fatalf("model-facing %d bytes %d lines", o.KeptBytes, o.KeptLines)
			}
			if sp.buf.Len() > DefaultSpillBytes || int64(sp.buf.Len()) != o.SpillBytes {
				t.Fatalf("spill %d bytes, result says %d", sp.buf.Len(), o.SpillBytes)
			}
			// Everything the Capture allocated for 101 MB: its buffers plus
			// small change, nowhere near the data size.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
				t.Fatalf("allocated %d bytes for %d bytes of output", alloc, total)
			}
			t.Logf("%s: retained %d, spilled %d, marker %s", kind, o.RetainedBytes, o.SpillBytes, o.Marker)
		})
	}
}

func TestUTF8SplitAtEveryBoundary(t *testing.T) {
	const s = "aé€😀z\n—ü𝄞\n"
	for _, kind := range []Stream{Stdout, Stderr} {
		for i := 0; i <= len(s); i++ {
			for j := i; j <= len(s); j++ {
				var got strings.Builder
				next := 0
				c := NewCapture(kind, CaptureOptions{OnChunk: func(seq int, text string) bool {
					if seq != next {
						t.Fatalf("seq %d, want %d", seq, next)
					}
					next++
					if !utf8.ValidString(text) {
						t.Fatalf("split %d,%d: chunk %q is not valid UTF-8", i, j, text)
					}
					got.WriteString(text)
					return true
				}})
				c.Write([]byte(s[:i]))
				if mid := c.Result().Text; !utf8.ValidString(mid) || !strings.HasPrefix(s, mid) {
					t.Fatalf("split %d: snapshot %q is not a clean prefix", i, mid)
				}
				c.Write([]byte(s[i:j]))
				c.Write([]byte(s[j:]))
				c.Close()
				if got.String() != s {
					t.Fatalf("%s split %d,%d: chunks %q, want %q", kind, i, j, got.String(), s)
				}
				if r := c.Result(); r.Text != s {
					t.Fatalf("%s split %d,%d: result %q", kind, i, j, r.Text)
				}
			}
		}
	}
}

func TestUTF8InvalidBytes(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"invalid byte mid-stream", []string{"a\xffb"}, "a\uFFFDb"},
		{"lead byte then ASCII", []string{"a\xe2", "(b"}, "a\uFFFD(b"},
		{"lead then bad continuation", []string{"\xe2\x82", "x"}, "\uFFFDx"},
		{"incomplete at close", []string{"ok\xe2\x82"}, "ok\uFFFD"},
		{"valid after a held byte", []string{"\xf0", "\x9f", "\x98", "\x80!"}, "😀!"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got strings.Builder
			c := NewCapture(Stdout, CaptureOptions{OnChunk: func(_ int, s string) bool {
				if !utf8.ValidString(s) {
					t.Fatalf("chunk %q invalid", s)
				}
				got.WriteString(s)
				return true
			}})
			for _, w := range tt.writes {
				c.Write([]byte(w))
			}
			c.Close()
			if got.String() != tt.want {
				t.Errorf("chunks %q, want %q", got.String(), tt.want)
			}
			if r := c.Result().Text; !utf8.ValidString(r) {
				t.Errorf("result %q invalid", r)
			}
		})
	}
}

func TestSpillLazyAndContents(t *testing.T) {
	t.Run("no overflow, no file", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "tool-output")
		c := NewCapture(Stdout, CaptureOptions{Spill: FileSpill(dir, SpillFileName("bash", 1, 1))})
		o := feed(t, c, lines("ok ", 100), 7)
		if o.Truncated || o.SpillPath != "" {
			t.Fatalf("%+v", o)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Fatalf("tool-output created without a spill: %v", err)
		}
	})
	for _, kind := range []Stream{Stdout, Stderr} {
		t.Run(kind.String()+" full output saved", func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "tool-output")
			name := SpillFileName("bash "+kind.String(), 1700000000000, 3)
			in := lines("row ", 20000) // ~188 KB, 20,000 lines: over 96 KB and 4,000 lines
			o := feed(t, NewCapture(kind, CaptureOptions{Spill: FileSpill(dir, name)}), in, 4096)
			if o.SpillPath != filepath.Join(dir, "bashstdout-1700000000000-3.log") && o.SpillPath != filepath.Join(dir, "bashstderr-1700000000000-3.log") {
				t.Fatalf("spill path %q", o.SpillPath)
			}
			got, err := os.ReadFile(o.SpillPath)
			if err != nil || string(got) != in {
				t.Fatalf("spill file: %d bytes, err %v; want the whole %d bytes", len(got), err, len(in))
			}
			if !strings.Contains(o.Marker, "Full output saved to "+o.SpillPath) || o.KeptLines != 4000 {
				t.Fatalf("marker %q kept %d", o.Marker, o.KeptLines)
			}
			if fi, _ := os.Stat(o.SpillPath); fi.Mode().Perm() != 0o600 {
				t.Errorf("spill mode %v", fi.Mode())
			}
		})
		t.Run(kind.String()+" beyond the spill limit", func(t *testing.T) {
			sp := &memSpill{}
			in := lines("row ", 100000) // ~1 MB
			o := feed(t, NewCapture(kind, CaptureOptions{Spill: sp.open}), in, 32<<10)
			got := sp.buf.String()
			if len(got) > DefaultSpillBytes || !sp.closed || sp.calls != 1 {
				t.Fatalf("spill %d bytes closed %v calls %d", len(got), sp.closed, sp.calls)
			}
			if kind == Stdout && !strings.HasPrefix(in, got) || kind == Stderr && !strings.HasSuffix(in, got) {
				t.Fatalf("spill is not the %s of the output", map[Stream]string{Stdout: "head", Stderr: "tail"}[kind])
			}
			if !strings.HasSuffix(got, "\n") || !strings.HasPrefix(got, "row ") {
				t.Fatalf("spill not cut at whole lines: %q...%q", got[:10], got[len(got)-10:])
			}
			if o.SpillBytes != int64(len(got)) || o.SpillLines != int64(strings.Count(got, "\n")) {
				t.Fatalf("result says %d bytes %d lines", o.SpillBytes, o.SpillLines)
			}
			if !strings.Contains(o.Marker, fmt.Sprintf("%d bytes (%d lines) were not kept", len(in)-len(got), 100000-strings.Count(got, "\n"))) {
				t.Fatalf("marker %q", o.Marker)
			}
		})
	}
}

func TestSpillFailureCostsOnlyTheHint(t *testing.T) {
	in := lines("row ", 30000)
	for _, kind := range []Stream{Stdout, Stderr} {
		for name, sp := range map[string]*memSpill{
			"open fails":  {openErr: errors.New("read-only file system")},
			"write fails": {failAt: 1000},
		} {
			t.Run(kind.String()+" "+name, func(t *testing.T) {
				c := NewCapture(kind, CaptureOptions{Spill: sp.open})
				o := feed(t, c, in, 8192) // feed fails the test on any Write error
				if o.SpillPath != "" || !strings.Contains(o.Marker, "The full output was not saved") {
					t.Fatalf("path %q marker %q", o.SpillPath, o.Marker)
				}
				if c.SpillErr() == nil || o.KeptLines != 4000 || o.TotalLines != 30000 {
					t.Fatalf("SpillErr %v, kept %d of %d", c.SpillErr(), o.KeptLines, o.TotalLines)
				}
			})
		}
	}
}

func TestNoSpillFuncSaysNotSaved(t *testing.T) {
	o := feed(t, NewCapture(Stderr, CaptureOptions{}), lines("e", 5000), 1000)
	if o.SpillPath != "" || !strings.Contains(o.Marker, `2> "$PI_SCRATCH_DIR/stderr.log"`) {
		t.Fatalf("marker %q", o.Marker)
	}
}

func TestWriteAfterCloseIsRefused(t *testing.T) {
	c := NewCapture(Stdout, CaptureOptions{})
	c.Close()
	if n, err := c.Write([]byte("late")); err == nil || n != 0 {
		t.Fatalf("Write after Close = %d, %v", n, err)
	}
	if c.Close() != nil {
		t.Fatal("second Close failed")
	}
}

// One writer, several snapshot readers, under -race.
func TestCaptureConcurrentSnapshots(t *testing.T) {
	for _, kind := range []Stream{Stdout, Stderr} {
		sp := &memSpill{}
		var chunks int
		c := NewCapture(kind, CaptureOptions{Spill: sp.open, OnChunk: func(int, string) bool { chunks++; return true }})
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					o := c.Result()
					if o.KeptBytes > DefaultModelBytes || !utf8.ValidString(o.Text) {
						t.Errorf("snapshot out of bounds: %d bytes", o.KeptBytes)
						return
					}
				}
			}()
		}
		line := []byte("snapshot ü line\n")
		for range 20000 {
			c.Write(line)
		}
		c.Close()
		close(stop)
		wg.Wait()
		if o := c.Result(); o.TotalLines != 20000 || chunks != 20000 {
			t.Fatalf("%d lines, %d chunks", o.TotalLines, chunks)
		}
	}
}

// The spill file holds exactly what the marker says: never a partial line
// written while the stream was still running.
func TestSpillFileMatchesMarker(t *testing.T) {
	dir := t.TempDir()
	c := NewCapture(Stdout, CaptureOptions{Spill: FileSpill(dir, "out.log"), Limits: Limits{ModelBytes: 20, ModelLines: 100, MemoryBytes: 200, SpillBytes: 60}})
	line := []byte("abcdefghij\n") // 11 bytes: 60 is not a multiple
	for range 30 {
		c.Write(line)
	}
	c.Close()
	out := c.Result()
	b, err := os.ReadFile(out.SpillPath)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(b)) != out.SpillBytes || len(b)%len(line) != 0 {
		t.Errorf("spill file has %d bytes, marker says %d", len(b), out.SpillBytes)
	}
}

// TestOnChunkStopsWhenNotWanted: once OnChunk says it wants no more, the
// later writes are counted and kept as always but not handed to it, and
// Close sends nothing more.
func TestOnChunkStopsWhenNotWanted(t *testing.T) {
	var calls []string
	c := NewCapture(Stdout, CaptureOptions{OnChunk: func(_ int, s string) bool {
		calls = append(calls, s)
		return len(calls) < 2
	}})
	for _, w := range []string{"one\n", "two\n", "three\n", "four \xe2\x82"} {
		c.Write([]byte(w))
	}
	c.Close()
	if want := []string{"one\n", "two\n"}; !slices.Equal(calls, want) {
		t.Errorf("chunks %q, want %q", calls, want)
	}
	if r := c.Result(); r.TotalLines != 4 || !strings.HasPrefix(r.Text, "one\ntwo\nthree\nfour ") {
		t.Errorf("result %q (%d lines): the writes after the last chunk were not kept", r.Text, r.TotalLines)
	}
}
