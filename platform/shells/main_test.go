package shells

import (
	"os"
	"strings"
	"testing"
	"time"

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

// probeHostEnv makes the test binary a host that runs one probe (args in
// the variable: runner|direct, the fake shell) and waits to be killed.
const probeHostEnv = "PI_SHELLS_TEST_PROBE_HOST"

func probeHost() int {
	mode, shell, _ := strings.Cut(os.Getenv(probeHostEnv), ":")
	p := &PathProbe{Shells: []string{shell}, Timeout: time.Hour, Env: []string{"PATH=/usr/bin:/bin"}}
	if mode == "runner" {
		p.RunnerExe, _ = os.Executable()
	}
	p.Result()
	return 0
}
