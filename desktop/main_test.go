package desktop

import (
	"context"
	"os"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"

	"github.com/pi-desktop/pi-desktop/internal/testhome"
	"github.com/pi-desktop/pi-desktop/platform/proc"
)

// TestMain lets this test binary act as the process-tree runner, as the
// pi-desktop binary does: tests here create cores, whose login-shell PATH
// probe and commands run under it.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == proc.RunnerArg {
		os.Exit(proc.RunnerMain(os.Args[2:]))
	}
	os.Exit(testhome.Run(m))
}

// testApp is the app as the services see it, without a window: a core, or
// the error it failed to start with, and a frame guard.
type testApp struct {
	core  *hostcore.Core
	err   error
	guard FrameGuard
}

func (a *testApp) Core() (*hostcore.Core, error) {
	switch {
	case a.core != nil:
		return a.core, nil
	case a.err != nil:
		return nil, a.err
	}
	return nil, errs.New(errs.StorageUnavailable, "no core in this test")
}

func (a *testApp) Window() context.Context { return nil }
