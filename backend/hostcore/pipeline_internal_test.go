package hostcore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/audit"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// newPipelineCore is a host over a project whose model is srv.
func newPipelineCore(t *testing.T, srv *providertest.Server) (*Core, api.Session) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{DataDir: filepath.Join(root, "data"), RgPath: "-"}
	if srv != nil {
		cfg.Provider = func(string) (provider.Provider, error) {
			return provider.New(srv.Config(), provider.WithSleeper(providertest.NoSleep))
		}
	}
	c, err := New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p, err := c.sessions.AddProject(t.Context(), project)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.sessions.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

// Every tool a mode can offer the model, up front or on demand, is a
// registered tool with the same schema, with and without an on-demand
// catalog; ToolSearch comes with the catalog only.
func TestEveryOfferedToolIsRegistered(t *testing.T) {
	c, _ := newPipelineCore(t, nil)
	full := c.registry
	var noDeferred []tools.Tool
	for _, name := range full.Names() {
		if tool, _ := full.Lookup(name); !tool.Spec().Deferred {
			noDeferred = append(noDeferred, tool)
		}
	}
	bare, err := tools.NewRegistry(noDeferred...)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		registry *tools.Registry
		onDemand bool
	}{{"with on-demand tools", full, true}, {"without on-demand tools", bare, false}} {
		c.registry = tc.registry
		h := agentHost{c}
		for _, mode := range []string{api.ModeAgent, api.ModePlan, api.ModeGoal} {
			catalog := h.Deferred(t.Context(), "", mode)
			if (len(catalog) > 0) != tc.onDemand {
				t.Fatalf("%s, %s: catalog %v", tc.name, mode, catalog)
			}
			var defs []provider.ToolDef
			var offered []string
			for _, o := range h.Tools(mode) {
				defs = append(defs, o.Def)
				offered = append(offered, o.Def.Name)
				if spec := mustSpec(t, c, o.Def.Name); o.Parallel != spec.Parallel {
					t.Errorf("%s, %s: %s parallel = %v", tc.name, mode, o.Def.Name, o.Parallel)
				}
			}
			for _, d := range catalog {
				defs = append(defs, d.Def)
			}
			for _, d := range defs {
				spec := mustSpec(t, c, d.Name)
				if d.Description != spec.Description || string(d.Schema) != string(spec.Schema) {
					t.Errorf("%s, %s: %s is offered unlike its spec", tc.name, mode, d.Name)
				}
			}
			if slices.Contains(offered, tools.ToolSearch) != tc.onDemand {
				t.Errorf("%s, %s: offered %v", tc.name, mode, offered)
			}
		}
	}
}

func mustSpec(t *testing.T, c *Core, name string) tools.Spec {
	t.Helper()
	tool, ok := c.registry.Lookup(name)
	if !ok {
		t.Fatalf("%s is offered to the model but not registered", name)
	}
	return tool.Spec()
}

// call is a scripted tool call.
func call(name string, input any) providertest.Call {
	return providertest.Call{Name: name, Input: input}
}

func calls(cs ...providertest.Call) providertest.Turn { return providertest.Turn{ToolCalls: cs} }

// Every call of every registered tool, run, refused by its arguments, by
// the operating mode or by its batch, yields exactly one audit row, written
// by Execute; the rows of the runtime tools record the decisions they
// always did (the user's, prompted, the artifact's root).
func TestEveryToolCallHasOneAuditRow(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		calls(call("Read", map[string]any{"path": "main.go"}), call("Glob", map[string]any{"pattern": "*.go"}), call("Grep", map[string]any{"pattern": "func"})),
		calls(call("Write", map[string]any{"path": "new.txt", "content": "hi\n"}), call("Edit", map[string]any{}), call("Bash", map[string]any{"command": "echo hi"})),
		calls(call("TodoWrite", `{"todos":[{"content":"a","status":"in_progress"}]}`), call("TodoWrite", `{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"in_progress"}]}`)),
		calls(call("BashOutput", map[string]any{"taskId": "t1"})),                                                                    // not loaded
		calls(call("PluginScaffold", map[string]any{}), call("PluginCheck", map[string]any{}), call("PluginPack", map[string]any{})), // not loaded
		calls(call("ToolSearch", map[string]any{"query": "select:BashOutput,BashStop,BrowserPreview"}), call("ToolSearch", map[string]any{"query": "x", "limit": 99})),
		calls(call("BashOutput", map[string]any{"taskId": "none"}), call("BashStop", map[string]any{"taskId": "none"})),
		calls(call("BrowserPreview", map[string]any{"url": "https://example.com"})), // only localhost
		calls(call("asktool", map[string]any{"questions": []any{map[string]any{"question": "Which?", "options": []any{"a", "b"}}}})),
		calls(call("EnterPlanMode", map[string]any{}), call("Read", map[string]any{"path": "main.go"})), // not alone
		calls(call("SubmitPlan", map[string]any{"title": "p", "markdown": "m"})),                        // not in Agent mode
		calls(call("NoSuchTool", map[string]any{})),
		calls(call("EnterPlanMode", `{"why":1}`)),
		calls(call("EnterPlanMode", map[string]any{})),
		calls(call("Write", map[string]any{"path": "x.txt", "content": "x"}), call("TodoWrite", `{"todos":[]}`)), // Plan mode
		calls(call("SubmitGoal", map[string]any{"title": "g", "markdown": "m"})),                                 // the other kind
		calls(call("SubmitPlan", map[string]any{"title": "Fix it", "markdown": "# Plan\n"})),                     // approved
		calls(call("EnterGoalMode", map[string]any{})),
		calls(call("SubmitGoal", map[string]any{"title": "g"})), // invalid
		calls(call("Skill", map[string]any{"name": "nope"})),    // no such skill
		calls(call("new_context", map[string]any{})),
		providertest.Turn{Text: "Summary of the work so far."},
		providertest.Turn{Text: "Done."},
	)
	c, s := newPipelineCore(t, srv)
	if _, err := c.sessions.Configure(t.Context(), s.ID, api.SessionConfig{PermissionMode: api.PermissionAuto}); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	go decideForTheUser(ctx, t, c, s.ID)
	res, err := c.agent.Run(t.Context(), s.ID, "exercise every tool")
	if err != nil || res.State != "done" {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	stop()

	tr, err := c.agent.Load(t.Context(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := c.AuditRows(t.Context(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	byCall := map[string][]audit.Row{}
	for _, r := range rows {
		byCall[r.ToolCallID] = append(byCall[r.ToolCallID], r)
	}
	type seen struct {
		tool string
		code errs.Code
		row  audit.Row
	}
	var got []seen
	n := 0
	for _, m := range tr.Messages {
		for _, tc := range m.ToolCalls {
			n++
			rs := byCall[tc.ID]
			if len(rs) != 1 {
				t.Errorf("%s call %s has %d audit rows", tc.Tool, tc.ID, len(rs))
				continue
			}
			if rs[0].Tool != tc.Tool || rs[0].TurnID != res.TurnID || rs[0].ErrorCode != tc.ErrorCode {
				t.Errorf("%s call: row %+v, call %+v", tc.Tool, rs[0], tc)
			}
			got = append(got, seen{tc.Tool, errs.Code(tc.ErrorCode), rs[0]})
		}
	}
	if len(rows) != n {
		t.Errorf("%d audit rows for %d calls", len(rows), n)
	}
	covered := map[string]bool{}
	for _, g := range got {
		covered[g.tool] = true
	}
	for _, name := range c.registry.Names() {
		if !covered[name] {
			t.Errorf("no call of %s was exercised", name)
		}
	}

	want := []struct {
		tool     string
		code     errs.Code
		decision string
		mode     string
		prompted bool
	}{
		{"Read", "", "allow", "agent", false}, {"Glob", "", "allow", "agent", false}, {"Grep", "", "allow", "agent", false},
		{"Write", "", "allow", "agent", false}, {"Edit", errs.InvalidArgument, "", "agent", false}, {"Bash", "", "allow", "agent", false},
		{"TodoWrite", "", "allow", "agent", false}, {"TodoWrite", errs.InvalidArgument, "", "agent", false},
		{"BashOutput", errs.ToolNotFound, "deny", "agent", false},
		{"PluginScaffold", errs.ToolNotFound, "deny", "agent", false}, {"PluginCheck", errs.ToolNotFound, "deny", "agent", false},
		{"PluginPack", errs.ToolNotFound, "deny", "agent", false},
		{"ToolSearch", "", "allow", "agent", false}, {"ToolSearch", errs.InvalidArgument, "", "agent", false},
		{"BashOutput", errs.NotFound, "allow", "agent", false}, {"BashStop", errs.NotFound, "allow", "agent", false},
		{"BrowserPreview", errs.InvalidArgument, "allow", "agent", false},
		{"asktool", "", "user", "agent", true},
		{"EnterPlanMode", errs.ToolMustBeAlone, "deny", "agent", false}, {"Read", "", "allow", "agent", false},
		{"SubmitPlan", errs.PlanNotActive, "deny", "agent", false},
		{"NoSuchTool", errs.ToolNotFound, "", "agent", false},
		{"EnterPlanMode", errs.InvalidArgument, "", "agent", false},
		{"EnterPlanMode", "", "allow", "agent", false},
		{"Write", errs.WriteDisabledInPlan, "deny", "plan", false}, {"TodoWrite", errs.ToolDisabledInPlan, "deny", "plan", false},
		{"SubmitGoal", errs.PlanKindMismatch, "deny", "plan", false},
		{"SubmitPlan", "", "user", "plan", true},
		{"EnterGoalMode", "", "allow", "agent", false},
		{"SubmitGoal", errs.InvalidArgument, "", "goal", false},
		{"Skill", errs.SkillNotFound, "allow", "goal", false},
		{"new_context", "", "allow", "goal", false},
	}
	if len(got) != len(want) {
		t.Fatalf("%d calls, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.tool != w.tool || g.code != w.code || g.row.Decision != w.decision || g.row.OperatingMode != w.mode || g.row.Prompted != w.prompted ||
			g.row.PermissionMode != api.PermissionAuto {
			t.Errorf("call %d: %s %s, row decision %q mode %q prompted %v permission %q; want %+v",
				i, g.tool, g.code, g.row.Decision, g.row.OperatingMode, g.row.Prompted, g.row.PermissionMode, w)
		}
	}
	if plan := got[27].row; plan.PathRoot != "workspace" || plan.TotalMs < plan.PermissionWaitMs {
		t.Errorf("SubmitPlan row = %+v", plan)
	}
	// A proposal's result states the user's decision (the UI reads it).
	for _, m := range tr.Messages {
		for _, tc := range m.ToolCalls {
			var r struct {
				OK       bool   `json:"ok"`
				Decision string `json:"decision"`
			}
			if err := json.Unmarshal(tc.Result, &r); err != nil {
				t.Fatal(err)
			}
			if tc.Tool == "SubmitPlan" && r.OK && r.Decision != agent.ProposalApproved {
				t.Errorf("SubmitPlan result = %s", tc.Result)
			}
			if tc.Tool == "asktool" && r.Decision != "" {
				t.Errorf("asktool result = %s", tc.Result)
			}
		}
	}
}

// decideForTheUser answers every question and approves every proposal of
// the session until ctx ends.
func decideForTheUser(ctx context.Context, t *testing.T, c *Core, sessionID string) {
	for ctx.Err() == nil {
		for _, q := range c.agent.PendingQuestions(sessionID) {
			if err := c.agent.Answer(sessionID, q.QuestionID, []agent.Answer{{Selected: []string{"a"}}}); err != nil {
				t.Errorf("answer: %v", err)
			}
		}
		ps, _ := c.agent.Proposals(ctx, sessionID)
		for _, p := range ps {
			if p.State != agent.ProposalPending {
				continue
			}
			if _, err := c.agent.ResolveProposal(ctx, agent.ProposalDecision{SessionID: sessionID, TurnID: p.TurnID, ProposalID: p.ID,
				Version: p.Version, Approve: true, PermissionMode: api.PermissionAuto}); err != nil && ctx.Err() == nil {
				t.Errorf("approve: %v", err)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Called straight through Execute (the UI, the CLI), a runtime tool has no
// turn to act on: it is refused, and audited like any other call.
func TestRuntimeToolWithoutATurn(t *testing.T) {
	c, s := newPipelineCore(t, nil)
	for i, tool := range []string{tools.TodoWrite, tools.AskTool, tools.NewContext, tools.EnterPlanMode, tools.ToolSearch} {
		args := map[string]string{tools.TodoWrite: `{"todos":[]}`, tools.AskTool: `{"questions":[{"question":"q"}]}`, tools.ToolSearch: `{"query":"x"}`}[tool]
		res := c.Execute(t.Context(), ToolRequest{SessionID: s.ID, TurnID: "t", ToolCallID: fmt.Sprintf("c%d", i), Tool: tool, Args: []byte(args)})
		if res.OK || res.Code != errs.ToolNotFound || res.Decision != "allow" {
			t.Errorf("%s = %+v", tool, res)
		}
	}
	rows, err := c.AuditRows(t.Context(), s.ID)
	if err != nil || len(rows) != 5 {
		t.Errorf("%d audit rows, %v", len(rows), err)
	}
}
