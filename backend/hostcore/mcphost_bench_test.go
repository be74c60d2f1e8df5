//go:build !windows

package hostcore_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/internal/mcpservers"
)

// BenchmarkMCPHostCall times one call of the reference server's echo over
// stdio through the host's own MCP side (the session's catalog, Execute's
// pipeline, the manager) against the same call straight through an SDK
// client connected to another copy of the server.
func BenchmarkMCPHostCall(b *testing.B) {
	cmd, args := mcpservers.Everything(b)
	core, sessionID := benchMCPHost(b, nil)
	// Generous connect timeouts, and the timing starts once the host's copy
	// is ready: on a loaded machine node takes more than the default 10 s to
	// start, and a first call past the catalog's wait would find no tool.
	const connect = 120 * time.Second
	if _, err := core.SaveMCPServer(b.Context(), api.MCPServerInput{ID: "everything", Command: cmd, Args: args, Enabled: true,
		ConnectTimeoutMs: connect.Milliseconds()}); err != nil {
		b.Fatal(err)
	}
	direct, err := mcp.ConnectStdio(b.Context(), mcp.Server{ID: "direct", Transport: mcp.TransportStdio, Command: cmd, Args: args, Enabled: true,
		ConnectTimeout: connect}, mcp.StdioOptions{BaseEnv: os.Environ()})
	if err != nil {
		b.Fatal(err)
	}
	for deadline := time.Now().Add(connect); !allReady(b, core, 1); {
		if time.Now().After(deadline) {
			b.Fatalf("the host's server was not ready within %s", connect)
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Cleanup(func() { direct.Close() })
	in := map[string]any{"message": "hello"}
	raw, _ := json.Marshal(in)
	b.Run("execute", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			res := core.Execute(b.Context(), hostcore.ToolRequest{SessionID: sessionID, TurnID: "bench", ToolCallID: "c" + strconv.Itoa(i),
				Tool: "mcp_everything_echo", Args: raw})
			if !res.OK {
				b.Fatal(res)
			}
		}
	})
	b.Run("sdk", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := direct.CallTool(b.Context(), "echo", in, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("paired", func(b *testing.B) {
		b.ReportAllocs()
		benchPaired(b, func(i int) {
			res := core.Execute(b.Context(), hostcore.ToolRequest{SessionID: sessionID, TurnID: "bench", ToolCallID: "p" + strconv.Itoa(i),
				Tool: "mcp_everything_echo", Args: raw})
			if !res.OK {
				b.Fatal(res)
			}
		}, func(int) {
			if _, err := direct.CallTool(b.Context(), "echo", in, nil); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkMCPStartup times opening the host with five MCP servers saved
// against opening it with none: the window opens once New returns, so the
// ratio shows whether it waits for them. "ready" times New until all five
// are ready.
func BenchmarkMCPStartup(b *testing.B) {
	cmd, args := mcpservers.Everything(b)
	dir := b.TempDir()
	with, without := filepath.Join(dir, "with"), filepath.Join(dir, "without")
	seed, err := hostcore.New(b.Context(), hostcore.Config{DataDir: with, RgPath: "-"})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 5 {
		if _, err := seed.SaveMCPServer(b.Context(), api.MCPServerInput{ID: "s" + strconv.Itoa(i), Command: cmd, Args: args, Enabled: true}); err != nil {
			b.Fatal(err)
		}
	}
	seed.Close()
	open := func(b *testing.B, data string, untilReady int) {
		for range b.N {
			c, err := hostcore.New(b.Context(), hostcore.Config{DataDir: data, RgPath: "-"})
			if err != nil {
				b.Fatal(err)
			}
			for untilReady > 0 && !allReady(b, c, untilReady) {
				time.Sleep(5 * time.Millisecond)
			}
			b.StopTimer()
			c.Close()
			b.StartTimer()
		}
	}
	b.Run("none", func(b *testing.B) { open(b, without, 0) })
	b.Run("five", func(b *testing.B) { open(b, with, 0) })
	b.Run("ready", func(b *testing.B) { open(b, with, 5) })
}

func allReady(b *testing.B, c *hostcore.Core, n int) bool {
	list, err := c.ListMCPServers(b.Context(), "")
	if err != nil {
		b.Fatal(err)
	}
	ready := 0
	for _, s := range list {
		if s.State == api.MCPStateReady {
			ready++
		} else if s.State == api.MCPStateFailed {
			b.Fatalf("%s failed: %s", s.ID, s.Error)
		}
	}
	return ready == n
}
