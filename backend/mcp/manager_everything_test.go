//go:build linux || darwin

package mcp_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/internal/mcpservers"
)

// The manager runs @modelcontextprotocol/server-everything (code nobody
// here wrote) over stdio: its tools, including the ones it registers once
// the session is initialized, a call, a long-running call cancelled after
// its first progress, and no process left after Stop.
func TestManagerEverythingStdio(t *testing.T) {
	t.Parallel()
	command, args := mcpservers.Everything(t)
	m := stdioManager(t, mcp.ManagerOptions{})
	s := mcp.Server{ID: "everything", Transport: mcp.TransportStdio, Command: command, Args: args, Enabled: true,
		ConnectTimeout: time.Minute}
	k := app("everything")
	m.Sync("", []mcp.Server{s})
	st := waitReady(t, m, k)
	for _, want := range []string{"echo", "get-sum", "trigger-long-running-operation"} {
		if !slices.Contains(statusTools(st), want) {
			t.Errorf("tools %q lack %q", statusTools(st), want)
		}
	}
	// Registered once the session is initialized: in the first listing or
	// through the tools/list_changed that follows, whichever comes first.
	waitFor(t, "the tools registered after initialization", func() bool {
		st, _ := m.Status(k)
		return slices.Contains(statusTools(st), "simulate-research-query")
	})

	res, err := m.Call(t.Context(), k, "echo", map[string]any{"message": "ping"}, nil)
	if err != nil || res.IsError || !strings.Contains(textOf(t, res), "ping") {
		t.Fatalf("echo: %+v, %v", res, err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	progressed := make(chan struct{}, 10)
	start := time.Now()
	_, err = m.Call(ctx, k, "trigger-long-running-operation", map[string]any{"duration": 30, "steps": 30}, func(mcp.Progress) {
		progressed <- struct{}{}
		cancel()
	})
	if !errors.Is(err, context.Canceled) || time.Since(start) > 20*time.Second {
		t.Errorf("cancelled long-running call after %s: %v", time.Since(start), err)
	}
	if len(progressed) == 0 {
		t.Error("no progress before the cancellation")
	}
	if st, _ := m.Status(k); st.State != mcp.StateReady {
		t.Errorf("state after a cancelled call: %s", st.State)
	}

	pid := status(t, m, k).Pid
	m.Stop(k)
	if pid == 0 || !gone(pid) {
		t.Errorf("everything server (pid %d) survived Stop", pid)
	}
}
