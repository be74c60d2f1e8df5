package tools_test

import (
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// AppendBounded keeps the tail whole and the result within the bound,
// cutting the content (at a whole line, marked) only when it must.
func TestAppendBounded(t *testing.T) {
	line := strings.Repeat("a", 99) + "\n"
	tail := "[note one]\n[note two]"
	for _, tt := range []struct {
		name    string
		content string
		cut     bool
	}{
		{"short", "text", false},
		{"short with a newline", "text\n", false},
		{"near the byte bound", strings.Repeat(line, tools.ResultMaxBytes/len(line)) + strings.Repeat("c", tools.ResultMaxBytes%len(line)-10) + "\n", true},
		{"at the line bound", strings.Repeat("x\n", tools.ResultMaxLines-1), true},
		{"one long line", strings.Repeat("b", tools.ResultMaxBytes), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := tools.AppendBounded(tools.Result{OK: true, Content: tt.content}, tail)
			if !strings.HasSuffix(r.Content, "\n"+tail) {
				t.Errorf("the tail is not whole at the end: %q", r.Content[max(len(r.Content)-100, 0):])
			}
			if len(r.Content) > tools.ResultMaxBytes || strings.Count(r.Content, "\n") >= tools.ResultMaxLines {
				t.Errorf("%d bytes, %d lines: over the bound", len(r.Content), strings.Count(r.Content, "\n"))
			}
			if r.Truncated != tt.cut || strings.Contains(r.Content, "[truncated: kept the first ") != tt.cut {
				t.Errorf("truncated = %v, want %v", r.Truncated, tt.cut)
			}
			if !tt.cut && r.Content != strings.TrimSuffix(tt.content, "\n")+"\n"+tail {
				t.Errorf("content = %q", r.Content)
			}
		})
	}
	if r := tools.AppendBounded(tools.Result{Content: "x"}, ""); r.Content != "x" {
		t.Errorf("an empty tail changed the content: %q", r.Content)
	}
}
