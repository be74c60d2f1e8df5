//go:build !windows

package hostcore_test

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/internal/mcpservers"
)

// sessionNames is the session's MCP catalog: server id → own tool name →
// the name its model calls it by.
func sessionNames(t *testing.T, e *env) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, d := range e.core.DeferredForTest(t.Context(), e.session.ID, e.session.OperatingMode) {
		if d.Origin == nil {
			continue
		}
		if out[d.Origin.Server] == nil {
			out[d.Origin.Server] = map[string]string{}
		}
		out[d.Origin.Server][d.Origin.Tool] = d.Name
	}
	return out
}

// listedNames is the same map from a listing, rows of servers the session
// does not use left out.
func listedNames(list []api.MCPServer) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, s := range list {
		for _, tool := range s.Tools {
			if tool.ModelName == "" {
				continue
			}
			if out[s.ID] == nil {
				out[s.ID] = map[string]string{}
			}
			out[s.ID][tool.Name] = tool.ModelName
		}
	}
	return out
}

func sameNames(t *testing.T, what string, listed, session map[string]map[string]string) {
	t.Helper()
	for id, tools := range session {
		for tool, name := range tools {
			if listed[id][tool] != name {
				t.Errorf("%s: %s/%s listed as %q, the session's model calls it %q", what, id, tool, listed[id][tool], name)
			}
		}
	}
	for id, tools := range listed {
		for tool, name := range tools {
			if session[id][tool] != name {
				t.Errorf("%s: %s/%s listed as %q, which the session does not offer", what, id, tool, name)
			}
		}
	}
}

// Settings names each tool as the session's model sees it: over the whole
// catalog, so two servers whose names collide once sanitised get the
// suffixed names the session gives them, and a switched-off tool neither
// has a name nor changes the others'.
func TestMCPListNamesToolsAsTheSessionSees(t *testing.T) {
	e, _ := newMCPEnv(t, nil, nil)
	for _, id := range []string{"my.srv", "my_srv"} {
		if _, err := e.core.SaveMCPServer(t.Context(), everythingInput(t, id)); err != nil {
			t.Fatal(err)
		}
	}
	serverState(t, e, "", "my.srv", api.MCPStateReady)
	serverState(t, e, "", "my_srv", api.MCPStateReady)
	pid := projectID(t, e)

	list, err := e.core.ListMCPServers(t.Context(), pid)
	if err != nil {
		t.Fatal(err)
	}
	session := sessionNames(t, e)
	sameNames(t, "colliding servers", listedNames(list), session)
	dot, under := session["my.srv"]["echo"], session["my_srv"]["echo"]
	if dot == "" || under == "" || dot == under || dot == "mcp_my_srv_echo" || under == "mcp_my_srv_echo" {
		t.Fatalf("colliding echo tools named %q and %q", dot, under)
	}

	// With one echo off, the other has its plain name, in both.
	if err := e.core.SetMCPToolEnabled(t.Context(), "", "my_srv", "echo", false); err != nil {
		t.Fatal(err)
	}
	if list, err = e.core.ListMCPServers(t.Context(), pid); err != nil {
		t.Fatal(err)
	}
	session = sessionNames(t, e)
	sameNames(t, "one echo off", listedNames(list), session)
	if got := session["my.srv"]["echo"]; got != "mcp_my_srv_echo" {
		t.Errorf("the remaining echo is %q, want mcp_my_srv_echo", got)
	}
	i := slices.IndexFunc(list, func(s api.MCPServer) bool { return s.ID == "my_srv" })
	j := slices.IndexFunc(list[i].Tools, func(tool api.MCPTool) bool { return tool.Name == "echo" })
	if list[i].Tools[j].Enabled || list[i].Tools[j].ModelName != "" {
		t.Errorf("a switched-off tool listed as %+v", list[i].Tools[j])
	}
}

// An app server and a trusted project server of the same id: the
// project's sessions use the project's, and the listing says so.
func TestMCPListMarksTheOverriddenAppServer(t *testing.T) {
	e, _ := newMCPEnv(t, nil, nil)
	pid := projectID(t, e)
	if _, err := e.core.SaveMCPServer(t.Context(), everythingInput(t, "dup")); err != nil {
		t.Fatal(err)
	}
	cmd, args := mcpservers.Everything(t)
	writeJSONFile(t, e.project+"/.mcp.json", map[string]any{"mcpServers": map[string]any{"dup": map[string]any{"command": cmd, "args": args}}})

	// Untrusted, the project's never runs: the app's is the one in use.
	serverState(t, e, "", "dup", api.MCPStateReady)
	inUse := serverState(t, e, pid, "dup", api.MCPStateReady)
	list, err := e.core.ListMCPServers(t.Context(), pid)
	if err != nil {
		t.Fatal(err)
	}
	if inUse.Scope != api.MCPScopeUser || inUse.Overridden || len(list) != 2 {
		t.Fatalf("before trust: %+v", list)
	}

	project := list[slices.IndexFunc(list, func(s api.MCPServer) bool { return s.Scope == api.MCPScopeProject })]
	if err := e.core.TrustMCPServer(t.Context(), pid, "dup", project.DefinitionHash); err != nil {
		t.Fatal(err)
	}
	var app, own api.MCPServer
	for deadline := time.Now().Add(30 * time.Second); app.ID == "" || own.State != api.MCPStateReady; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the trusted project server never got ready: %+v", list)
		}
		if list, err = e.core.ListMCPServers(t.Context(), pid); err != nil {
			t.Fatal(err)
		}
		for _, s := range list {
			if s.Scope == api.MCPScopeUser {
				app = s
			} else {
				own = s
			}
		}
	}
	if !app.Overridden || own.Overridden || !own.Trusted {
		t.Errorf("after trust: app %+v, project %+v", app, own)
	}
	for _, tool := range app.Tools {
		if tool.ModelName != "" {
			t.Errorf("the overridden app server's %s is named %q", tool.Name, tool.ModelName)
		}
	}
	sameNames(t, "overridden", listedNames(list), sessionNames(t, e))
	if listedNames(list)["dup"]["echo"] != "mcp_dup_echo" {
		t.Errorf("the project's echo: %+v", own.Tools)
	}

	// The app's own list knows no project: nothing is overridden there.
	appOnly, err := e.core.ListMCPServers(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(appOnly) != 1 || appOnly[0].Overridden {
		t.Errorf("app list: %+v", appOnly)
	}
}

// A project whose files cannot be read lists as a failed row saying why,
// beside the app's servers, instead of failing the whole list.
func TestMCPListShowsAnUnreadableSourceAsARow(t *testing.T) {
	e, _ := newMCPEnv(t, nil, nil)
	pid := projectID(t, e)
	if _, err := e.core.SaveMCPServer(t.Context(), api.MCPServerInput{ID: "off", Transport: "stdio", Command: "/bin/false"}); err != nil {
		t.Fatal(err)
	}
	write(t, e.project+"/.mcp.json", `{"mcpServers": {`)
	list, err := e.core.ListMCPServers(t.Context(), pid)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(list, func(s api.MCPServer) bool { return s.Source == ".mcp.json" })
	if len(list) != 2 || i < 0 || list[i].State != api.MCPStateFailed || list[i].ErrorCode != string(errs.InvalidArgument) || list[i].Error == "" {
		t.Errorf("a malformed .mcp.json: %+v", list)
	}

	if err := os.RemoveAll(e.project); err != nil {
		t.Fatal(err)
	}
	if list, err = e.core.ListMCPServers(t.Context(), pid); err != nil {
		t.Fatalf("an unreadable project folder failed the list: %v", err)
	}
	i = slices.IndexFunc(list, func(s api.MCPServer) bool { return s.Source == "." })
	if len(list) != 2 || list[0].ID != "off" || i < 0 || list[i].Scope != api.MCPScopeProject || list[i].State != api.MCPStateFailed ||
		list[i].ErrorCode != string(errs.ProjectNotFound) || list[i].Error == "" {
		t.Errorf("an unreadable project folder: %+v", list)
	}
}

func writeJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, string(b))
}
