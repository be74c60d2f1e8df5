package hostcore

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// recordingTurn is a running turn that settles each runtime call at once,
// noting how many of the session's calls were admitted meanwhile.
type recordingTurn struct {
	calls    []string
	admitted func() int
	peak     int
}

func (r *recordingTurn) ok(name string) tools.Result {
	r.calls = append(r.calls, name)
	r.peak = max(r.peak, r.admitted())
	return tools.Result{OK: true, Content: name + " done"}
}
func (r *recordingTurn) Offered(string) bool { return true }
func (r *recordingTurn) SaveTodos(context.Context, *tools.Call) tools.Result {
	return r.ok(tools.TodoWrite)
}
func (r *recordingTurn) Ask(context.Context, *tools.Call) tools.Result { return r.ok(tools.AskTool) }
func (r *recordingTurn) RequestCompaction(context.Context, *tools.Call) tools.Result {
	return r.ok(tools.NewContext)
}
func (r *recordingTurn) EnterMode(_ context.Context, _ *tools.Call, mode string) tools.Result {
	return r.ok("enter:" + mode)
}
func (r *recordingTurn) Submit(_ context.Context, _ *tools.Call, kind string) tools.Result {
	return r.ok("submit:" + kind)
}
func (r *recordingTurn) LoadTools(context.Context, *tools.Call) tools.Result {
	return r.ok(tools.ToolSearch)
}

// A project folder deleted mid-turn stops the tools that touch it, not the
// turn's own tools: asktool is how the model asks the user what now, and
// none of them holds an admission slot while the user thinks.
func TestControlToolsOutliveTheWorkspace(t *testing.T) {
	c, s := newPipelineCore(t, nil)
	b, err := c.sessions.Bind(t.Context(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(b.Workspace); err != nil {
		t.Fatal(err)
	}
	turn := &recordingTurn{admitted: func() int { return c.CallsInAdmission(s.ID) }}
	for i, tc := range []struct{ tool, args string }{
		{tools.TodoWrite, `{"todos":[{"content":"Ask","status":"in_progress"}]}`},
		{tools.AskTool, `{"questions":[{"question":"The project folder is gone: where did it go?"}]}`},
		{tools.NewContext, `{}`},
		{tools.ToolSearch, `{"query":"select:BashOutput"}`},
	} {
		res := c.Execute(t.Context(), ToolRequest{SessionID: s.ID, TurnID: "t", ToolCallID: fmt.Sprintf("c%d", i), Tool: tc.tool, Args: []byte(tc.args), Turn: turn, BatchSize: 1})
		if !res.OK {
			t.Errorf("%s = %+v", tc.tool, res)
		}
	}
	if len(turn.calls) != 4 {
		t.Errorf("the turn ran %v", turn.calls)
	}
	// A tool with a path still fails closed on the missing folder.
	res := c.Execute(t.Context(), ToolRequest{SessionID: s.ID, TurnID: "t", ToolCallID: "read", Tool: "Read", Args: []byte(`{"path":"main.go"}`), Turn: turn, BatchSize: 1})
	if res.OK {
		t.Errorf("Read in a deleted workspace = %+v", res)
	}
	if turn.peak != 0 {
		t.Errorf("a runtime tool ran with %d calls admitted; it should hold no slot", turn.peak)
	}
}
