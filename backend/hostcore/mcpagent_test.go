package hostcore_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// systemText is a request's system prompt (a string or text blocks).
func systemText(r providertest.Request) string {
	switch s := r.JSON()["system"].(type) {
	case string:
		return s
	case []any:
		var b strings.Builder
		for _, blk := range s {
			m, _ := blk.(map[string]any)
			text, _ := m["text"].(string)
			b.WriteString(text)
		}
		return b.String()
	}
	return ""
}

// toolDescription is the description a request gave tool ("" if absent).
func toolDescription(r providertest.Request, tool string) string {
	list, _ := r.JSON()["tools"].([]any)
	for _, t := range list {
		m, _ := t.(map[string]any)
		if m["name"] == tool {
			d, _ := m["description"].(string)
			return d
		}
	}
	return ""
}

// section cuts the "# title" section out of a system prompt.
func section(prompt, title string) string {
	i := strings.Index(prompt, "# "+title+"\n")
	if i < 0 {
		return ""
	}
	rest := prompt[i:]
	if j := strings.Index(rest[2:], "\n# "); j >= 0 {
		rest = rest[:j+3]
	}
	return rest
}

// An MCP tool over the Anthropic wire: listed in the on-demand catalog,
// refused until ToolSearch loads it, then called with its schema on the
// wire; the transcript's tool-call events name the server and the tool.
func TestMCPOnDemandThroughTheWire(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "mcp_lab_echo", Input: map[string]any{"text": "early"}}}},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "ToolSearch", Input: map[string]any{"query": "select:mcp_lab_echo"}}}},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "mcp_lab_echo", Input: map[string]any{"text": "loaded"}}}},
		providertest.Turn{Text: "Echoed."},
	)
	e, ev := newMCPEnv(t, newConnSource(t, map[string]*mcp.Conn{"lab": newLab(t).conn}), srv)
	e.configure(api.ModeAgent, api.PermissionAuto)
	if res, err := e.core.RunTurn(t.Context(), e.session.ID, "echo something"); err != nil || res.State != "done" {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	catalog := section(systemText(reqs[0]), "On-demand tools")
	golden.Assert(t, filepath.Join("testdata", "mcp_catalog.golden"), catalog)
	if tools := requestTools(reqs[0]); slices.Contains(tools, "mcp_lab_echo") || !slices.Contains(tools, "ToolSearch") {
		t.Errorf("first request tools = %v", tools)
	}
	if b := string(reqs[1].Body); !strings.Contains(b, "TOOL_NOT_FOUND") || !strings.Contains(b, `select:mcp_lab_echo`) {
		t.Errorf("the unloaded call was not refused with a ToolSearch hint: %.1500s", b[max(0, len(b)-1500):])
	}
	if !slices.Contains(requestTools(reqs[2]), "mcp_lab_echo") {
		t.Errorf("ToolSearch did not load the tool: %v", requestTools(reqs[2]))
	}
	golden.Assert(t, filepath.Join("testdata", "mcp_description.golden"), toolDescription(reqs[2], "mcp_lab_echo"))
	if b := string(reqs[3].Body); !strings.Contains(b, "echo: loaded") {
		t.Errorf("the result did not reach the model: %.1500s", b[max(0, len(b)-1500):])
	}
	var origin map[string]any
	for _, c := range ev.toolCalls() {
		if c["tool"] == "mcp_lab_echo" && c["phase"] == "running" {
			origin, _ = c["mcp"].(map[string]any)
		}
	}
	if origin["server"] != "lab" || origin["tool"] != "echo" || origin["title"] != "Echo" {
		t.Errorf("tool-call origin = %v", origin)
	}
	rows, _ := e.core.AuditRows(t.Context(), e.session.ID)
	var codes []string
	for _, r := range rows {
		codes = append(codes, r.Tool+":"+r.ErrorCode)
	}
	if want := []string{"mcp_lab_echo:TOOL_NOT_FOUND", "ToolSearch:", "mcp_lab_echo:"}; !slices.Equal(codes, want) {
		t.Errorf("audit = %v, want %v", codes, want)
	}
}

// newWeather is a second in-process server with a tool of its own.
func newWeather(t *testing.T) *mcp.Conn {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "weather", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "forecast", Description: "Tomorrow's weather.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "sunny"}}}, nil
		})
	ct, st := sdk.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	c, err := mcp.ConnectTransport(t.Context(), mcp.Server{ID: "weather", Transport: mcp.TransportHTTP, URL: "http://weather.invalid", Enabled: true}, ct, mcp.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// The composer's MCP selection loads its tools for the prompt without a
// ToolSearch round trip; a bad selection fails before any turn opens.
func TestMCPComposerSelection(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "mcp_weather_forecast", Input: map[string]any{}}}},
		providertest.Turn{Text: "Sunny."},
	)
	e, _ := newMCPEnv(t, newConnSource(t, map[string]*mcp.Conn{"lab": newLab(t).conn, "weather": newWeather(t)}), srv)
	ctx := t.Context()

	all, err := e.core.ResolveMCPSelectionForTest(ctx, e.session.ID, []api.MCPSelection{{ServerID: "weather"}})
	if err != nil || !slices.Equal(all, []string{"mcp_weather_forecast"}) {
		t.Fatalf("whole server = %v, %v", all, err)
	}
	two, err := e.core.ResolveMCPSelectionForTest(ctx, e.session.ID, []api.MCPSelection{{ServerID: "lab", Tools: []string{"echo", "mcp_lab_big"}}})
	if err != nil || !slices.Equal(two, []string{"mcp_lab_echo", "mcp_lab_big"}) {
		t.Errorf("named tools = %v, %v", two, err)
	}
	for _, tc := range []struct {
		name string
		mode string
		sel  []api.MCPSelection
		code errs.Code
		says string
	}{
		{"unknown server", api.ModeAgent, []api.MCPSelection{{ServerID: "nope"}}, errs.NotFound, `no MCP server "nope"`},
		{"tool of another server", api.ModeAgent, []api.MCPSelection{{ServerID: "lab", Tools: []string{"forecast"}}}, errs.ToolNotFound, `belongs to MCP server "weather"`},
		{"unknown tool", api.ModeAgent, []api.MCPSelection{{ServerID: "lab", Tools: []string{"fly"}}}, errs.ToolNotFound, `has no enabled tool "fly"`},
		{"unusable schema", api.ModeAgent, []api.MCPSelection{{ServerID: "lab", Tools: []string{"badschema"}}}, errs.MCPProtocolError, "not valid JSON Schema"},
		{"no tool the mode allows", api.ModePlan, []api.MCPSelection{{ServerID: "weather"}}, errs.ToolDisabledInPlan, "Agent mode"},
		{"a tool the mode refuses", api.ModeGoal, []api.MCPSelection{{ServerID: "lab", Tools: []string{"echo"}}}, errs.ToolDisabledInPlan, "Agent mode"},
	} {
		e.configure(tc.mode, api.PermissionAuto)
		_, err := e.core.ResolveMCPSelectionForTest(ctx, e.session.ID, tc.sel)
		if !errs.Is(err, tc.code) || !strings.Contains(errs.ToPayload(err).Message, tc.says) {
			t.Errorf("%s: %v, want %s saying %q", tc.name, err, tc.code, tc.says)
		}
	}

	e.configure(api.ModeAgent, api.PermissionAuto)
	if err := e.core.StartTurnWithToolsForTest(ctx, e.session.ID, "weather?", all); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); srv.Count() < 2 || e.core.TurnRunningForTest(e.session.ID); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the turn did not finish")
		}
	}
	reqs := srv.Requests()
	if tools := requestTools(reqs[0]); !slices.Contains(tools, "mcp_weather_forecast") || slices.Contains(tools, "mcp_lab_echo") {
		t.Errorf("first request tools = %v: the selection is not preloaded alone", tools)
	}
	if b := string(reqs[1].Body); !strings.Contains(b, "sunny") {
		t.Errorf("the preloaded call did not run: %.1000s", b[max(0, len(b)-1000):])
	}
}

// Stop during a turn's MCP call: the turn waits for the started call (the
// server is told to cancel), which ends aborted, and the turn ends aborted.
func TestMCPStopDuringATurnWaitsForTheCall(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "mcp_lab_slow", Input: map[string]any{}}}},
	)
	l := newLab(t)
	e, ev := newMCPEnv(t, newConnSource(t, map[string]*mcp.Conn{"lab": l.conn}), srv)
	e.configure(api.ModeAgent, api.PermissionAuto)
	if err := e.core.StartTurnWithToolsForTest(t.Context(), e.session.ID, "work slowly", []string{"mcp_lab_slow"}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); len(ev.progress()) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no live progress")
		}
	}
	e.core.StopSession(e.session.ID)
	for deadline := time.Now().Add(20 * time.Second); e.core.TurnRunningForTest(e.session.ID); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the turn did not end after Stop")
		}
	}
	select {
	case <-l.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the cancellation")
	}
	rows, _ := e.core.AuditRows(t.Context(), e.session.ID)
	if len(rows) != 1 || rows[0].Tool != "mcp_lab_slow" || rows[0].ErrorCode != string(errs.ToolAborted) {
		t.Errorf("audit = %+v: the call had not returned when the turn ended", rows)
	}
	tr, err := e.core.Transcript(t.Context(), e.session.ID)
	if err != nil || len(tr.Turns) != 1 || tr.Turns[0].State != "aborted" {
		t.Errorf("turn = %+v, %v", tr.Turns, err)
	}
	if srv.Count() != 1 {
		t.Errorf("%d model requests after Stop", srv.Count())
	}
}
