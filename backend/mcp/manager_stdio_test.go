//go:build linux || darwin

package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// stdioManager is a manager that starts real stdio servers (this test
// binary as an MCP server, see testserver_test.go) in owned process trees.
func stdioManager(t *testing.T, o mcp.ManagerOptions) *mcp.Manager {
	t.Helper()
	dir := t.TempDir()
	o.Dial = func(ctx context.Context, s mcp.Server, env mcp.DialEnv) (*mcp.Conn, error) {
		return mcp.ConnectStdio(ctx, s, mcp.StdioOptions{BaseEnv: os.Environ(), Dir: dir, Stderr: env.Stderr, Hooks: env.Hooks})
	}
	m := mcp.NewManager(o)
	t.Cleanup(m.Close)
	return m
}

// stdioDef runs this test binary as MCP server id in mode, writing its pid
// to a file of its own.
func stdioDef(t *testing.T, id, mode string) mcp.Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return mcp.Server{ID: id, Transport: mcp.TransportStdio, Command: exe, Enabled: true,
		Env: map[string]string{testServerEnv: mode, testPidFileEnv: filepath.Join(t.TempDir(), "pid")}}
}

// waitFor polls cond (real processes cannot run in a synctest bubble).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func waitReady(t *testing.T, m *mcp.Manager, k mcp.Key) mcp.Status {
	t.Helper()
	var st mcp.Status
	waitFor(t, k.ID+" ready", func() bool {
		st, _ = m.Status(k)
		if st.State == mcp.StateFailed {
			t.Fatalf("%v failed: %s", k, st.Error)
		}
		return st.State == mcp.StateReady
	})
	return st
}

// spawnChild has the server start a grandchild and returns its pid.
func spawnChild(t *testing.T, m *mcp.Manager, k mcp.Key) int {
	t.Helper()
	res, err := m.Call(t.Context(), k, "spawn", nil, nil)
	if err != nil || res.IsError {
		t.Fatalf("spawn: %+v, %v", res, err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out struct{ Pid int }
	if err := json.Unmarshal(raw, &out); err != nil || out.Pid <= 0 {
		t.Fatalf("spawn result %s: %v", raw, err)
	}
	return out.Pid
}

// A stdio server that keeps exiting is restarted three times with backoff,
// then failed with its last stderr lines; no process of it is left.
func TestManagerStdioCrashRestarts(t *testing.T) {
	t.Parallel()
	m := stdioManager(t, mcp.ManagerOptions{Backoff: func(n int) time.Duration { return time.Duration(n) * 20 * time.Millisecond }})
	s := stdioDef(t, "crashy", "crash")
	k := app("crashy")
	m.Sync("", []mcp.Server{s})
	var st mcp.Status
	waitFor(t, "crashy failed", func() bool {
		st, _ = m.Status(k)
		return st.State == mcp.StateFailed
	})
	if st.ErrorCode != errs.MCPServerUnavailable || st.Restarts != 3 {
		t.Errorf("status %s, %d restarts: %s", st.ErrorCode, st.Restarts, st.Error)
	}
	if !strings.Contains(st.Error, "fatal: lost the plot") || !strings.Contains(st.Error, "exited with status 7") {
		t.Errorf("error %q lacks the stderr line or exit status", st.Error)
	}
	if n := strings.Count(m.Log(k), "fatal: lost the plot"); n != 4 {
		t.Errorf("log holds %d crashes, want 4:\n%s", n, m.Log(k))
	}
	if len(st.LogTail) == 0 || !strings.Contains(st.LogTail[len(st.LogTail)-1], "fatal: lost the plot") {
		t.Errorf("log tail %q", st.LogTail)
	}
	if pid := serverPid(t, s); pid == 0 || !gone(pid) {
		t.Errorf("last server pid %d: not started, or still running", pid)
	}
}

// Removing a server by Sync ends its process tree; Stop returns only once
// it is gone; a changed definition replaces the process.
func TestManagerStdioSyncEndsProcesses(t *testing.T) {
	t.Parallel()
	m := stdioManager(t, mcp.ManagerOptions{})
	a, b := stdioDef(t, "a", "ok"), stdioDef(t, "b", "ok")
	m.Sync("", []mcp.Server{a, b})
	pidA, pidB := waitReady(t, m, app("a")).Pid, waitReady(t, m, app("b")).Pid
	childA, childB := spawnChild(t, m, app("a")), spawnChild(t, m, app("b"))

	// a's definition changes: a new process, the old tree gone.
	a.Args = []string{"--changed"}
	m.Sync("", []mcp.Server{a, b})
	waitFor(t, "a's old tree gone", func() bool { return gone(pidA) && gone(childA) })
	if st := waitReady(t, m, app("a")); st.Pid == pidA || st.Pid == 0 {
		t.Errorf("a runs as pid %d, before %d", st.Pid, pidA)
	}
	pidA = status(t, m, app("a")).Pid

	// b removed: its tree ends in the background.
	m.Sync("", []mcp.Server{a})
	waitFor(t, "b's tree gone", func() bool { return gone(pidB) && gone(childB) })

	// Stop: gone when it returns.
	m.Stop(app("a"))
	if !gone(pidA) {
		t.Errorf("a (pid %d) still running after Stop", pidA)
	}
}

// Close ends every server's process tree before it returns.
func TestManagerStdioCloseEndsAll(t *testing.T) {
	t.Parallel()
	m := stdioManager(t, mcp.ManagerOptions{})
	var pids []int
	for _, scope := range []string{"", "/proj"} {
		m.Sync(scope, []mcp.Server{stdioDef(t, "s", "ok")})
		k := mcp.Key{Scope: scope, ID: "s"}
		pids = append(pids, waitReady(t, m, k).Pid, spawnChild(t, m, k))
	}
	// One more still connecting when Close comes.
	slow := stdioDef(t, "slow", "silent")
	m.Sync("", []mcp.Server{stdioDef(t, "s", "ok"), slow})
	waitFor(t, "slow started", func() bool { return serverPid(t, slow) != 0 })
	pids = append(pids, serverPid(t, slow))

	m.Close()
	for _, pid := range pids {
		if !gone(pid) {
			t.Errorf("pid %d survived Close", pid)
		}
	}
}
