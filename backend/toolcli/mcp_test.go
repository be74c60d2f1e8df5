//go:build !windows

package toolcli_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
	"github.com/pi-desktop/pi-desktop/internal/mcpservers"
)

func (f fixture) mcp(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := toolcli.MCP(t.Context(), args, toolcli.Env{Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }})
	return code, out.String(), errOut.String()
}

func (f fixture) listJSON(t *testing.T, args ...string) []api.MCPServer {
	t.Helper()
	code, out, errOut := f.mcp(t, append([]string{"list", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("list: %d %s", code, errOut)
	}
	var list []api.MCPServer
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("list --json: %v in %q", err, out)
	}
	return list
}

// The CLI as users know it from other agents: add, list, test, the tool
// seen by `pi-desktop tool`, remove.
func TestMCPCommandUserServer(t *testing.T) {
	f := newFixture(t)
	cmd, args := mcpservers.Everything(t)
	add := append([]string{"add", "everything", "--env", "DEBUG=1", "--env", "API_TOKEN=s3cret", "--"}, cmd)
	if code, out, errOut := f.mcp(t, append(add, args...)...); code != 0 || !strings.Contains(out, `Added MCP server "everything"`) {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := f.mcp(t, append(add, args...)...); code != 1 || !strings.Contains(errOut, "everything") {
		t.Errorf("adding a taken name: %d %q", code, errOut)
	}

	list := f.listJSON(t)
	if len(list) != 1 || list[0].State != api.MCPStateReady || len(list[0].Tools) == 0 {
		t.Fatalf("list: %+v", list)
	}
	for _, e := range list[0].Env {
		if e.Name == "API_TOKEN" && (!e.Secret || e.Value != "" || !e.HasValue) {
			t.Errorf("a token-like env value is not kept secret: %+v", e)
		}
	}
	if _, out, _ := f.mcp(t, "list"); !strings.Contains(out, "everything") || !strings.Contains(out, "ready") {
		t.Errorf("list table:\n%s", out)
	}

	code, out, errOut := f.mcp(t, "test", "everything")
	if code != 0 || !strings.Contains(out, "echo (mcp_everything_echo)") {
		t.Errorf("test: %d %q %q", code, out, errOut)
	}

	// pi-desktop tool sees the configured server.
	code, results, stderr := f.run(t, nil, "mcp_everything_echo", "--workspace", f.workspace,
		"--args", `{"message":"from the cli"}`, "--approve", "once")
	if code != 0 || len(results) != 1 || !strings.Contains(results[0].Content, "from the cli") {
		t.Fatalf("tool: %d %+v %q", code, results, stderr)
	}

	if code, _, errOut := f.mcp(t, "remove", "everything"); code != 0 {
		t.Fatalf("remove: %q", errOut)
	}
	if list := f.listJSON(t); len(list) != 0 {
		t.Errorf("after remove: %+v", list)
	}
	if code, _, errOut := f.mcp(t, "test", "everything"); code != 1 || errOut == "" {
		t.Errorf("test of a removed server: %d %q", code, errOut)
	}
}

func TestMCPCommandFailures(t *testing.T) {
	f := newFixture(t)
	missing := filepath.Join(t.TempDir(), "no-such-server")
	if code, _, errOut := f.mcp(t, "add", "broken", "--", missing); code != 0 {
		t.Fatalf("add: %q", errOut)
	}
	code, _, errOut := f.mcp(t, "test", "broken")
	if code != 1 || !strings.Contains(errOut, "could not start") {
		t.Errorf("test of a server that cannot start: %d %q", code, errOut)
	}
	for _, args := range [][]string{
		{},
		{"add"},
		{"add", "x"},
		{"add", "x", "--url", "https://example.com/mcp", "--", "cmd"},
		{"add", "x", "--header", "A: b", "--", "cmd"},
		{"add", "x", "--env", "NOEQUALS", "--", "cmd"},
		{"add", "x", "--scope", "team", "--", "cmd"},
		{"list", "extra"},
		{"frobnicate", "x"},
	} {
		if code, _, _ := f.mcp(t, args...); code != 2 {
			t.Errorf("%q exited %d, want 2", args, code)
		}
	}
}

// --scope project writes the project's .mcp.json (keeping what else it
// holds) and trusts it here; list --workspace shows it; remove takes it
// out of the file.
func TestMCPCommandProjectScope(t *testing.T) {
	f := newFixture(t)
	cfg := filepath.Join(f.workspace, ".mcp.json")
	if err := os.WriteFile(cfg, []byte(`{"other":{"keep":true},"mcpServers":{"untrusted":{"command":"/bin/false"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, args := mcpservers.Everything(t)
	if code, _, errOut := f.mcp(t, append([]string{"add", "docs", "--scope", "project", "--workspace", f.workspace, "--env", "SECRET_KEY=x", "--", cmd}, args...)...); code != 1 || !strings.Contains(errOut, "${SECRET_KEY}") {
		t.Errorf("a secret value in the shared file: %d %q", code, errOut)
	}
	code, out, errOut := f.mcp(t, append([]string{"add", "docs", "--scope", "project", "--workspace", f.workspace, "--"}, append([]string{cmd}, args...)...)...)
	if code != 0 || !strings.Contains(out, "trusted") {
		t.Fatalf("add --scope project: %d %q %q", code, out, errOut)
	}
	var doc map[string]map[string]any
	data, _ := os.ReadFile(cfg)
	if err := json.Unmarshal(data, &doc); err != nil || doc["other"]["keep"] != true || doc["mcpServers"]["docs"] == nil || doc["mcpServers"]["untrusted"] == nil {
		t.Fatalf(".mcp.json after add: %s (%v)", data, err)
	}

	byID := map[string]api.MCPServer{}
	for _, s := range f.listJSON(t, "--workspace", f.workspace) {
		byID[s.ID] = s
	}
	if s := byID["docs"]; !s.Trusted || s.State != api.MCPStateReady || s.Scope != api.MCPScopeProject {
		t.Errorf("docs: %+v", s)
	}
	if s := byID["untrusted"]; s.Trusted || s.State != api.MCPStateUntrusted {
		t.Errorf("untrusted: %+v", s)
	}
	if code, _, errOut := f.mcp(t, "test", "untrusted", "--workspace", f.workspace); code != 1 || !strings.Contains(errOut, "not trusted") {
		t.Errorf("test of an untrusted server: %d %q", code, errOut)
	}

	if code, _, errOut := f.mcp(t, "remove", "docs", "--scope", "project", "--workspace", f.workspace); code != 0 {
		t.Fatalf("remove: %q", errOut)
	}
	data, _ = os.ReadFile(cfg)
	if strings.Contains(string(data), `"docs"`) || !strings.Contains(string(data), `"untrusted"`) {
		t.Errorf(".mcp.json after remove: %s", data)
	}
}

// list --workspace reads a folder that is no project without registering
// it (its servers are untrusted, nothing starts; test refuses them), and a
// folder or file that cannot be read is a row with the reason, not a failed
// list.
func TestMCPListChangesNothing(t *testing.T) {
	f := newFixture(t)
	marker := filepath.Join(t.TempDir(), "ran")
	if err := os.WriteFile(filepath.Join(f.workspace, ".mcp.json"),
		[]byte(`{"mcpServers":{"tracker":{"command":"/bin/sh","args":["-c","touch `+marker+`"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(f.workspace, ".agents", "servers"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.workspace, ".agents", "servers", "broken.json"), []byte(`{"command":`), 0o644); err != nil {
		t.Fatal(err)
	}
	list := f.listJSON(t, "--workspace", f.workspace)
	byID := map[string]api.MCPServer{}
	for _, s := range list {
		byID[cmp.Or(s.ID, s.Source)] = s
	}
	if s := byID["tracker"]; len(list) != 2 || s.Trusted || s.State != api.MCPStateUntrusted || s.ProjectID != "" {
		t.Errorf("an unregistered folder's servers: %+v", list)
	}
	if s := byID[".agents/servers/broken.json"]; s.State != api.MCPStateFailed || s.Source != ".agents/servers/broken.json" || s.Error == "" {
		t.Errorf("a malformed server file: %+v", s)
	}
	if _, out, _ := f.mcp(t, "list", "--workspace", f.workspace); !strings.Contains(out, "tracker is not trusted") || !strings.Contains(out, "\n.agents/servers/broken.json is not a JSON object") {
		t.Errorf("list table:\n%s", out)
	}
	if code, _, errOut := f.mcp(t, "test", "tracker", "--workspace", f.workspace); code != 1 || !strings.Contains(errOut, "not trusted") {
		t.Errorf("test of a server in a folder that is no project: %d %q", code, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("listing or testing ran an untrusted server")
	}
	if projects := f.projects(t); len(projects) != 0 {
		t.Errorf("listing or testing registered %+v", projects)
	}

	missing := filepath.Join(t.TempDir(), "gone")
	list = f.listJSON(t, "--workspace", missing)
	if len(list) != 1 || list[0].Source != "." || list[0].State != api.MCPStateFailed || list[0].ErrorCode != "PROJECT_NOT_FOUND" || list[0].Error == "" {
		t.Errorf("a folder that cannot be read: %+v", list)
	}
}

// projects are the projects saved in the fixture's data folder.
func (f fixture) projects(t *testing.T) []api.Project {
	t.Helper()
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: f.data, RgPath: "-", DeferMCP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	list, err := core.ListProjects(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return list
}
