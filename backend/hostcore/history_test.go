package hostcore_test

import (
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

func TestExportFileName(t *testing.T) {
	tests := []struct{ title, format, want string }{
		{"Fix the config loader", "md", "Fix the config loader.md"},
		{"a/b\\c: d?*", "json", "a-b-c- d.json"},
		{"  ...  ", "md", "session.md"},
		{"line\nbreak", "md", "line-break.md"},
		{strings.Repeat("é", 60), "json", strings.Repeat("é", 40) + ".json"},
	}
	for _, tc := range tests {
		if got := hostcore.ExportFileName(tc.title, tc.format); got != tc.want {
			t.Errorf("ExportFileName(%q, %q) = %q, want %q", tc.title, tc.format, got, tc.want)
		}
	}
}
