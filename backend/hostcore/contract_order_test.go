package hostcore_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// lastAudit returns the session's newest audit row.
func (e *env) lastAudit() (tool, decision, code string) {
	e.t.Helper()
	rows, err := e.core.AuditRows(e.t.Context(), e.session.ID)
	if err != nil || len(rows) == 0 {
		e.t.Fatalf("audit rows: %d, %v", len(rows), err)
	}
	r := rows[len(rows)-1]
	return r.Tool, r.Decision, r.ErrorCode
}

// Spec §10: in Plan and Goal, Write and Edit are denied before anything
// else, so a malformed call gets the contract deny (audited as a policy
// denial), not a validation error.
func TestContractDenyComesBeforeValidation(t *testing.T) {
	tests := []struct {
		name, tool string
		args       map[string]any
		code       errs.Code
	}{
		{"Write without content", "Write", map[string]any{"path": "x.txt"}, errs.WriteDisabledInPlan},
		{"Write with an unknown field", "Write", map[string]any{"path": "x.txt", "content": "x", "bogus": 1}, errs.WriteDisabledInPlan},
		{"Write without a path", "Write", map[string]any{"content": "x"}, errs.WriteDisabledInPlan},
		{"Edit without a tag", "Edit", map[string]any{"path": "main.go", "ops": "PUT >$:\n+x"}, errs.EditDisabledInPlan},
		{"Edit with a bad tag", "Edit", map[string]any{"path": "main.go", "tag": "xyz", "ops": "PUT >$:\n+x"}, errs.EditDisabledInPlan},
		{"unknown tool", "Frob", map[string]any{"x": 1}, errs.ToolDisabledInPlan},
	}
	for _, mode := range []string{"plan", "goal"} {
		for _, pm := range []string{"ask", "auto"} {
			e := newEnv(t)
			e.configure(mode, pm)
			for _, tt := range tests {
				res := e.call(e.session.ID, tt.tool, tt.args)
				if res.OK || res.Code != tt.code || res.Decision != "deny" || !strings.Contains(res.Message, mode+" mode") {
					t.Errorf("%s/%s %s = %+v; want %s, decision deny", mode, pm, tt.name, res, tt.code)
				}
				if tool, decision, code := e.lastAudit(); tool != tt.tool || decision != "deny" || code != string(tt.code) {
					t.Errorf("%s/%s %s audited as %s/%s/%s; want a policy denial", mode, pm, tt.name, tool, decision, code)
				}
			}
			e.noCard()
			if _, err := os.Stat(filepath.Join(e.project, "x.txt")); !os.IsNotExist(err) {
				t.Errorf("%s/%s: a file was written", mode, pm)
			}
		}
	}
}

// pluginTool is a registered tool of the plugin class that counts its runs.
type pluginTool struct {
	name     string
	planSafe []string
	runs     atomic.Int32
}

func (p *pluginTool) Spec() tools.Spec {
	return tools.Spec{Name: p.name, Class: permission.ClassPlugin, Risk: permission.Medium, PlanSafeActions: p.planSafe,
		Schema: json.RawMessage(`{"type":"object","properties":{"action":{"type":"string"}},"additionalProperties":false}`)}
}

func (p *pluginTool) Run(context.Context, *tools.Call) tools.Result {
	p.runs.Add(1)
	return tools.Result{OK: true, Content: "ran"}
}

// Spec §11: a plugin tool that declares plan-safe actions is admitted in
// Plan and Goal (then follows the permission mode); one that does not is
// refused with PLUGIN_DISABLED_IN_PLAN and audited as a policy denial.
func TestPlanSafePluginToolsAreAdmitted(t *testing.T) {
	safe := &pluginTool{name: "plugin_demo_list", planSafe: []string{"list"}}
	unsafe := &pluginTool{name: "plugin_demo_push"}
	e := newEnv(t, safe, unsafe)
	for _, mode := range []string{"plan", "goal"} {
		e.configure(mode, "auto")
		if res := e.call(e.session.ID, safe.name, map[string]any{"action": "list"}); !res.OK || res.Decision != "allow" {
			t.Errorf("%s/auto: plan-safe plugin = %+v", mode, res)
		}
		res := e.call(e.session.ID, unsafe.name, map[string]any{"action": "push"})
		if res.OK || res.Code != errs.PluginDisabledInPlan || res.Decision != "deny" {
			t.Errorf("%s/auto: plugin without plan-safe actions = %+v", mode, res)
		}
		if tool, decision, code := e.lastAudit(); tool != unsafe.name || decision != "deny" || code != string(errs.PluginDisabledInPlan) {
			t.Errorf("%s: audited as %s/%s/%s", mode, tool, decision, code)
		}
		e.noCard()
		// Admitted means the permission mode applies as in Agent: ask shows a card.
		e.configure(mode, "ask")
		if res, card := e.callAnswering(e.session.ID, safe.name, map[string]any{"action": "list"}, permission.AllowOnce); !res.OK || card.Tool != safe.name {
			t.Errorf("%s/ask: plan-safe plugin = %+v, card %+v", mode, res, card)
		}
		if res := e.call(e.session.ID, unsafe.name, map[string]any{}); res.Code != errs.PluginDisabledInPlan {
			t.Errorf("%s/ask: plugin without plan-safe actions = %+v", mode, res)
		}
		e.noCard()
	}
	if safe.runs.Load() != 4 || unsafe.runs.Load() != 0 {
		t.Errorf("runs: plan-safe %d (want 4), other %d (want 0)", safe.runs.Load(), unsafe.runs.Load())
	}
	// In Agent mode both run under the ordinary policy.
	e.configure("agent", "auto")
	if res := e.call(e.session.ID, unsafe.name, map[string]any{}); !res.OK {
		t.Errorf("agent/auto plugin = %+v", res)
	}
}

// A link in the scratch folder that leads into the workspace is refused as
// such before anything is probed: no "already exists", no NOT_FOUND, no
// EDIT_TARGET_MISSING naming a workspace file.
func TestScratchLinkIntoWorkspaceRefusedBeforeProbing(t *testing.T) {
	e := newEnv(t)
	scratch, err := e.core.ScratchDirForTest(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.project, filepath.Join(scratch, "ln")); err != nil {
		t.Fatal(err)
	}
	via := func(name string) string { return filepath.Join(scratch, "ln", name) }
	tests := []struct {
		tool string
		args map[string]any
	}{
		{"Write", map[string]any{"path": via("main.go"), "content": "pwned"}},            // exists: was EDIT_TAG_REQUIRED
		{"Write", map[string]any{"path": via("fresh.txt"), "content": "x"}},              // new file
		{"Edit", map[string]any{"path": via("missing.go"), "tag": "0000", "ops": "REM"}}, // was EDIT_TARGET_MISSING
		{"Edit", map[string]any{"path": via("main.go"), "tag": "0000", "ops": "REM"}},
		{"Read", map[string]any{"path": via("missing.go")}}, // was NOT_FOUND
		{"Read", map[string]any{"path": via("main.go")}},
	}
	for _, pm := range []string{"ask", "accept-edits", "auto"} {
		e.configure("", pm)
		for _, tt := range tests {
			res := e.call(e.session.ID, tt.tool, tt.args)
			if res.OK || res.Code != errs.PathOutsideWorkspace || res.Decision != "deny" {
				t.Errorf("%s %s %v = %+v; want PATH_OUTSIDE_WORKSPACE first", pm, tt.tool, tt.args["path"], res)
			}
			if strings.Contains(res.Message, "main.go") || strings.Contains(res.Message, "missing.go") || strings.Contains(res.Message, "exist") {
				t.Errorf("%s %s: the refusal tells about the workspace file: %q", pm, tt.tool, res.Message)
			}
		}
		e.noCard()
	}
	if b, _ := os.ReadFile(filepath.Join(e.project, "main.go")); string(b) != "package main\n\nfunc main() {}\n" {
		t.Errorf("main.go changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(e.project, "fresh.txt")); !os.IsNotExist(err) {
		t.Error("a file was created in the workspace through the scratch link")
	}
}

// Spec §4b.1: the visualization folder takes only single .html names, for
// Edit (and its MV) as for Write.
func TestVisualizationEditTakesOnlyHTML(t *testing.T) {
	e := newEnv(t)
	e.setViz(true)
	dir := filepath.Join(e.core.Info().DataDir, "visualizations", e.session.ID)
	if res := e.call(e.session.ID, "Write", map[string]any{"path": filepath.Join(dir, "chart.html"), "content": "<p>a</p>\n"}); !res.OK {
		t.Fatalf("Write chart.html = %+v", res)
	}
	for _, name := range []string{"notes.txt", "page.htm", "sub/inner.html"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		write(t, p, "old\n")
		read := e.call(e.session.ID, "Read", map[string]any{"path": p})
		if !read.OK {
			t.Fatalf("Read %s = %+v", name, read)
		}
		res := e.call(e.session.ID, "Edit", map[string]any{"path": p, "tag": read.Fields["tag"], "ops": "PUT 1.=1:\n+new"})
		if res.OK || res.Code != errs.InvalidArgument || !strings.Contains(res.Message, ".html") {
			t.Errorf("Edit %s in the visualization folder = %+v; want INVALID_ARGUMENT", name, res)
		}
		if b, _ := os.ReadFile(p); string(b) != "old\n" {
			t.Errorf("%s was edited: %q", name, b)
		}
	}
	read := e.call(e.session.ID, "Read", map[string]any{"path": filepath.Join(dir, "chart.html")})
	tag := read.Fields["tag"]
	if res := e.call(e.session.ID, "Edit", map[string]any{"path": filepath.Join(dir, "chart.html"), "tag": tag, "ops": "MV " + filepath.Join(dir, "chart.txt")}); res.OK || res.Code != errs.InvalidArgument {
		t.Errorf("MV to chart.txt = %+v", res)
	}
	res := e.call(e.session.ID, "Edit", map[string]any{"path": filepath.Join(dir, "chart.html"), "tag": tag, "ops": "PUT 1.=1:\n+<p>b</p>"})
	if !res.OK || res.Root != "visualization" {
		t.Errorf("Edit chart.html = %+v", res)
	}
	e.noCard()
}
