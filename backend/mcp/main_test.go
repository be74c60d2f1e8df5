package mcp_test

import (
	"os"
	"testing"

	"github.com/pi-desktop/pi-desktop/internal/testhome"
	"github.com/pi-desktop/pi-desktop/platform/proc"
)

// testServerEnv makes the test binary act as an MCP server (see
// testserver_test.go), as the runner dispatch makes it act as a runner.
const testServerEnv = "PI_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == proc.RunnerArg {
		os.Exit(proc.RunnerMain(os.Args[2:]))
	}
	if mode := os.Getenv(testServerEnv); mode != "" {
		os.Exit(runTestServer(mode))
	}
	os.Exit(testhome.Run(m))
}
