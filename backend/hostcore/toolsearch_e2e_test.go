package hostcore_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/bgtask"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

// requestTools lists the tool names a request offered (both protocols).
func requestTools(r providertest.Request) []string {
	var out []string
	list, _ := r.JSON()["tools"].([]any)
	for _, t := range list {
		m, _ := t.(map[string]any)
		if fn, ok := m["function"].(map[string]any); ok {
			m = fn
		}
		name, _ := m["name"].(string)
		out = append(out, name)
	}
	return out
}

// The whole on-demand path over the Anthropic wire with a real background
// process: Bash starts it, BashOutput is refused until ToolSearch loads it,
// the loaded schema reaches the next request, BashOutput reads the live
// output and BashStop ends the tree; the next prompt restores the loaded
// tools from the transcript; another session cannot see the task.
func TestOnDemandBashTaskToolsThroughTheWire(t *testing.T) {
	marker := fmt.Sprintf("pi-ondemand-%d", time.Now().UnixNano())
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Bash", Input: map[string]any{
			"command": "echo ready-" + marker + "; sh -c 'sleep 600; echo " + marker + "'", "runInBackground": true}}}},
		providertest.Turn{Text: "Started."},
	)
	core, sink, s, _ := e2e(t, srv)
	go func() {
		select {
		case req := <-sink.reqs:
			_ = core.ResolveApproval(req.SessionID, req.ID, permission.AllowOnce)
		case <-time.After(20 * time.Second):
		}
	}()
	if res, err := core.RunTurn(t.Context(), s.ID, "start the server"); err != nil || res.State != "done" {
		t.Fatalf("turn 1 = %+v, %v", res, err)
	}
	reqs := srv.Requests()
	first := string(reqs[0].Body)
	if tools := requestTools(reqs[0]); !slices.Contains(tools, "ToolSearch") || slices.Contains(tools, "BashOutput") || slices.Contains(tools, "BashStop") {
		t.Errorf("first request tools = %v", tools)
	}
	if !strings.Contains(first, "# On-demand tools") || !strings.Contains(first, "- BashOutput: ") || !strings.Contains(first, "- BashStop: ") {
		t.Errorf("the system prompt lacks the on-demand catalog: %.2000s", first)
	}
	if !strings.Contains(string(reqs[1].Body), "select:BashOutput,BashStop") {
		t.Error("the background start does not say how to load BashOutput")
	}
	tasks := core.Tasks(s.ID)
	if len(tasks) != 1 {
		t.Fatalf("tasks = %+v", tasks)
	}
	id := tasks[0].ID
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if out, _ := core.TaskOutput(s.ID, id); strings.Contains(out.Stdout.Text, "ready-") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the task printed nothing")
		}
	}

	srv.Push(
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "BashOutput", Input: map[string]any{"taskId": id}}}},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "ToolSearch", Input: map[string]any{"query": "background task output"}}}},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "BashOutput", Input: map[string]any{"taskId": id}}}},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "BashStop", Input: map[string]any{"taskId": id}}}},
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "BashStop", Input: map[string]any{"taskId": id}}}},
		providertest.Turn{Text: "Stopped it."},
	)
	if res, err := core.RunTurn(t.Context(), s.ID, "how is it doing? then stop it"); err != nil || res.State != "done" {
		t.Fatalf("turn 2 = %+v, %v", res, err)
	}
	reqs = srv.Requests()
	if len(reqs) != 8 {
		t.Fatalf("%d requests", len(reqs))
	}
	if slices.Contains(requestTools(reqs[2]), "BashOutput") {
		t.Error("a new prompt offered BashOutput before anything loaded it")
	}
	refused := string(reqs[3].Body)
	if !strings.Contains(refused, "TOOL_NOT_FOUND") || !strings.Contains(refused, `ToolSearch with query \"select:BashOutput\"`) {
		t.Errorf("the unloaded call was not refused with a ToolSearch hint: %.3000s", refused[max(0, len(refused)-1500):])
	}
	for i := 4; i < 8; i++ {
		if tools := requestTools(reqs[i]); !slices.Contains(tools, "BashOutput") || !slices.Contains(tools, "BashStop") {
			t.Errorf("request %d after ToolSearch: tools %v", i, tools)
		}
	}
	if !strings.Contains(string(reqs[4].Body), `"taskId"`) {
		t.Error("the loaded schemas did not reach the wire")
	}
	if b := string(reqs[5].Body); !strings.Contains(b, "ready-"+marker) || !strings.Contains(b, "running for") {
		t.Errorf("BashOutput did not return the live output: %.1500s", b[max(0, len(b)-1500):])
	}
	if b := string(reqs[6].Body); !strings.Contains(b, "stopped on request") {
		t.Errorf("BashStop result: %.1500s", b[max(0, len(b)-1500):])
	}
	if b := string(reqs[7].Body); !strings.Contains(b, string(errs.BackgroundTaskNotRunning)) {
		t.Errorf("a second BashStop was not refused: %.1500s", b[max(0, len(b)-1500):])
	}
	if tk := core.Tasks(s.ID); tk[0].State != bgtask.Stopped {
		t.Errorf("task = %+v", tk[0])
	}
	for deadline := time.Now().Add(15 * time.Second); len(processesWith(marker)) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("BashStop left the tree running: %v", processesWith(marker))
		}
	}
	select {
	case req := <-sink.reqs:
		t.Errorf("BashOutput/BashStop asked for approval: %+v", req)
	default:
	}
	rows, _ := core.AuditRows(t.Context(), s.ID)
	var seen []string
	for _, r := range rows {
		if r.Tool == "BashOutput" || r.Tool == "BashStop" || r.Tool == "ToolSearch" {
			seen = append(seen, fmt.Sprintf("%s:%s:%v", r.Tool, r.Decision, r.Prompted))
		}
	}
	// The refused first BashOutput never reached the host pipeline; the agent
	// audited it as a denial.
	want := []string{"BashOutput:deny:false", "ToolSearch:allow:false", "BashOutput:allow:false", "BashStop:allow:false", "BashStop:allow:false"}
	if !slices.Equal(seen, want) {
		t.Errorf("audit = %v, want %v", seen, want)
	}

	// The next prompt restores the loaded tools from the transcript.
	srv.Push(providertest.Turn{Text: "ok"})
	if _, err := core.RunTurn(t.Context(), s.ID, "thanks"); err != nil {
		t.Fatal(err)
	}
	if tools := requestTools(srv.Requests()[8]); !slices.Contains(tools, "BashOutput") || !slices.Contains(tools, "BashStop") {
		t.Errorf("restored tools = %v", tools)
	}

	// Another session cannot read or stop the task.
	other, _ := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: s.ProjectID})
	e := &env{t: t, core: core}
	for _, tool := range []string{"BashOutput", "BashStop"} {
		if res := e.call(other.ID, tool, map[string]any{"taskId": id}); res.OK || res.Code != errs.NotFound || strings.Contains(res.Content, marker) {
			t.Errorf("%s from another session = %+v", tool, res)
		}
	}
}

func TestOnDemandCatalogInEveryMode(t *testing.T) {
	srv := providertest.NewOpenAIServer(t)
	core, _, s, _ := e2e(t, srv)
	for _, mode := range []string{api.ModeAgent, api.ModePlan, api.ModeGoal} {
		if _, err := core.ConfigureSession(t.Context(), s.ID, api.SessionConfig{OperatingMode: mode}); err != nil {
			t.Fatal(err)
		}
		p, err := core.SystemPrompt(t.Context(), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p, "- BashOutput: ") || !strings.Contains(p, "- BashStop: ") {
			t.Errorf("%s: the prompt lacks the on-demand catalog", mode)
		}
	}
	// In Plan mode (ask) they run without a card, like in Agent mode.
	e := &env{t: t, core: core}
	if res := e.call(s.ID, "BashOutput", map[string]any{"taskId": "bg-nope"}); res.Code != errs.NotFound || res.Decision != "allow" {
		t.Errorf("BashOutput in Plan = %+v", res)
	}
}
