package bash

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// chunkReader hands out its data in pipe-sized reads and hides WriterTo, so
// io.Copy moves the bytes the way a pipe reader does.
type chunkReader struct {
	data []byte
	off  int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.off >= len(r.data) {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 32<<10)], r.data[r.off:])
	r.off += n
	return n, nil
}

func benchData() []byte {
	line := "2026-11-29T23:09:04Z INFO compiling package github.com/example/mod/pkg — ok (ü)\n"
	return bytes.Repeat([]byte(line), (16<<20)/len(line)) // ~16 MB
}

// BenchmarkCaptureVsCopy compares Capture's throughput with a plain io.Copy
// into io.Discard of the same bytes in the same 32 KB reads; the ratio is
// copy ns/op over capture ns/op (decisions.md budget: ≥ 0.8).
func BenchmarkCaptureVsCopy(b *testing.B) {
	data := benchData()
	buf := make([]byte, 32<<10)
	run := func(b *testing.B, mk func() io.WriteCloser) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			w := mk()
			if _, err := io.CopyBuffer(w, &chunkReader{data: data}, buf); err != nil {
				b.Fatal(err)
			}
			w.Close()
		}
	}
	b.Run("copy", func(b *testing.B) {
		run(b, func() io.WriteCloser { return nopCloser{onlyWriter{io.Discard}} })
	})
	for _, kind := range []Stream{Stdout, Stderr} {
		b.Run("capture-"+kind.String(), func(b *testing.B) {
			run(b, func() io.WriteCloser { return NewCapture(kind, CaptureOptions{Spill: (&discardSpill{}).open}) })
		})
		b.Run("capture-"+kind.String()+"-chunks", func(b *testing.B) {
			run(b, func() io.WriteCloser {
				return NewCapture(kind, CaptureOptions{OnChunk: func(int, string) bool { return true }, Spill: (&discardSpill{}).open})
			})
		})
	}
}

// BenchmarkCaptureMemory writes 128 MB per op; allocs/op and B/op show
// that memory does not grow with the output.
func BenchmarkCaptureMemory(b *testing.B) {
	chunk := []byte(strings.Repeat("m", 1023) + "\n")
	chunk = bytes.Repeat(chunk, 32)
	for _, kind := range []Stream{Stdout, Stderr} {
		b.Run(kind.String(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(128 << 20)
			for b.Loop() {
				c := NewCapture(kind, CaptureOptions{})
				for range (128 << 20) / len(chunk) {
					c.Write(chunk)
				}
				c.Close()
				if c.Result().RetainedBytes > DefaultMemoryBytes {
					b.Fatal("memory bound exceeded")
				}
			}
		})
	}
}

type onlyWriter struct{ io.Writer }
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

type discardSpill struct{}

func (discardSpill) Write(p []byte) (int, error) { return len(p), nil }
func (discardSpill) Close() error                { return nil }
func (d *discardSpill) open() (io.WriteCloser, string, error) {
	return d, "/dev/null/spill.log", nil
}

// BenchmarkCaptureVsCopyPipe is the same comparison through a real OS pipe,
// the way the process layer feeds a Capture.
func BenchmarkCaptureVsCopyPipe(b *testing.B) {
	data := benchData()
	buf := make([]byte, 32<<10)
	run := func(b *testing.B, mk func() io.WriteCloser) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			r, w, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			go func() { w.Write(data); w.Close() }()
			dst := mk()
			if _, err := io.CopyBuffer(dst, onlyReader{r}, buf); err != nil {
				b.Fatal(err)
			}
			dst.Close()
			r.Close()
		}
	}
	b.Run("copy", func(b *testing.B) {
		run(b, func() io.WriteCloser { return nopCloser{onlyWriter{io.Discard}} })
	})
	for _, kind := range []Stream{Stdout, Stderr} {
		b.Run("capture-"+kind.String(), func(b *testing.B) {
			run(b, func() io.WriteCloser { return NewCapture(kind, CaptureOptions{Spill: (&discardSpill{}).open}) })
		})
	}
}

type onlyReader struct{ io.Reader }
