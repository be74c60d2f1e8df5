package bash

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// assertGolden compares got with testdata/<name>.golden.
func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join("testdata", name+".golden"), got)
}

func TestMarkerGolden(t *testing.T) {
	okSpill := func() *memSpill { return &memSpill{} }
	badSpill := func() *memSpill { return &memSpill{openErr: errors.New("no space")} }
	tests := []struct {
		name  string
		kind  Stream
		spill *memSpill
		in    string
	}{
		{"stdout_lines_saved", Stdout, okSpill(), lines("l", 51234)},
		{"stderr_lines_saved", Stderr, okSpill(), lines("l", 51234)},
		{"stdout_bytes_saved", Stdout, okSpill(), lines(strings.Repeat("w", 200), 600)},
		{"stdout_not_saved", Stdout, nil, lines("l", 5000)},
		{"stderr_spill_failed", Stderr, badSpill(), lines("l", 5000)},
		{"stdout_clipped_line", Stdout, okSpill(), "short\n" + strings.Repeat("z", 200_000) + "\nend\n"},
		{"stderr_clipped_line", Stderr, okSpill(), "start\n" + strings.Repeat("z", 200_000) + "\n"},
		{"stdout_partially_saved", Stdout, okSpill(), lines("row ", 200_000)},
		{"stderr_partially_saved", Stderr, okSpill(), lines("row ", 200_000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts CaptureOptions
			if tt.spill != nil {
				opts.Spill = tt.spill.open
			}
			o := feed(t, NewCapture(tt.kind, opts), tt.in, 65536)
			assertGolden(t, "marker_"+tt.name, o.Marker+"\n")
		})
	}
}

func TestFormatGolden(t *testing.T) {
	lim := Limits{ModelBytes: 64, ModelLines: 3}
	run := func(kind Stream, in string) Output {
		return feed(t, NewCapture(kind, CaptureOptions{Limits: lim, Spill: (&memSpill{}).open}), in, 5)
	}
	tests := []struct {
		name     string
		out, err Output
		code     int
	}{
		{"format_ok", run(Stdout, "hello\nworld\n"), run(Stderr, ""), 0},
		{"format_failed_both_truncated", run(Stdout, lines("out ", 10)), run(Stderr, lines("err ", 10)), 2},
		{"format_killed_no_newline", run(Stdout, "partial"), run(Stderr, "warning: x"), -1},
		{"format_clipped", run(Stdout, strings.Repeat("é", 100)), run(Stderr, strings.Repeat("ü", 100)+"\n"), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertGolden(t, tt.name, Format(tt.out, tt.err, tt.code)+"\n")
		})
	}
}

// Stdout and stderr never mix: each section holds only its stream's text.
func TestFormatKeepsStreamsApart(t *testing.T) {
	out := feed(t, NewCapture(Stdout, CaptureOptions{}), "OUT1\nOUT2\n", 3)
	errOut := feed(t, NewCapture(Stderr, CaptureOptions{}), "ERR1\n", 2)
	got := Format(out, errOut, 1)
	i, j := strings.Index(got, "[stdout]"), strings.Index(got, "[stderr]")
	if i < 0 || j < i || strings.Contains(got[i:j], "ERR") || strings.Contains(got[j:], "OUT") {
		t.Fatalf("streams mixed:\n%s", got)
	}
}
