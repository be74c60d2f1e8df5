package toolcli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

func (f fixture) plugins(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := toolcli.Plugins(t.Context(), args, toolcli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }})
	return code, out.String(), errOut.String()
}

// cliPlugin writes a plugin folder; its process is never started here.
func cliPlugin(t *testing.T, version string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "plugin")
	put(t, filepath.Join(dir, "plugin.json"), `{"id":"dev.acme.cli","name":"Acme CLI","version":"`+version+`",
 "permissions":["agent.tool.register"],"command":"bin/server","args":["--stdio"],
 "contributes":{"agentTools":[
  {"name":"look","description":"Look around.","risk":"low","planSafeActions":["list"],"inputSchema":{"type":"object","properties":{"action":{"type":"string"}}}},
  {"name":"ship","description":"Ship it.","risk":"high"}],
  "mcpServers":{"docs":{"command":"acme-docs","args":["--stdio"]}}}}`)
	put(t, filepath.Join(dir, "bin", "server"), "#!/bin/sh\nexit 1\n")
	put(t, filepath.Join(dir, "commands", "hello.md"), "Say hello.\n")
	return dir
}

// install shows everything the plugin contributes and installs nothing
// unless the user says yes; list and remove see the result.
func TestPluginsInstallListRemove(t *testing.T) {
	f := newFixture(t)
	src := cliPlugin(t, "1.0.0")

	code, out, errOut := f.plugins(t, "n\n", "install", src)
	if code != 1 || !strings.Contains(errOut, "not installed") {
		t.Fatalf("declined install: %d %s %s", code, out, errOut)
	}
	for _, want := range []string{
		"Plugin Acme CLI (dev.acme.cli) version 1.0.0", "Permissions: agent.tool.register",
		"Runs (in the plugin's folder, on its first tool call): bin/server --stdio",
		"plugin_dev_acme_cli_look  risk low, in Plan and Goal only: list",
		"plugin_dev_acme_cli_ship  risk high, hidden in Plan and Goal",
		"commands/hello.md", "docs  stdio: acme-docs --stdio",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("consent text lacks %q:\n%s", want, out)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(f.data, "plugins")); len(entries) != 0 {
		t.Errorf("a declined install left %v", entries)
	}
	if code, out, _ := f.plugins(t, "", "list"); code != 0 || !strings.Contains(out, "No plugins installed") {
		t.Fatalf("list after declining: %d %s", code, out)
	}

	if code, out, errOut := f.plugins(t, "y\n", "install", src); code != 0 || !strings.Contains(out, "Installed dev.acme.cli 1.0.0") {
		t.Fatalf("install: %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(f.data, "plugins", "dev.acme.cli", "1.0.0", "plugin.json")); err != nil {
		t.Errorf("not installed into plugins/<id>/<version>: %v", err)
	}
	code, out, _ = f.plugins(t, "", "list")
	if code != 0 || !strings.Contains(out, "dev.acme.cli  1.0.0") || !strings.Contains(out, "plugin_dev_acme_cli_ship (high)") || !strings.Contains(out, "enabled") {
		t.Fatalf("list: %d\n%s", code, out)
	}

	// An update with --yes consents without asking.
	if code, out, errOut := f.plugins(t, "", "install", cliPlugin(t, "1.1.0"), "--yes", "--json"); code != 0 || !strings.Contains(out, `"version": "1.1.0"`) {
		t.Fatalf("install --yes --json: %d %s %s", code, out, errOut)
	}
	code, out, _ = f.plugins(t, "", "list", "--json")
	var list []hostcore.PluginInfo
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 {
		t.Fatalf("list --json: %d %v %s", code, err, out)
	}
	if len(list) != 1 || list[0].Version != "1.1.0" || !list[0].Consented || list[0].Changed || len(list[0].Commands) != 1 {
		t.Fatalf("list --json = %+v", list)
	}

	if code, out, _ := f.plugins(t, "", "remove", "dev.acme.cli"); code != 0 || !strings.Contains(out, "Removed") {
		t.Fatalf("remove: %d %s", code, out)
	}
	if code, _, errOut := f.plugins(t, "", "remove", "dev.acme.cli"); code != 1 || !strings.Contains(errOut, "no plugin") {
		t.Errorf("remove again: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(f.data, "plugins", "dev.acme.cli")); !os.IsNotExist(err) {
		t.Errorf("the plugin's folder survived: %v", err)
	}
}

// A refused plugin is reported with its reason and leaves nothing behind.
func TestPluginsInstallRefused(t *testing.T) {
	f := newFixture(t)
	src := cliPlugin(t, "1.0.0")
	put(t, filepath.Join(src, "plugin.json"), `{"id":"Bad Id","name":"x","version":"1.0.0","permissions":["agent.tool.register"]}`)
	if code, _, errOut := f.plugins(t, "y\n", "install", src); code != 1 || !strings.Contains(errOut, `id "Bad Id"`) {
		t.Errorf("install of a bad manifest: %d %s", code, errOut)
	}
	if entries, _ := os.ReadDir(filepath.Join(f.data, "plugins")); len(entries) != 0 {
		t.Errorf("a refused install left %v", entries)
	}
}

func TestPluginsUsage(t *testing.T) {
	f := newFixture(t)
	for _, args := range [][]string{nil, {"frob"}, {"install"}, {"remove"}, {"remove", "x", "--yes"}, {"list", "extra"}, {"list", "--nope"}} {
		if code, _, errOut := f.plugins(t, "", args...); code != 2 || !strings.Contains(errOut, "Usage:") {
			t.Errorf("%v: %d %s", args, code, errOut)
		}
	}
	if code, out, _ := f.plugins(t, "", "--help"); code != 0 || !strings.Contains(out, "pi-desktop plugins install") {
		t.Errorf("--help: %d %s", code, out)
	}
}
