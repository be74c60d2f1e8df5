package review

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func numbered(n int, prefix string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", prefix, i)
	}
	return b.String()
}

func TestPreviewChange(t *testing.T) {
	tests := []struct {
		name          string
		before        string
		beforePresent bool
		after         string
		afterPresent  bool
		want          Preview
	}{
		{"new file", "", false, "a\nb\n", true, Preview{Diff: "@@ -0,0 +1,2 @@\n+a\n+b\n", Note: "new file", Additions: 2}},
		{"one line changed", "a\nb\nc\n", true, "a\nB\nc\n", true, Preview{Diff: "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", Additions: 1, Deletions: 1}},
		{"removed file", "x\n", true, "", false, Preview{Diff: "@@ -1,1 +0,0 @@\n-x\n", Note: "deletes the file", Deletions: 1}},
		{"same content", "a\n", true, "a\n", true, Preview{Note: "no change to the file's content"}},
		{"binary before", "\x00\x01", true, "text\n", true, Preview{Note: "binary file: no diff preview"}},
		{"binary after", "", false, "ok\x00", true, Preview{Note: "binary file: no diff preview"}},
		{"invalid utf-8", "\xff\xfe\n", true, "a\n", true, Preview{Note: "binary file: no diff preview"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := PreviewChange([]byte(tt.before), tt.beforePresent, []byte(tt.after), tt.afterPresent)
			if diff := cmp.Diff(tt.want, p); diff != "" {
				t.Errorf("PreviewChange (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreviewChangeIsBounded(t *testing.T) {
	t.Run("lines", func(t *testing.T) {
		p := PreviewChange(nil, false, []byte(numbered(5000, "line")), true)
		lines := strings.Split(strings.TrimSuffix(p.Diff, "\n"), "\n")
		// hunk header + PreviewMaxLines rows + the marker
		if !p.Truncated || len(lines) != PreviewMaxLines+2 || p.Additions != 5000 {
			t.Fatalf("truncated=%v lines=%d adds=%d", p.Truncated, len(lines), p.Additions)
		}
		if want := fmt.Sprintf("[diff truncated: %d more lines]", 5000-PreviewMaxLines); lines[len(lines)-1] != want {
			t.Errorf("marker = %q, want %q", lines[len(lines)-1], want)
		}
		if lines[1] != "+line 1" || lines[PreviewMaxLines] != fmt.Sprintf("+line %d", PreviewMaxLines) {
			t.Errorf("kept the wrong lines: %q … %q", lines[1], lines[PreviewMaxLines])
		}
	})
	t.Run("bytes", func(t *testing.T) {
		row := strings.Repeat("x", 300) + "\n"
		p := PreviewChange([]byte("a\n"), true, []byte("a\n"+strings.Repeat(row, 150)), true)
		if !p.Truncated || len(p.Diff) > PreviewMaxBytes+64 || !strings.Contains(p.Diff, "[diff truncated: ") {
			t.Fatalf("%d bytes, truncated=%v", len(p.Diff), p.Truncated)
		}
	})
	t.Run("one long line", func(t *testing.T) {
		p := PreviewChange(nil, false, []byte(strings.Repeat("é", 5000)), true)
		if p.Truncated || !strings.HasSuffix(p.Diff, "…\n") || len(p.Diff) > 2*previewMaxLineRune+64 {
			t.Fatalf("long line: truncated=%v %d bytes", p.Truncated, len(p.Diff))
		}
	})
	t.Run("too large to diff", func(t *testing.T) {
		big := []byte(strings.Repeat("y\n", MaxDiffBytes))
		p := PreviewChange(big, true, append(big, "z\n"...), true)
		if p.Diff != "" || !strings.Contains(p.Note, "too large") {
			t.Fatalf("big = %+v", p)
		}
	})
	t.Run("hunks across the cap", func(t *testing.T) {
		before := numbered(1000, "l")
		after := strings.ReplaceAll(before, "0\n", "0!\n") // every tenth line changes
		p := PreviewChange([]byte(before), true, []byte(after), true)
		if !p.Truncated || p.Additions != 100 || p.Deletions != 100 {
			t.Fatalf("%+v", p)
		}
		rows := 0
		for l := range strings.SplitSeq(p.Diff, "\n") {
			if l != "" && (l[0] == ' ' || l[0] == '+' || l[0] == '-') {
				rows++
			}
		}
		if rows != PreviewMaxLines {
			t.Errorf("rows shown = %d, want %d", rows, PreviewMaxLines)
		}
	})
}
