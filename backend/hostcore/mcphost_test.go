//go:build !windows

package hostcore_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/internal/mcpservers"
)

// The host's own MCP side, end to end: servers saved in Settings (SQLite),
// started by the manager through the host's dial (environment policy,
// owned process trees), listed with their live state, and called through
// Execute under the one pipeline.

func everythingInput(t *testing.T, id string) api.MCPServerInput {
	cmd, args := mcpservers.Everything(t)
	return api.MCPServerInput{ID: id, Transport: "stdio", Command: cmd, Args: args, Enabled: true}
}

// serverState polls the listing until id reaches want (or fails).
func serverState(t *testing.T, e *env, projectID, id, want string) api.MCPServer {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		list, err := e.core.ListMCPServers(t.Context(), projectID)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(list, func(s api.MCPServer) bool { return s.ID == id })
		if i >= 0 && list[i].State == want {
			return list[i]
		}
		if time.Now().After(deadline) {
			t.Fatalf("server %q never reached %s: %+v", id, want, list)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitGone waits for a process that is ending (the manager ends trees in
// the background after a Sync).
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still runs", what, pid)
		}
	}
}

func projectID(t *testing.T, e *env) string {
	t.Helper()
	list, err := e.core.ListProjects(t.Context())
	if err != nil || len(list) != 1 {
		t.Fatalf("projects: %v %v", list, err)
	}
	return list[0].ID
}

func projectPath(t *testing.T, e *env) string {
	t.Helper()
	list, _ := e.core.ListProjects(t.Context())
	return list[0].Path
}

func TestMCPAppServerSavedListedCalled(t *testing.T) {
	e, _ := newMCPEnv(t, nil, nil)
	saved, err := e.core.SaveMCPServer(t.Context(), everythingInput(t, "everything"))
	if err != nil {
		t.Fatal(err)
	}
	if saved.Scope != api.MCPScopeUser || saved.Source != "app" {
		t.Errorf("saved %+v", saved)
	}
	s := serverState(t, e, "", "everything", api.MCPStateReady)
	i := slices.IndexFunc(s.Tools, func(t api.MCPTool) bool { return t.Name == "echo" })
	if i < 0 || s.Tools[i].ModelName != "mcp_everything_echo" || s.Tools[i].SchemaTokens <= 0 || s.SchemaTokens <= 0 {
		t.Fatalf("tools %+v (schema tokens %d)", s.Tools, s.SchemaTokens)
	}

	// Execute runs it with the card a medium-risk MCP tool takes.
	res, card := e.callAnswering(e.session.ID, "mcp_everything_echo", map[string]any{"message": "hi there"}, "allow-once")
	if !res.OK || !strings.Contains(res.Content, "hi there") {
		t.Fatalf("echo: %+v", res)
	}
	if card.Reason != "MCP server tool requires approval" {
		t.Errorf("card reason %q", card.Reason)
	}

	// A tool switched off is gone from the session's tools at once.
	if err := e.core.SetMCPToolEnabled(t.Context(), "", "everything", "echo", false); err != nil {
		t.Fatal(err)
	}
	if res := e.call(e.session.ID, "mcp_everything_echo", map[string]any{"message": "x"}); res.Code != errs.ToolNotFound {
		t.Errorf("switched-off tool: %+v", res)
	}
}

func TestMCPRemoveAndCloseEndTheProcess(t *testing.T) {
	e, _ := newMCPEnv(t, nil, nil)
	for _, id := range []string{"one", "two"} {
		if _, err := e.core.SaveMCPServer(t.Context(), everythingInput(t, id)); err != nil {
			t.Fatal(err)
		}
	}
	serverState(t, e, "", "one", api.MCPStateReady)
	serverState(t, e, "", "two", api.MCPStateReady)
	one, two := hostcore.MCPPidForTest(e.core, "", "one"), hostcore.MCPPidForTest(e.core, "", "two")
	if !alive(one) || !alive(two) {
		t.Fatalf("pids %d %d not running", one, two)
	}
	if err := e.core.RemoveMCPServer(t.Context(), "one"); err != nil {
		t.Fatal(err)
	}
	if alive(one) {
		t.Errorf("removed server's process %d still runs", one)
	}
	if list, _ := e.core.ListMCPServers(t.Context(), ""); slices.ContainsFunc(list, func(s api.MCPServer) bool { return s.ID == "one" }) {
		t.Errorf("removed server still listed")
	}
	e.core.Close()
	if alive(two) {
		t.Errorf("process %d outlived Close", two)
	}
}

// A project's server never runs before the user trusts that exact
// definition; a changed file asks again and stops the old one.
func TestMCPProjectServerTrust(t *testing.T) {
	e, _ := newMCPEnv(t, nil, nil)
	pid := projectID(t, e)
	marker := filepath.Join(t.TempDir(), "ran")
	cmd, args := mcpservers.Everything(t)
	writeMCPJSON := func(extra string) {
		t.Helper()
		// The command leaves a marker when it runs, then becomes the server.
		def := map[string]any{"mcpServers": map[string]any{
			"tracker": map[string]any{"command": "/bin/sh", "args": []string{"-c", `touch "$0"; exec "$@"`, marker, cmd, args[0], args[1]}, "env": map[string]string{"X": extra}},
		}}
		b, _ := json.Marshal(def)
		write(t, filepath.Join(e.project, ".mcp.json"), string(b))
	}
	writeMCPJSON("1")

	s := serverState(t, e, pid, "tracker", api.MCPStateUntrusted)
	if s.Scope != api.MCPScopeProject || s.Source != ".mcp.json" || s.Trusted || s.Command != "/bin/sh" || s.DefinitionHash == "" {
		t.Fatalf("listed %+v", s)
	}
	// Neither listing, nor a session's catalog, nor a call starts it.
	if res := e.call(e.session.ID, "mcp_tracker_echo", map[string]any{"message": "x"}); res.Code != errs.ToolNotFound {
		t.Errorf("call of an untrusted server's tool: %+v", res)
	}
	if _, err := e.core.TestMCPServerByID(t.Context(), pid, "tracker"); !errs.Is(err, errs.MCPServerUnavailable) {
		t.Errorf("test of an untrusted server: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an untrusted project server ran")
	}

	if err := e.core.TrustMCPServer(t.Context(), pid, "tracker", "not-the-hash"); !errs.Is(err, errs.Conflict) {
		t.Errorf("trust with a stale hash: %v", err)
	}
	if err := e.core.TrustMCPServer(t.Context(), pid, "tracker", s.DefinitionHash); err != nil {
		t.Fatal(err)
	}
	ready := serverState(t, e, pid, "tracker", api.MCPStateReady)
	if !ready.Trusted {
		t.Errorf("trusted server listed as %+v", ready)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the trusted server did not run: %v", err)
	}
	running := hostcore.MCPPidForTest(e.core, projectPath(t, e), "tracker")

	// Trusted, Settings' Test connects it once more and lists its tools.
	res, err := e.core.TestMCPServerByID(t.Context(), pid, "tracker")
	if err != nil || !res.OK || !slices.ContainsFunc(res.Tools, func(t api.MCPTool) bool { return t.Name == "echo" }) {
		t.Errorf("test of the trusted server: %+v %v", res, err)
	}
	if hostcore.MCPPidForTest(e.core, projectPath(t, e), "tracker") != running {
		t.Error("Test replaced the running server")
	}

	// The file changes: untrusted again, and the old process ends.
	writeMCPJSON("2")
	changed := serverState(t, e, pid, "tracker", api.MCPStateUntrusted)
	if changed.DefinitionHash == s.DefinitionHash {
		t.Error("a changed definition kept its hash")
	}
	waitGone(t, running, "the server of the old definition")
}

func TestMCPTestServerForm(t *testing.T) {
	e, _ := newMCPEnv(t, nil, nil)
	res, err := e.core.TestMCPServer(t.Context(), everythingInput(t, "draft"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !slices.ContainsFunc(res.Tools, func(t api.MCPTool) bool { return t.Name == "echo" && t.ModelName == "mcp_draft_echo" }) {
		t.Fatalf("test result %+v", res)
	}
	if list, _ := e.core.ListMCPServers(t.Context(), ""); len(list) != 0 {
		t.Errorf("Test saved something: %+v", list)
	}
	bad, err := e.core.TestMCPServer(t.Context(), api.MCPServerInput{ID: "bad", Command: filepath.Join(t.TempDir(), "nope"), Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if bad.OK || bad.ErrorCode != string(errs.MCPServerUnavailable) || bad.Error == "" {
		t.Errorf("a missing command tested %+v", bad)
	}
	if _, err := e.core.TestMCPServer(t.Context(), api.MCPServerInput{ID: "x y"}); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("an invalid form: %v", err)
	}
}

// A server added or removed by another process on the same data folder
// (`pi-desktop mcp add` while the app runs) reaches the running app: its
// list, its sessions' tools and its processes follow.
func TestMCPEditsFromAnotherProcess(t *testing.T) {
	e, _ := newMCPEnv(t, nil, nil)
	cli, err := hostcore.New(t.Context(), hostcore.Config{DataDir: e.core.Info().DataDir, RgPath: "-", DeferMCP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if _, err := cli.AddMCPServer(t.Context(), everythingInput(t, "everything")); err != nil {
		t.Fatal(err)
	}
	if st := hostcore.MCPPidForTest(cli, "", "everything"); st != 0 {
		t.Errorf("adding from the CLI started the server in the CLI (pid %d)", st)
	}
	serverState(t, e, "", "everything", api.MCPStateReady)
	pid := hostcore.MCPPidForTest(e.core, "", "everything")
	res, _ := e.callAnswering(e.session.ID, "mcp_everything_echo", map[string]any{"message": "seen"}, "allow-once")
	if !res.OK {
		t.Fatalf("echo after a CLI add: %+v", res)
	}
	if err := cli.RemoveMCPServer(t.Context(), "everything"); err != nil {
		t.Fatal(err)
	}
	if list, _ := e.core.ListMCPServers(t.Context(), ""); len(list) != 0 {
		t.Errorf("removed in another process, still listed: %+v", list)
	}
	waitGone(t, pid, "a server removed in another process")
	if res := e.call(e.session.ID, "mcp_everything_echo", map[string]any{"message": "x"}); res.Code != errs.ToolNotFound {
		t.Errorf("a removed server's tool: %+v", res)
	}
}
