package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// delegatingHost is the fake host with the delegation tools registered and
// the session's subagent definitions.
type delegatingHost struct {
	*fakeHost
	defs []subagent.Definition
}

func (h delegatingHost) Subagent(_ context.Context, _, name string) (subagent.Definition, provider.Provider, error) {
	for _, d := range h.defs {
		if d.Name == name {
			return d, nil, nil
		}
	}
	return subagent.Definition{}, nil, errs.New(errs.DelegateNotFound, "no subagent is named %q", name)
}

func (h delegatingHost) Subagents(context.Context, string) []SubagentInfo {
	var out []SubagentInfo
	for _, d := range h.defs {
		out = append(out, SubagentInfo{Name: d.Name, Description: "the " + d.Name + " subagent"})
	}
	return out
}

// newTaskFixture is a delegate fixture whose parent turn can call Task.
func newTaskFixture(t *testing.T, defs []subagent.Definition, parent ...step) *delegateFixture {
	f := newDelegateFixture(t, parent...)
	reg, err := tools.NewRegistry(append(tools.Runtime(), tools.Delegation()...)...)
	if err != nil {
		t.Fatal(err)
	}
	f.host.runtime = reg
	host := delegatingHost{fakeHost: f.host, defs: defs}
	f.a = New(f.db, host, func(string) (provider.Provider, error) { return f.rt, nil }, f.rec.emit,
		func() time.Time { return time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC) })
	return f
}

func taskArgs(name string) string {
	b, _ := json.Marshal(map[string]string{"subagent": name, "description": "task for " + name, "prompt": "do the " + name + " part"})
	return string(b)
}

func TestTaskOnlyBatchFansOutAndTaskWaitReports(t *testing.T) {
	one, two := readOnly("one"), readOnly("two")
	f := newTaskFixture(t, []subagent.Definition{one, two},
		callTools(provider.StopToolUse, use{"tu_1", tools.Task, taskArgs("one")}, use{"tu_2", tools.Task, taskArgs("two")}),
		callTools(provider.StopToolUse, use{"tu_3", tools.TaskWait, `{}`}),
		say("both reported"))
	b := &barrier{n: 2, all: make(chan struct{})}
	f.script(one, b.step("report one"))
	f.script(two, b.step("report two"))
	res, err := f.run("split the work")
	if err != nil || res.Text != "both reported" {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	if !b.overlap {
		t.Error("the two delegates' model requests were never in flight at once")
	}
	reqs := f.prov.requests()
	if !strings.Contains(reqs[0].System, "# Subagents\n") || !strings.Contains(reqs[0].System, "- one: the one subagent") {
		t.Errorf("the parent's prompt lacks the subagents: %s", reqs[0].System)
	}
	started := lastResults(t, reqs[1])
	if len(started) != 2 || started[0].ToolUseID != "tu_1" || !strings.Contains(started[0].Text, `"state":"running"`) ||
		!strings.Contains(started[0].Text, `"subagent":"one"`) || !strings.Contains(started[1].Text, `"subagent":"two"`) {
		t.Errorf("Task results = %+v", started)
	}
	waited := lastResults(t, reqs[2])[0].Text
	i1, i2 := strings.Index(waited, "report one"), strings.Index(waited, "report two")
	if i1 < 0 || i2 < i1 || !strings.Contains(waited, `state="done"`) {
		t.Errorf("TaskWait result = %s", waited)
	}
	// The delegates' conversations stay out of the parent's context.
	for _, m := range reqs[2].Messages {
		for _, blk := range m.Content {
			if strings.Contains(blk.Text, "do the one part") && blk.Type != provider.BlockToolUse {
				t.Errorf("a delegate's prompt reached the parent's context: %+v", blk)
			}
		}
	}
	list, _ := f.a.Delegations(t.Context(), sid)
	if len(list) != 2 || list[0].ParentTurnID != res.TurnID || list[0].ParentToolCallID == "" {
		t.Errorf("delegations = %+v", list)
	}
}

func TestMixedBatchWaitsForAWritingTask(t *testing.T) {
	writer := definition("writer", subagent.ToolSpec{Names: []string{"Read", "Write"}})
	f := newTaskFixture(t, []subagent.Definition{writer},
		callTools(provider.StopToolUse,
			use{"tu_1", "Read", `{"path":"before.go","delay_ms":30}`},
			use{"tu_2", tools.Task, taskArgs("writer")},
			use{"tu_3", "Read", `{"path":"after.go"}`}),
		say("done"))
	var mu sync.Mutex
	var startedAt, settledAt time.Time
	f.rec.hook = func(name string, payload any) {
		if e, ok := payload.(DelegationEvent); ok {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case e.State == DelegationRunning && startedAt.IsZero():
				startedAt = time.Now()
			case e.State == DelegationDone:
				settledAt = time.Now()
			}
		}
	}
	f.script(writer, func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
		time.Sleep(100 * time.Millisecond)
		return say("wrote it")(ctx, req, emit)
	})
	if res, err := f.run("read, delegate, read"); err != nil || res.State != TurnDone {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	var before, after execRecord
	for _, r := range f.host.records() {
		switch {
		case r.call.Delegate != "":
		case strings.Contains(string(r.call.Args), "before.go"):
			before = r
		case strings.Contains(string(r.call.Args), "after.go"):
			after = r
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if before.end.IsZero() || startedAt.IsZero() || before.end.After(startedAt) {
		t.Errorf("the read before Task ended %v, the delegate started %v", before.end, startedAt)
	}
	if after.start.IsZero() || settledAt.IsZero() || after.start.Before(settledAt) {
		t.Errorf("the read after the writing Task started %v, before the delegate settled %v", after.start, settledAt)
	}
	results := lastResults(t, f.prov.requests()[1])
	if got := toolUseIDs(results); strings.Join(got, ",") != "tu_1,tu_2,tu_3" {
		t.Errorf("results in order %v", got)
	}
}

func TestParentStopEndsTaskWaitAndDelegates(t *testing.T) {
	slow := readOnly("slow")
	f := newTaskFixture(t, []subagent.Definition{slow},
		callTools(provider.StopToolUse, use{"tu_1", tools.Task, taskArgs("slow")}),
		callTools(provider.StopToolUse, use{"tu_2", tools.TaskWait, `{"timeoutSeconds":600}`}))
	started := make(chan string, 1)
	f.script(slow, hanging(started, "slow"))
	done := make(chan error, 1)
	go func() {
		_, err := f.run("delegate and wait")
		done <- err
	}()
	<-started
	deadline := time.Now().Add(5 * time.Second)
	for len(f.prov.requests()) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	f.a.Stop(sid)
	select {
	case err := <-done:
		mustCode(t, err, errs.TurnAborted)
	case <-time.After(10 * time.Second):
		t.Fatal("the parent turn did not end on Stop")
	}
	list, _ := f.a.Delegations(t.Context(), sid)
	deadline = time.Now().Add(5 * time.Second)
	for (len(list) != 1 || list[0].State != DelegationStopped) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		list, _ = f.a.Delegations(t.Context(), sid)
	}
	if len(list) != 1 || list[0].State != DelegationStopped || list[0].Report != "working on slow" {
		t.Errorf("delegations = %+v", list)
	}
}

// A deleted session leaves nothing of its delegates in the agent: not the
// unread report's id, not the finished scope.
func TestForgetSessionDropsFinishedDelegates(t *testing.T) {
	one := readOnly("one")
	f := newTaskFixture(t, []subagent.Definition{one},
		callTools(provider.StopToolUse, use{"tu_1", tools.Task, taskArgs("one")}),
		say("started"))
	f.script(one, say("report one"))
	if _, err := f.run("start it"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		list, _ := f.a.Delegations(t.Context(), sid)
		if len(list) == 1 && list[0].Finished() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("delegate never finished: %+v", list)
		}
		time.Sleep(10 * time.Millisecond)
	}
	kept := func() int {
		f.a.mu.Lock()
		defer f.a.mu.Unlock()
		n := len(f.a.unread[sid])
		for _, s := range f.a.delegs {
			if s.d.SessionID == sid {
				n++
			}
		}
		return n
	}
	// Its scope finishes a moment after its record does.
	for kept() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if kept() == 0 {
		t.Fatal("the finished delegate left nothing to forget; the test proves nothing")
	}
	f.a.ForgetSession(sid)
	if n := kept(); n != 0 {
		t.Errorf("after ForgetSession the agent still keeps %d entries of the session's delegates", n)
	}
}
