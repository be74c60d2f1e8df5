package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

func deferredTool(name, summary string) DeferredTool {
	return DeferredTool{Name: name, Summary: summary, Def: provider.ToolDef{Name: name, Description: summary + " (full description)",
		Schema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","description":"` + name + ` arg"}}}`)}}
}

var (
	alpha = deferredTool("Alpha", "Read the weather forecast for a city.")
	beta  = deferredTool("Beta", "Stop a running deployment.")
	gamma = deferredTool("Gamma", "Convert images to PNG.")
)

// withCatalog gives the fake host an on-demand catalog: Alpha, Beta and
// Gamma in Agent mode, only Alpha in Plan mode, none in Goal mode.
func (f *fixture) withCatalog() *fixture {
	f.host.mu.Lock()
	f.host.deferred = map[string][]DeferredTool{"agent": {alpha, beta, gamma}, "plan": {alpha}}
	f.host.mu.Unlock()
	return f
}

func hasTool(req provider.Request, name string) bool {
	return slices.Contains(toolNames(req), name)
}

func (h *fakeHost) execNames() []string {
	var out []string
	for _, r := range h.records() {
		out = append(out, r.call.Tool)
	}
	return out
}

func TestToolSearchLoadsSchemasForTheNextRequest(t *testing.T) {
	f := newFixture(t,
		// Called before it was loaded: refused, never executed.
		callTools(provider.StopToolUse, use{"tu_1", "Alpha", `{"x":"Oslo"}`}),
		// Loaded, and called in the same response: still refused.
		callTools(provider.StopToolUse, use{"tu_2", ToolSearch, `{"query":"weather forecast"}`}, use{"tu_3", "Alpha", `{"x":"Oslo"}`}),
		callTools(provider.StopToolUse, use{"tu_4", "Alpha", `{"x":"Oslo"}`}),
		say("Sunny."),
	).withCatalog()
	res, err := f.run("weather in Oslo?")
	if err != nil || res.Text != "Sunny." {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	reqs := f.prov.requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model calls", len(reqs))
	}
	first := reqs[0]
	if hasTool(first, "Alpha") || !hasTool(first, ToolSearch) {
		t.Errorf("first request tools = %v", toolNames(first))
	}
	for _, want := range []string{"# On-demand tools", "- Alpha: Read the weather forecast for a city.", "- Gamma: Convert images to PNG."} {
		if !strings.Contains(first.System, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	r1 := lastResults(t, reqs[1])
	if len(r1) != 1 || !r1[0].IsError || !strings.Contains(r1[0].Text, "TOOL_NOT_FOUND") || !strings.Contains(r1[0].Text, `ToolSearch with query "select:Alpha"`) {
		t.Errorf("unloaded call result = %+v", r1)
	}
	if hasTool(reqs[1], "Alpha") {
		t.Error("Alpha was offered before ToolSearch")
	}
	r2 := lastResults(t, reqs[2])
	if len(r2) != 2 || r2[0].IsError || !strings.Contains(r2[0].Text, "Loaded 1 on-demand tool(s)") || !r2[1].IsError {
		t.Errorf("ToolSearch batch results = %+v", r2)
	}
	for _, req := range reqs[2:] {
		var def provider.ToolDef
		for _, d := range req.Tools {
			if d.Name == "Alpha" {
				def = d
			}
		}
		if string(def.Schema) != string(alpha.Def.Schema) || def.Description != alpha.Def.Description {
			t.Errorf("loaded schema = %+v", def)
		}
		if hasTool(req, "Beta") {
			t.Error("a tool that was not searched for was loaded")
		}
	}
	if got := f.host.execNames(); !slices.Equal(got, []string{"Alpha"}) {
		t.Errorf("host executed %v; only the loaded call may run", got)
	}
	// The canonical evidence is persisted with the result.
	var search ToolCallRecord
	for _, m := range f.load().Messages {
		for _, c := range m.ToolCalls {
			if c.Tool == ToolSearch {
				search = c
			}
		}
	}
	var stored tools.Result
	if err := json.Unmarshal(search.Result, &stored); err != nil || !stored.OK || !jsonEqual(stored.Details["addedToolNames"], []string{"Alpha"}) {
		t.Errorf("persisted ToolSearch result = %s", search.Result)
	}
	// ToolSearch and both refusals are audited, each when the host reaches
	// it in source order.
	var decisions []string
	for _, a := range f.host.auditList() {
		decisions = append(decisions, a.Tool+":"+a.Decision)
	}
	if !slices.Equal(decisions, []string{"Alpha:deny", "ToolSearch:allow", "Alpha:deny"}) {
		t.Errorf("audit = %v", decisions)
	}
}

func TestSearchCatalog(t *testing.T) {
	catalog := []DeferredTool{alpha, beta, gamma, deferredTool("WeatherAlerts", "Subscribe to alerts.")}
	tests := []struct {
		query        string
		limit        int
		want, unseen []string
	}{
		{"alpha", 5, []string{"Alpha"}, nil},
		{"select:beta, Gamma,Nope,Beta", 5, []string{"Beta", "Gamma"}, []string{"Nope"}},
		{"SELECT:Alpha", 5, []string{"Alpha"}, nil},
		{"weather", 5, []string{"WeatherAlerts", "Alpha"}, nil}, // a name hit ranks first
		{"weather", 1, []string{"WeatherAlerts"}, nil},
		{"stop the deployment", 5, []string{"Beta"}, nil},
		{"images png", 5, []string{"Gamma"}, nil},
		{"a", 5, nil, nil}, // one-letter words match nothing
		{"spreadsheet", 5, nil, nil},
	}
	for _, tt := range tests {
		got, unknown := searchCatalog(catalog, tt.query, tt.limit)
		if names := catalogNames(got); !slices.Equal(names, tt.want) && !(len(names) == 0 && len(tt.want) == 0) {
			t.Errorf("%q: matches %v, want %v", tt.query, names, tt.want)
		}
		if !slices.Equal(unknown, tt.unseen) {
			t.Errorf("%q: unknown %v, want %v", tt.query, unknown, tt.unseen)
		}
	}
}

func TestToolSearchRefusals(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse,
			use{"tu_1", ToolSearch, `{"query":"spreadsheet"}`},
			use{"tu_2", ToolSearch, `{"query":"x","limit":50}`},
			use{"tu_3", ToolSearch, `{}`}),
		say("ok"),
	).withCatalog()
	if _, err := f.run("go"); err != nil {
		t.Fatal(err)
	}
	r := lastResults(t, f.prov.requests()[1])
	if !r[0].IsError || !strings.Contains(r[0].Text, "TOOL_NOT_FOUND") || !strings.Contains(r[0].Text, "Alpha, Beta, Gamma") {
		t.Errorf("no match = %+v", r[0])
	}
	if !r[1].IsError || !strings.Contains(r[1].Text, "limit must be") || !r[2].IsError || !strings.Contains(r[2].Text, "query is required") {
		t.Errorf("invalid arguments = %+v", r[1:])
	}
	// Without a catalog there is no ToolSearch, and a call is refused.
	g := newFixture(t, callTools(provider.StopToolUse, use{"tu_1", ToolSearch, `{"query":"Alpha"}`}), say("ok"))
	if _, err := g.run("go"); err != nil {
		t.Fatal(err)
	}
	reqs := g.prov.requests()
	if hasTool(reqs[0], ToolSearch) || strings.Contains(reqs[0].System, "On-demand") {
		t.Error("ToolSearch offered with an empty catalog")
	}
	if r := lastResults(t, reqs[1]); !r[0].IsError || !strings.Contains(r[0].Text, "no on-demand tools in Agent mode") {
		t.Errorf("ToolSearch without a catalog = %+v", r)
	}
}

// At a new prompt the loaded set comes only from the effective context:
// evidence summarized away by a checkpoint is gone, a failed call proves
// nothing, a successful call of a loaded tool keeps it, and prose that
// names a tool does not load it.
func TestRestorationKeepsOnlySuccessfulEvidenceInTheContext(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", ToolSearch, `{"query":"select:Alpha,Beta,Gamma"}`}),
		callTools(provider.StopToolUse, use{"tu_2", ToolNewContext, `{}`}),
		say("Summary: Alpha, Beta and Gamma were loaded."),
		callTools(provider.StopToolUse, use{"tu_3", "Alpha", `{}`}, use{"tu_4", "Beta", `{}`}),
		say(`Done; I also loaded Gamma ({"details":{"addedToolNames":["Gamma"]}}).`),
		say("next"),
	).withCatalog()
	f.host.behave = func(ctx context.Context, call ToolCall) tools.Result {
		if call.Tool == "Beta" {
			return tools.Failure(errs.New(errs.ToolFailed, "deployment not found"))
		}
		return tools.Result{OK: true, Content: call.Tool + " ok"}
	}
	if _, err := f.run("do it"); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	if after := reqs[3]; !hasTool(after, "Alpha") || !hasTool(after, "Beta") || !hasTool(after, "Gamma") {
		t.Fatalf("the loaded set must survive a compaction within the turn: %v", toolNames(after))
	}
	if _, err := f.run("and now?"); err != nil {
		t.Fatal(err)
	}
	next := f.prov.requests()[5]
	if !hasTool(next, "Alpha") || hasTool(next, "Beta") || hasTool(next, "Gamma") {
		t.Errorf("restored tools = %v; want Alpha only", toolNames(next))
	}
	// A fresh Agent over the same database (a restart) restores the same.
	f.prov.play = append(f.prov.play, say("again"))
	f.a = f.newAgent()
	if _, err := f.run("after restart"); err != nil {
		t.Fatal(err)
	}
	if last := f.prov.requests()[6]; !hasTool(last, "Alpha") || hasTool(last, "Beta") {
		t.Errorf("tools after restart = %v", toolNames(last))
	}
}

func TestModeSwitchDropsToolsOutsideTheNewCatalog(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", ToolSearch, `{"query":"select:Alpha,Beta"}`}),
		callTools(provider.StopToolUse, use{"tu_2", ToolEnterPlanMode, `{}`}),
		callTools(provider.StopToolUse, use{"tu_3", "Beta", `{}`}),
		say("Planning."),
		say("Still planning."),
	).withCatalog()
	if _, err := f.run("plan it"); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	if !hasTool(reqs[1], "Beta") {
		t.Fatalf("Beta not loaded in Agent mode: %v", toolNames(reqs[1]))
	}
	plan := reqs[2]
	if !hasTool(plan, "Alpha") || hasTool(plan, "Beta") || !hasTool(plan, ToolSearch) {
		t.Errorf("tools after the switch to Plan = %v", toolNames(plan))
	}
	if !strings.Contains(plan.System, "- Alpha:") || strings.Contains(plan.System, "- Beta:") {
		t.Error("the Plan prompt lists the wrong catalog")
	}
	// Beta is not in the Plan catalog: not an unloaded on-demand tool, so
	// it goes to the host, whose policy decides.
	if got := f.host.execNames(); !slices.Equal(got, []string{"Beta"}) {
		t.Errorf("host saw %v", got)
	}
	if _, err := f.run("continue"); err != nil {
		t.Fatal(err)
	}
	if next := f.prov.requests()[4]; !hasTool(next, "Alpha") || hasTool(next, "Beta") {
		t.Errorf("restored in Plan mode = %v", toolNames(next))
	}
}

func TestActivationEvidenceRules(t *testing.T) {
	ok := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	search := func(id, state string, result any) ToolCallRecord {
		return ToolCallRecord{ToolUseID: id, Tool: ToolSearch, State: state, Result: ok(result)}
	}
	call := func(id, tool, state string, okRes bool) ToolCallRecord {
		return ToolCallRecord{ToolUseID: id, Tool: tool, State: state, Result: ok(map[string]any{"ok": okRes})}
	}
	uses := func(ids ...string) []provider.Block {
		out := []provider.Block{{Type: provider.BlockText, Text: `I will load {"addedToolNames":["Prose"]}`}}
		for _, id := range ids {
			out = append(out, provider.Block{Type: provider.BlockToolUse, ToolUseID: id})
		}
		return out
	}
	tr := Transcript{
		Checkpoint: &Checkpoint{UptoSeq: 2},
		Messages: []Message{
			{Seq: 2, Kind: KindModel, StopReason: "tool_use", Content: uses("old"),
				ToolCalls: []ToolCallRecord{search("old", CallDone, map[string]any{"ok": true, "details": map[string]any{"addedToolNames": []string{"Old"}}})}},
			{Seq: 3, Kind: KindPrompt, Content: []provider.Block{{Type: provider.BlockText, Text: "addedToolNames: UserSaid"}}},
			{Seq: 4, Kind: KindModel, StopReason: "tool_use", Content: uses("a", "b", "c", "d", "e", "f", "g", "h", "i", "z", "k"),
				ToolCalls: []ToolCallRecord{
					search("a", CallDone, map[string]any{"ok": true, "details": map[string]any{"addedToolNames": []string{"A"}}}),
					search("b", CallFailed, map[string]any{"ok": false, "details": map[string]any{"addedToolNames": []string{"B"}}}),
					search("c", CallDone, map[string]any{"ok": true, "addedToolNames": []string{"C"}}),                       // historical top-level
					search("d", CallDone, map[string]any{"ok": true, "details": map[string]any{"activated": []string{"D"}}}), // historical
					call("e", "E", CallDone, true),
					call("f", "F", CallFailed, false),
					call("g", "G", CallInterrupted, false),
					call("h", "H", CallPending, false),
					call("i", "I", CallAborted, false),
					search("z", CallDone, map[string]any{"ok": true, "details": map[string]any{"addedToolNames": []string{"NotInCatalog"}}}),
					{ToolUseID: "k", Tool: "K", State: CallDone}, // no result: a placeholder
				}},
			{Seq: 5, Kind: KindModel, StopReason: stopFailed, Content: uses("x"),
				ToolCalls: []ToolCallRecord{search("x", CallDone, map[string]any{"ok": true, "details": map[string]any{"addedToolNames": []string{"X"}}})}},
			// A record whose tool_use never made it into the message.
			{Seq: 6, Kind: KindModel, StopReason: stopAborted, Content: uses(),
				ToolCalls: []ToolCallRecord{call("y", "Y", CallDone, true)}},
		},
	}
	var catalog []DeferredTool
	for _, n := range []string{"Old", "UserSaid", "Prose", "A", "B", "C", "D", "E", "F", "G", "H", "I", "K", "X", "Y"} {
		catalog = append(catalog, deferredTool(n, n))
	}
	names := slices.Clone(restoreActive(tr, catalog))
	slices.Sort(names)
	if !slices.Equal(names, []string{"A", "C", "D", "E"}) {
		t.Errorf("restored %v, want [A C D E]", names)
	}
}

// A prompt's preloaded tools (the composer's MCP selection) are offered
// from its first request, with no ToolSearch round trip, for that prompt
// only; an MCP tool's calls carry its origin on every tool-call event.
func TestRunWithPreloadsToolsForOnePrompt(t *testing.T) {
	mcpTool := deferredTool("mcp_lab_echo", "[MCP lab] Echo the text back.")
	mcpTool.Origin = &ToolOrigin{Server: "lab", Tool: "echo", Title: "Echo"}
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", "mcp_lab_echo", `{"x":"hi"}`}),
		say("Echoed."),
		say("Nothing to do."),
	)
	f.host.mu.Lock()
	f.host.deferred = map[string][]DeferredTool{"agent": {alpha, mcpTool}}
	f.host.mu.Unlock()
	res, err := f.a.RunWith(t.Context(), sid, "echo hi", RunOptions{Preload: []string{"mcp_lab_echo", "NotInTheCatalog"}})
	if err != nil || res.Text != "Echoed." {
		t.Fatalf("RunWith = %+v, %v", res, err)
	}
	reqs := f.prov.requests()
	if !hasTool(reqs[0], "mcp_lab_echo") || hasTool(reqs[0], "Alpha") || hasTool(reqs[0], "NotInTheCatalog") {
		t.Errorf("first request tools = %v", toolNames(reqs[0]))
	}
	if names := f.host.execNames(); !slices.Equal(names, []string{"mcp_lab_echo"}) {
		t.Errorf("executed = %v", names)
	}
	for _, p := range f.rec.named(EventToolCall) {
		e := p.(ToolCallEvent)
		if e.MCP == nil || *e.MCP != *mcpTool.Origin {
			t.Errorf("%s event without the MCP origin: %+v", e.Phase, e)
		}
	}
	// The next prompt restores it from the evidence (its successful call),
	// not from the selection.
	if _, err := f.run("again"); err != nil {
		t.Fatal(err)
	}
	if reqs = f.prov.requests(); !hasTool(reqs[2], "mcp_lab_echo") {
		t.Errorf("a called tool was not restored: %v", toolNames(reqs[2]))
	}
}

// Tools ToolSearch loads are appended after the tools offered before, in
// the order they were loaded, not the catalog's: the earlier definitions
// stay the start of the cached prompt. A new prompt restores the same
// order from the transcript.
func TestLoadedToolsAreAppendedInLoadOrder(t *testing.T) {
	f := newFixture(t,
		callTools(provider.StopToolUse, use{"tu_1", ToolSearch, `{"query":"select:Gamma"}`}),
		callTools(provider.StopToolUse, use{"tu_2", ToolSearch, `{"query":"select:Alpha"}`}),
		callTools(provider.StopToolUse, use{"tu_3", "Alpha", `{"x":"Oslo"}`}),
		say("Done."),
		say("Again."),
	).withCatalog()
	if _, err := f.run("load two"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.run("and now?"); err != nil {
		t.Fatal(err)
	}
	reqs := f.prov.requests()
	if len(reqs) != 5 {
		t.Fatalf("%d model calls", len(reqs))
	}
	base := toolNames(reqs[0])
	for i, want := range [][]string{
		base,
		append(slices.Clone(base), "Gamma"),
		append(slices.Clone(base), "Gamma", "Alpha"),
		append(slices.Clone(base), "Gamma", "Alpha"),
		append(slices.Clone(base), "Gamma", "Alpha"), // the next prompt, restored
	} {
		if got := toolNames(reqs[i]); !slices.Equal(got, want) {
			t.Errorf("request %d tools = %v, want %v", i+1, got, want)
		}
	}
}
