package hostcore_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// instantSource is an MCP source whose one tool answers at once: timing
// Execute with it is the host's own share of an MCP call.
type instantSource struct{ entries []hostcore.MCPToolEntry }

func (s instantSource) Tools(context.Context, string) ([]hostcore.MCPToolEntry, error) {
	return s.entries, nil
}

func (instantSource) Call(context.Context, hostcore.MCPToolEntry, json.RawMessage, func(mcp.Progress)) (*sdk.CallToolResult, error) {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: hello"}}}, nil
}

// BenchmarkMCPHostShare is Execute of an MCP tool whose server answers at
// once: what the host adds to every MCP call.
func BenchmarkMCPHostShare(b *testing.B) {
	src := instantSource{entries: []hostcore.MCPToolEntry{{ServerID: "lab", Tool: "echo", ModelName: "mcp_lab_echo",
		Title: "Echo", Description: "Echo the text back.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"the text to echo"}},"required":["text"],"additionalProperties":false}`)}}}
	core, sessionID := benchMCPHost(b, src)
	raw := json.RawMessage(`{"text":"hello"}`)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		res := core.Execute(b.Context(), hostcore.ToolRequest{SessionID: sessionID, TurnID: "bench", ToolCallID: "c" + strconv.Itoa(i),
			Tool: "mcp_lab_echo", Args: raw})
		if !res.OK {
			b.Fatal(res)
		}
		i++
	}
}
