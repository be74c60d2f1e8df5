package shells

import (
	"os"
	"testing"

	"github.com/pi-desktop/pi-desktop/platform/proc"
)

// TestMain lets this test binary act as the process-tree runner, as the
// pi-desktop binary does, and as a host that runs one probe (probeHost).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == proc.RunnerArg {
		os.Exit(proc.RunnerMain(os.Args[2:]))
	}
	if os.Getenv(probeHostEnv) != "" {
		os.Exit(probeHost())
	}
	os.Exit(m.Run())
}
