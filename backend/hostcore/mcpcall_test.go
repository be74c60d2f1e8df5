package hostcore_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// The host keeps the pipeline tool it made of each MCP tool between calls;
// a definition the source changes (its schema, description, call timeout)
// is what the very next call and catalog use.
func TestMCPChangedDefinitionIsSeenOnTheNextCall(t *testing.T) {
	l := newLab(t)
	src := newConnSource(t, map[string]*mcp.Conn{"lab": l.conn})
	e, _ := newMCPEnv(t, src, nil)
	e.configure(api.ModeAgent, api.PermissionAuto)
	entry := func(name string) *hostcore.MCPToolEntry {
		i := slices.IndexFunc(src.entries, func(x hostcore.MCPToolEntry) bool { return x.ModelName == name })
		if i < 0 {
			t.Fatalf("%s is not in the lab's catalog", name)
		}
		return &src.entries[i]
	}
	args := map[string]any{"text": "hi"}
	if res := e.call(e.session.ID, "mcp_lab_echo", args); res.Content != "echo: hi" {
		t.Fatalf("echo = %+v", res)
	}

	echo := entry("mcp_lab_echo")
	old := echo.InputSchema
	echo.InputSchema = json.RawMessage(`{"type":"object","properties":{"text":{"type":"integer"}},"required":["text"]}`)
	if res := e.call(e.session.ID, "mcp_lab_echo", args); res.Code != errs.InvalidArgument || res.Details["field"] != "text" {
		t.Errorf("echo under a schema that wants an integer = %+v", res)
	}
	echo.InputSchema = old
	if res := e.call(e.session.ID, "mcp_lab_echo", args); res.Content != "echo: hi" {
		t.Errorf("echo under its schema again = %+v", res)
	}

	echo.Description = "Say it back, twice over."
	summary := ""
	for _, d := range e.core.DeferredForTest(t.Context(), e.session.ID, api.ModeAgent) {
		if d.Name == "mcp_lab_echo" {
			summary = d.Summary
		}
	}
	if !strings.Contains(summary, "twice over") {
		t.Errorf("catalog summary after the description changed = %q", summary)
	}

	slow := entry("mcp_lab_slow")
	for _, timeout := range []time.Duration{300 * time.Millisecond, 600 * time.Millisecond} {
		slow.CallTimeout = timeout
		res := e.call(e.session.ID, "mcp_lab_slow", map[string]any{})
		if res.Code != errs.ToolTimeout || res.Details["timeoutMs"] != timeout.Milliseconds() {
			t.Errorf("slow with a %s timeout = %+v", timeout, res)
		}
	}
}

// An MCP tool names no path and its server already runs: a session whose
// project folder is gone still calls the app's servers (as its catalog
// still lists them), while a tool with a path fails closed.
func TestMCPCallOutlivesTheWorkspace(t *testing.T) {
	e, _, _ := labEnv(t)
	e.configure(api.ModeAgent, api.PermissionAuto)
	if err := os.RemoveAll(e.project); err != nil {
		t.Fatal(err)
	}
	if res := e.call(e.session.ID, "mcp_lab_echo", map[string]any{"text": "still here"}); res.Content != "echo: still here" {
		t.Errorf("MCP call in a deleted workspace = %+v", res)
	}
	if res := e.call(e.session.ID, "Read", map[string]any{"path": "main.go"}); res.OK || res.Code != errs.NotFound {
		t.Errorf("Read in a deleted workspace = %+v", res)
	}
	rows, err := e.core.AuditRows(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].MCPServer != "lab" || !rows[0].OK || rows[1].OK {
		t.Errorf("audit rows = %+v", rows)
	}
}
