// Command pi-desktop-runner owns the process tree of one command for
// PI-Desktop (platform/proc). It ships next to the app binary, which starts
// it instead of re-executing itself: a small binary starts in a fraction of
// the time and holds a fraction of the memory while the command runs.
// It imports platform/proc and nothing of the app (no SQLite, Wails or SDKs).
package main

import (
	"os"

	"github.com/pi-desktop/pi-desktop/platform/proc"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == proc.RunnerArg {
		os.Exit(proc.RunnerMain(os.Args[2:]))
	}
	_, _ = os.Stderr.WriteString("pi-desktop-runner: started by PI-Desktop for each command; not for direct use\n")
	os.Exit(2)
}
