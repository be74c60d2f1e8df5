package hostcore_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/pi-desktop/pi-desktop/internal/pluginsample"
	"github.com/pi-desktop/pi-desktop/internal/testhome"
	"github.com/pi-desktop/pi-desktop/platform/proc"
)

// TestMain lets this test binary act as the process-tree runner, as the
// pi-desktop binary does, so Bash runs for real, under a HOME of its own.
// It builds the sample plugin's MCP server once, first (the Go build cache
// is under the real HOME).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == proc.RunnerArg {
		os.Exit(proc.RunnerMain(os.Args[2:]))
	}
	bin, err := os.MkdirTemp("", "pi-plugin-sample-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := pluginsample.Build(bin); err != nil {
		fmt.Fprintln(os.Stderr, "build the sample plugin:", err)
		os.RemoveAll(bin)
		os.Exit(1)
	}
	code := testhome.Run(m)
	os.RemoveAll(bin)
	os.Exit(code)
}
