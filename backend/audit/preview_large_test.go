package audit_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/audit"
)

// The preview of a huge string argument (a 19 MB Write content) redacts a
// bounded head of it, not the whole value; a secret in or across the shown
// part is still redacted.
func TestPreviewOfAHugeValueRedactsItsHead(t *testing.T) {
	key := "sk-ant-api03-" + strings.Repeat("aB3x", 10) // key-shaped: mixed case and digits
	tests := []struct{ name, content string }{
		{"secret shown", "key " + key + " " + strings.Repeat("x", 19<<20)},
		{"secret across the cut", strings.Repeat("y", audit.PreviewMaxString-10) + " " + key + strings.Repeat("x", 19<<20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]any{"path": "big.txt", "content": tt.content})
			p := audit.Preview(args)
			if strings.Contains(p, "sk-ant-") || !strings.Contains(p, "[REDACTED") { // the marker itself may be cut at the preview bound
				t.Errorf("preview = %q", p)
			}
		})
	}
}

// BenchmarkPreviewHugeValue: the cost of a 19 MB Write's audit preview is
// decoding the arguments, not redacting all of them.
func BenchmarkPreviewHugeValue(b *testing.B) {
	args, _ := json.Marshal(map[string]any{"path": "big.txt", "content": strings.Repeat("abcdefghi\n", 1_900_000)})
	for b.Loop() {
		audit.Preview(args)
	}
}
