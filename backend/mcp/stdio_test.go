//go:build linux || darwin

package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// lockedBuffer is a stderr sink safe for the pump goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// testServer is a stdio definition that runs this test binary as an MCP
// server in the given mode.
func testServer(t *testing.T, mode string) (mcp.Server, mcp.StdioOptions, *lockedBuffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	dir := t.TempDir()
	s := mcp.Server{ID: "test", Transport: mcp.TransportStdio, Command: exe, Enabled: true,
		Env: map[string]string{testServerEnv: mode, testPidFileEnv: filepath.Join(dir, "pid")}}
	return s, mcp.StdioOptions{BaseEnv: os.Environ(), Dir: dir, Stderr: stderr}, stderr
}

// serverPid reads the pid the test server wrote, 0 when it wrote none.
func serverPid(t *testing.T, s mcp.Server) int {
	t.Helper()
	b, err := os.ReadFile(s.Env[testPidFileEnv])
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(string(b))
	return pid
}

// gone reports whether no process with pid exists (reaped, not a zombie).
func gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

func TestStdioConnectListCallClose(t *testing.T) {
	t.Parallel()
	s, o, _ := testServer(t, "ok")
	c, err := mcp.ConnectStdio(t.Context(), s, o)
	if err != nil {
		t.Fatalf("ConnectStdio: %v", err)
	}
	defer c.Close()

	tools, err := c.Tools(t.Context())
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"echo", "fail", "spawn"}; !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}

	res, err := c.CallTool(t.Context(), "echo", map[string]any{"text": "hi"}, nil)
	if err != nil {
		t.Fatalf("CallTool echo: %v", err)
	}
	if res.IsError || len(res.Content) != 1 || res.Content[0].(*sdk.TextContent).Text != "echo: hi" {
		t.Fatalf("echo result = %+v", res)
	}

	res, err = c.CallTool(t.Context(), "fail", nil, nil)
	if err != nil || !res.IsError {
		t.Fatalf("fail: res = %+v, err = %v; want an IsError result", res, err)
	}

	// A grandchild of the server: Close must end it too.
	res, err = c.CallTool(t.Context(), "spawn", nil, nil)
	if err != nil || res.IsError {
		t.Fatalf("spawn: res = %+v, err = %v", res, err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out struct{ Pid int }
	if err := json.Unmarshal(raw, &out); err != nil || out.Pid <= 0 {
		t.Fatalf("spawn structured content %s: %v", raw, err)
	}
	server := c.Pid()
	if gone(server) || gone(out.Pid) {
		t.Fatal("server or its child not running before Close")
	}

	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for name, pid := range map[string]int{"server": server, "grandchild": out.Pid} {
		if !gone(pid) {
			t.Errorf("%s (pid %d) survived Close", name, pid)
		}
	}
	select {
	case <-c.Exited():
	default:
		t.Error("Exited not closed after Close")
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := c.CallTool(t.Context(), "echo", map[string]any{"text": "late"}, nil); !errs.Is(err, errs.MCPServerUnavailable) {
		t.Errorf("call after Close: %v, want MCP_SERVER_UNAVAILABLE", err)
	}
}

func TestStdioConnectFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode   string
		code   errs.Code
		stderr string
	}{
		{"silent", errs.MCPConnectTimeout, ""},
		{"exit", errs.MCPServerUnavailable, "boom: missing configuration"},
		{"garbage", errs.MCPProtocolError, ""},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			s, o, stderr := testServer(t, tt.mode)
			s.ConnectTimeout = time.Second
			start := time.Now()
			c, err := mcp.ConnectStdio(t.Context(), s, o)
			if err == nil {
				c.Close()
				t.Fatal("ConnectStdio succeeded")
			}
			if got := errs.CodeOf(err); got != tt.code {
				t.Fatalf("code = %s (%v), want %s", got, err, tt.code)
			}
			if e := errs.As(err); e.Details["server"] != "test" {
				t.Errorf("details = %v, want the server id", e.Details)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("failure took %s", d)
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr.String(), tt.stderr)
			}
			if pid := serverPid(t, s); pid == 0 || !gone(pid) {
				t.Errorf("server pid %d: not started, or survived the failed connect", pid)
			}
		})
	}
}

// Giving up (the turn stopped, the app quits) while a server is still
// starting ends it at once, whatever its connect timeout.
func TestStdioConnectCancelled(t *testing.T) {
	t.Parallel()
	s, o, _ := testServer(t, "silent")
	s.ConnectTimeout = time.Minute
	ctx, cancel := context.WithCancel(t.Context())
	// Cancel once the server runs (its pid file is written), not after a
	// fixed delay a loaded machine may not start it within.
	go func() {
		defer cancel()
		for deadline := time.Now().Add(30 * time.Second); serverPid(t, s) == 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	_, err := mcp.ConnectStdio(ctx, s, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancelled connect took %s", d)
	}
	if pid := serverPid(t, s); pid == 0 || !gone(pid) {
		t.Errorf("server pid %d: not started, or survived the cancelled connect", pid)
	}
}

func TestStdioCommandNotFound(t *testing.T) {
	t.Parallel()
	s := mcp.Server{ID: "nope", Transport: mcp.TransportStdio, Command: "pi-desktop-no-such-mcp-server"}
	_, err := mcp.ConnectStdio(t.Context(), s, mcp.StdioOptions{BaseEnv: os.Environ()})
	if !errs.Is(err, errs.MCPServerUnavailable) {
		t.Fatalf("err = %v, want MCP_SERVER_UNAVAILABLE", err)
	}
}

// A server that writes to stdout after the session closed (nobody reads it
// any more) must neither block Close nor make it report a failure.
func TestStdioCloseIgnoresLateOutput(t *testing.T) {
	t.Parallel()
	s, o, _ := testServer(t, "noisy-exit")
	c, err := mcp.ConnectStdio(t.Context(), s, o)
	if err != nil {
		t.Fatalf("ConnectStdio: %v", err)
	}
	server := c.Pid()
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not return")
	}
	if !gone(server) {
		t.Errorf("server (pid %d) survived Close", server)
	}
}
