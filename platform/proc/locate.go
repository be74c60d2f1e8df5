package proc

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// RunnerName is the dedicated runner's file name (cmd/pi-desktop-runner),
// installed next to the app binary.
const RunnerName = "pi-desktop-runner"

// DefaultRunner is the binary Start uses when Spec.RunnerExe is empty: the
// dedicated runner next to this executable when it is there, else this
// executable itself (dev builds and test binaries dispatch RunnerArg in
// their main). The dedicated runner starts faster and holds less memory
// than a re-executed app binary; both speak the same protocol.
func DefaultRunner() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("proc: locate the runner: %w", err)
	}
	return runnerBeside(exe, runtime.GOOS), nil
}

// runnerBeside returns the dedicated runner next to exe when it is a
// regular file (executable, off Windows), else exe.
func runnerBeside(exe, goos string) string {
	name := RunnerName
	if goos == "windows" {
		name += ".exe"
	}
	sib := filepath.Join(filepath.Dir(exe), name)
	fi, err := os.Stat(sib)
	if err != nil || !fi.Mode().IsRegular() || (goos != "windows" && fi.Mode().Perm()&0o111 == 0) {
		return exe
	}
	return sib
}
