//go:build linux || darwin

package proc

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A runner child marks its own environment, not the command's.
func TestRunnerMarkerStaysOutOfTheCommand(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	p, err := Start(t.Context(), Spec{Path: "/bin/sh", Args: []string{"-c", "echo ${" + runnerChildEnv + "-unset}"}, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	if code, err := p.Wait(); code != 0 || err != nil {
		t.Fatalf("Wait = %d, %v", code, err)
	}
	if strings.TrimSpace(out.String()) != "unset" {
		t.Errorf("the command saw %s=%q", runnerChildEnv, out.String())
	}
}

// A binary started as a runner that did not dispatch RunnerArg (a test
// binary without the TestMain hook) must not start runners itself: each
// would run the binary again.
func TestStartRefusesInAnUndispatchedRunner(t *testing.T) {
	t.Setenv(runnerChildEnv, "1")
	p, err := Start(t.Context(), Spec{Path: "/bin/true"})
	if !errors.Is(err, ErrNotDispatched) || p != nil {
		t.Fatalf("Start = %v, %v; want ErrNotDispatched", p, err)
	}
}
