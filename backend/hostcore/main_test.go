package hostcore_test

import (
	"os"
	"testing"

	"github.com/pi-desktop/pi-desktop/internal/testhome"
	"github.com/pi-desktop/pi-desktop/platform/proc"
)

// TestMain lets this test binary act as the process-tree runner, as the
// pi-desktop binary does, so Bash runs for real, under a HOME of its own.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == proc.RunnerArg {
		os.Exit(proc.RunnerMain(os.Args[2:]))
	}
	os.Exit(testhome.Run(m))
}
