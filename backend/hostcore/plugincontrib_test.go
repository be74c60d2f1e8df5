package hostcore_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
	"github.com/pi-desktop/pi-desktop/internal/pluginsample"
)

// contribEnv is the sample plugin with a subagent, two commands (one
// named like the project's own) and its MCP server being the sample
// server itself, logging to mcpLog.
type contribEnv struct {
	*pluginEnv
	mcpLog    string
	projectID string
}

func newContribEnv(t *testing.T) *contribEnv {
	t.Helper()
	mcpLog := filepath.Join(t.TempDir(), "mcp.log")
	p := newPluginEnv(t, func(m map[string]any) {
		m["contributes"].(map[string]any)["mcpServers"] = map[string]any{
			"acme-docs": map[string]any{"command": "bin/server", "args": []any{"--log", filepath.ToSlash(mcpLog)}},
		}
	})
	for rel, text := range map[string]string{
		"subagents/triager.md": "---\nname: triager\ndescription: Triage issues for Acme.\n---\nTriage.\n",
		"commands/lint.md":     "Lint with Acme's rules: $ARGUMENTS",
		"commands/ship.md":     "The plugin's ship, which must not replace the project's.",
	} {
		writeFile(t, filepath.Join(p.src, filepath.FromSlash(rel)), text)
	}
	writeFile(t, filepath.Join(p.project, ".agents", "commands", "ship.md"), "The project's own ship.")
	return &contribEnv{pluginEnv: p, mcpLog: mcpLog, projectID: p.session.ProjectID}
}

// seen is what the project's sessions get of the plugin: its skill,
// subagent and commands in effect, and its MCP server's tools.
type seen struct {
	skill, subagent, lint, pluginShip, mcpTools bool
}

func (c *contribEnv) seen() seen {
	c.t.Helper()
	ctx := c.t.Context()
	var s seen
	sk, err := c.core.ListSkills(ctx, c.projectID)
	if err != nil {
		c.t.Fatal(err)
	}
	s.skill = slices.ContainsFunc(sk.Skills, func(e api.SkillEntry) bool { return e.Name == "hello" && e.Source == "plugin" })
	sub, err := c.core.ListSubagents(ctx, c.projectID)
	if err != nil {
		c.t.Fatal(err)
	}
	s.subagent = slices.ContainsFunc(sub.Subagents, func(x api.Subagent) bool {
		return x.Name == "triager" && x.Source == "plugin" && x.State == "effective"
	})
	cmds, err := c.core.ListSlashCommands(ctx, c.session.ID)
	if err != nil {
		c.t.Fatal(err)
	}
	for _, x := range cmds.Commands {
		switch {
		case x.Name == "lint" && x.Source == "plugin" && x.State == "effective":
			s.lint = true
		case x.Name == "ship" && x.Source == "plugin" && x.State == "effective":
			s.pluginShip = true
		case x.Name == "ship" && x.Source == "plugin" && !strings.Contains(strings.Join(x.Problems, " "), "a plugin never replaces"):
			c.t.Errorf("the plugin's /ship is left out without saying why: %+v", x)
		}
	}
	for _, d := range c.core.DeferredForTest(ctx, c.session.ID, api.ModeAgent) {
		if strings.Contains(d.Name, "acme") && !strings.HasPrefix(d.Name, "plugin_") {
			s.mcpTools = true
		}
	}
	return s
}

// seenOnceStarted is seen once the plugin's MCP server, which consent or
// enabling starts, is ready (a session's catalog after its first does not
// wait for servers still connecting; the next turn sees them).
func (c *contribEnv) seenOnceStarted() seen {
	c.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := c.seen()
		if s.mcpTools || time.Now().After(deadline) {
			return s
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *contribEnv) mcpStarts() int {
	n := 0
	for _, ev := range pluginsample.Events(c.t, c.mcpLog) {
		if strings.HasPrefix(ev, "start ") {
			n++
		}
	}
	return n
}

func (c *contribEnv) mcpPid() int {
	return hostcore.MCPPidForTest(c.core, "plugin:"+c.info(sampleID).Path, "acme-docs")
}

// A consented, enabled plugin's skills, subagents, commands and MCP
// servers reach the project's sessions through the engines that read
// those; before consent nothing does (and its MCP server never starts),
// and disabling or removing it takes every one away at once, stopping its
// server.
func TestPluginContributionsFollowConsentAndEnable(t *testing.T) {
	c := newContribEnv(t)
	c.configure(api.ModeAgent, api.PermissionAuto)
	none := seen{}
	all := seen{skill: true, subagent: true, lint: true, mcpTools: true}

	sum := c.install(false)
	if got := c.seen(); got != none {
		t.Fatalf("before consent: %+v", got)
	}
	if n := c.mcpStarts(); n != 0 {
		t.Fatalf("the plugin's MCP server started %d times before consent", n)
	}
	if !slices.ContainsFunc(sum.MCPServers, func(s plugin.ServerSummary) bool { return s.ID == "acme-docs" && s.Command == "bin/server" }) {
		t.Errorf("the consent card does not list the MCP server and its command: %+v", sum.MCPServers)
	}

	if err := c.core.ConsentPlugin(t.Context(), sampleID, sum.Hash); err != nil {
		t.Fatal(err)
	}
	if got := c.seenOnceStarted(); got != all {
		t.Fatalf("consented and enabled: %+v, want %+v", got, all)
	}
	events := pluginsample.Events(t, c.mcpLog)
	if !slices.Contains(events, "cwd "+c.info(sampleID).Path) {
		t.Errorf("the MCP server did not start in the plugin folder: %q", events)
	}
	if c.mcpPid() == 0 {
		t.Fatal("the plugin's MCP server is not running")
	}

	// Off in this project only: gone from its sessions, the app-wide
	// choice still on keeps the server for other projects.
	if err := c.core.SetPluginEnabled(t.Context(), sampleID, c.projectID, false); err != nil {
		t.Fatal(err)
	}
	if got := c.seen(); got != none {
		t.Errorf("disabled in the project: %+v", got)
	}
	if err := c.core.SetPluginEnabled(t.Context(), sampleID, c.projectID, true); err != nil {
		t.Fatal(err)
	}

	if err := c.core.SetPluginEnabled(t.Context(), sampleID, "", false); err != nil {
		t.Fatal(err)
	}
	// The project's own choice (on) still holds for its sessions, so the
	// server runs on for them.
	if got := c.seen(); got != all {
		t.Errorf("disabled app-wide but on in the project: %+v", got)
	}
	if err := c.core.SetPluginEnabled(t.Context(), sampleID, c.projectID, false); err != nil {
		t.Fatal(err)
	}
	if got := c.seen(); got != none {
		t.Errorf("disabled everywhere: %+v", got)
	}
	if pid := c.mcpPid(); pid != 0 {
		t.Errorf("the MCP server (pid %d) still runs after the plugin was disabled everywhere", pid)
	}

	if err := c.core.SetPluginEnabled(t.Context(), sampleID, c.projectID, true); err != nil {
		t.Fatal(err)
	}
	if got := c.seenOnceStarted(); got != all {
		t.Fatalf("enabled again: %+v", got)
	}
	path := c.info(sampleID).Path
	if err := c.core.RemovePlugin(t.Context(), sampleID); err != nil {
		t.Fatal(err)
	}
	if got := c.seen(); got != none {
		t.Errorf("after removal: %+v", got)
	}
	if pid := hostcore.MCPPidForTest(c.core, "plugin:"+path, "acme-docs"); pid != 0 {
		t.Errorf("the MCP server (pid %d) still runs after the plugin was removed", pid)
	}
}
