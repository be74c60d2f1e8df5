package proc

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// scratchDir is t.TempDir, except under Windows (Wine in `make
// test-windows`), where removing the fake app file fails with "Invalid
// function" and t.TempDir's cleanup would fail the test for it.
func scratchDir(t *testing.T) string {
	if runtime.GOOS != "windows" {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("", "runner-beside")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

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
			if tc.goos != "windows" && runtime.GOOS == "windows" {
				t.Skip("a Windows file system has no executable bits for the Unix rows")
			}
			dir := scratchDir(t)
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
