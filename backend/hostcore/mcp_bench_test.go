package hostcore_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// BenchmarkMCPCall times one MCP tool call through Execute (catalog
// lookup, validation against the server's schema, policy, audit) and the
// same call straight through the SDK client, over the in-process
// transport, where the host's share is the largest it can be; the budget
// (decisions.md, ≤ 1.2×) is for a real server.
func BenchmarkMCPCall(b *testing.B) {
	l := newLab(b)
	core, sessionID := benchMCPHost(b, newConnSource(b, map[string]*mcp.Conn{"lab": l.conn}))
	args := map[string]any{"text": "hello"}
	raw, _ := json.Marshal(args)
	b.Run("execute", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			res := core.Execute(b.Context(), hostcore.ToolRequest{SessionID: sessionID, TurnID: "bench", ToolCallID: "c" + strconv.Itoa(i),
				Tool: "mcp_lab_echo", Args: raw})
			if !res.OK {
				b.Fatal(res)
			}
		}
	})
	b.Run("sdk", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := l.conn.CallTool(b.Context(), "echo", args, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("paired", func(b *testing.B) {
		b.ReportAllocs()
		benchPaired(b, func(i int) {
			res := core.Execute(b.Context(), hostcore.ToolRequest{SessionID: sessionID, TurnID: "bench", ToolCallID: "p" + strconv.Itoa(i),
				Tool: "mcp_lab_echo", Args: raw})
			if !res.OK {
				b.Fatal(res)
			}
		}, func(int) {
			if _, err := l.conn.CallTool(b.Context(), "echo", args, nil); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// benchMCPHost is a core with src and one auto-mode session on a project.
func benchMCPHost(b *testing.B, src hostcore.MCPSource) (*hostcore.Core, string) {
	dir := b.TempDir()
	project := filepath.Join(dir, "proj")
	if err := os.MkdirAll(project, 0o755); err != nil {
		b.Fatal(err)
	}
	core, err := hostcore.New(b.Context(), hostcore.Config{DataDir: filepath.Join(dir, "data"), RgPath: "-", MCP: src})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { core.Close() })
	p, err := core.AddProject(b.Context(), project)
	if err != nil {
		b.Fatal(err)
	}
	s, err := core.CreateSession(b.Context(), api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := core.ConfigureSession(b.Context(), s.ID, api.SessionConfig{OperatingMode: api.ModeAgent, PermissionMode: api.PermissionAuto}); err != nil {
		b.Fatal(err)
	}
	return core, s.ID
}
