package proc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRunnerBeside(t *testing.T) {
	for _, tc := range []struct {
		name    string
		goos    string
		sibling string // file created next to the app ("" = none)
		mode    os.FileMode
		dir     bool
		want    string // "app" or "runner"
	}{
		{"no runner: re-exec the app", "linux", "", 0, false, "app"},
		{"runner next to the app", "linux", RunnerName, 0o755, false, "runner"},
		{"runner not executable", "linux", RunnerName, 0o644, false, "app"},
		{"a folder by that name", "linux", RunnerName, 0o755, true, "app"},
		{"windows runner", "windows", RunnerName + ".exe", 0o644, false, "runner"},
		{"windows ignores a runner without .exe", "windows", RunnerName, 0o755, false, "app"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			app := filepath.Join(dir, "pi-desktop")
			if err := os.WriteFile(app, []byte("app"), 0o755); err != nil {
				t.Fatal(err)
			}
			sib := filepath.Join(dir, tc.sibling)
			switch {
			case tc.sibling == "":
			case tc.dir:
				if err := os.Mkdir(sib, tc.mode); err != nil {
					t.Fatal(err)
				}
			default:
				if err := os.WriteFile(sib, []byte("runner"), tc.mode); err != nil {
					t.Fatal(err)
				}
			}
			want := app
			if tc.want == "runner" {
				want = sib
			}
			if got := runnerBeside(app, tc.goos); got != want {
				t.Errorf("runnerBeside = %s, want %s", got, want)
			}
		})
	}
}
