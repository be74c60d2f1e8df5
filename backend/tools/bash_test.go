package tools

import "testing"

func TestIsPatchCommand(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"patch -p1 < fix.diff", true},
		{"git apply fix.diff", true},
		{"git -C sub apply fix.diff", true},
		{"git --no-pager apply --check x.diff", true},
		{"cd repo && git apply x.diff", true},
		{"apply_patch <<'EOF'", true},
		{"LC_ALL=C patch -p0 < a.diff", true},
		{"echo patch", false},
		{"git status", false},
		{"grep -r apply .", false},
	}
	for _, tt := range tests {
		if got := isPatchCommand(tt.cmd); got != tt.want {
			t.Errorf("isPatchCommand(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}
