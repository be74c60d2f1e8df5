package agent

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
)

func (f *delegateFixture) live() int {
	f.a.mu.Lock()
	defer f.a.mu.Unlock()
	return len(f.a.delegs)
}

// No delegate starts once its turn's context ended or the host is shutting
// down: a Stop or Shutdown sweeping the delegates could not see it.
func TestNoDelegateStartsAfterStopOrShutdown(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before func(f *delegateFixture) context.Context
	}{
		{"turn stopped", func(f *delegateFixture) context.Context {
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			return ctx
		}},
		{"shutdown", func(f *delegateFixture) context.Context {
			f.a.Shutdown()
			return t.Context()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newDelegateFixture(t)
			def := readOnly("explore")
			fp := f.script(def, say("should not run"))
			ctx := tc.before(f)
			_, err := f.a.StartDelegation(ctx, sid, DelegateSpec{Definition: def, Description: "d", Prompt: "look"})
			mustCode(t, err, errs.TurnAborted)
			if err := f.a.Drain(t.Context()); err != nil {
				t.Fatal(err)
			}
			if n := f.live(); n != 0 {
				t.Errorf("%d delegates registered", n)
			}
			if n := len(fp.requests()); n != 0 {
				t.Errorf("the delegate made %d model requests", n)
			}
			if list, err := f.a.Delegations(t.Context(), sid); err != nil || len(list) != 0 {
				t.Errorf("stored = %+v, %v", list, err)
			}
		})
	}
}

// slowToStop waits for its context, then takes a while before it returns,
// as a model stream being torn down does.
func slowToStop(started chan<- struct{}) step {
	return func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
		if err := emit(provider.Event{Type: provider.EventText, Text: "halfway"}); err != nil {
			return provider.Response{}, err
		}
		close(started)
		<-ctx.Done()
		time.Sleep(150 * time.Millisecond)
		return provider.Response{}, errs.Wrap(ctx.Err(), errs.TurnAborted, "stopped")
	}
}

// Drain returns once every delegate ended and its outcome is stored, so
// the host can close the database after it.
func TestShutdownThenDrainWaitsForDelegatesToRecord(t *testing.T) {
	f := newDelegateFixture(t)
	def := readOnly("explore")
	started := make(chan struct{})
	f.script(def, slowToStop(started))
	d := f.start(def, "look")
	<-started
	f.a.Shutdown()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := f.a.Drain(ctx); err != nil {
		t.Fatalf("Drain: %v", err)
	}
	stored, err := f.a.st.delegation(t.Context(), sid, d.ID)
	if err != nil || stored.State != DelegationStopped || stored.Report != "halfway" || stored.FinishedAt == 0 {
		t.Errorf("stored after Drain = %+v, %v", stored, err)
	}
	if ended := f.host.endedList(); !slices.Equal(ended, []string{d.ID}) {
		t.Errorf("host told of %v", ended)
	}
}

// A finished delegate's live state goes once a wait returned its report;
// the stored row answers afterwards, and the host is told to drop its
// per-delegation state as each ends.
func TestCollectedDelegatesAreForgotten(t *testing.T) {
	f := newDelegateFixture(t)
	var ids []string
	for _, name := range []string{"a", "b", "c"} {
		def := readOnly(name)
		f.script(def, say("report "+name))
		ids = append(ids, f.start(def, "go").ID)
	}
	for _, id := range ids {
		<-f.a.delegationDone(id)
	}
	// Ended but unread: kept (a wait without ids still owes its report),
	// without its conversation.
	if n := f.live(); n != 3 {
		t.Fatalf("%d live before the wait", n)
	}
	f.a.mu.Lock()
	for id, s := range f.a.delegs {
		s.mu.Lock()
		if s.run != nil {
			t.Errorf("delegate %s keeps its run after it ended", id)
		}
		s.mu.Unlock()
	}
	f.a.mu.Unlock()
	if ended := f.host.endedList(); len(ended) != 3 {
		t.Errorf("host told of %v", ended)
	}
	w := f.waitAll()
	if len(w.Finished) != 3 {
		t.Fatalf("wait = %+v", w)
	}
	if n := f.live(); n != 0 {
		t.Errorf("%d delegates still live after their reports were read", n)
	}
	// The stored rows stand in: by id, in a list, and a wait naming them.
	again := f.waitAll(ids...)
	for i, d := range again.Finished {
		if d.ID != ids[i] || d.State != DelegationDone || d.Report != "report "+d.Subagent {
			t.Errorf("again[%d] = %+v", i, d)
		}
	}
	if got, err := f.a.Delegation(t.Context(), sid, ids[1]); err != nil || got.Report != "report b" {
		t.Errorf("Delegation = %+v, %v", got, err)
	}
	if list, err := f.a.Delegations(t.Context(), sid); err != nil || len(list) != 3 {
		t.Errorf("Delegations = %+v, %v", list, err)
	}
	if again := f.waitAll(); len(again.Finished) != 0 {
		t.Errorf("a wait without ids returned read reports again: %+v", again)
	}
}

// A delegate's report so far is kept as it goes: live, stored, and in the
// record a restart leaves, which a wait returns as a partial report.
func TestPartialReportSurvivesARestart(t *testing.T) {
	f := newDelegateFixture(t)
	def := readOnly("explore")
	started := make(chan string, 1)
	f.script(def, callTools(provider.StopToolUse, use{"tu_1", "Read", `{"path":"a.go"}`}), hanging(started, "b.go"))
	d := f.start(def, "read a.go and b.go")
	<-started
	if live, err := f.a.Delegation(t.Context(), sid, d.ID); err != nil || live.Report != "Let me look." || live.State != DelegationRunning {
		t.Errorf("live = %+v, %v", live, err)
	}
	if stored, err := f.a.st.delegation(t.Context(), sid, d.ID); err != nil || stored.Report != "Let me look." {
		t.Errorf("stored while running = %+v, %v", stored, err)
	}
	// As if PI-Desktop had been killed here and started again.
	restarted := f.newAgent()
	if _, err := restarted.MarkInterrupted(t.Context()); err != nil {
		t.Fatal(err)
	}
	w, err := restarted.WaitDelegations(t.Context(), sid, []string{d.ID}, true, time.Second)
	if err != nil || len(w.Finished) != 1 {
		t.Fatalf("wait after restart = %+v, %v", w, err)
	}
	got := w.Finished[0]
	if got.State != DelegationInterrupted || got.Report != "Let me look." {
		t.Errorf("after restart = %+v", got)
	}
	if text := w.ModelText(); !strings.Contains(text, "partial") || !strings.Contains(text, "Let me look.") {
		t.Errorf("wait text:\n%s", text)
	}
	f.a.Shutdown()
	if err := f.a.Drain(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// A finished delegate's live state goes when its parent's turn ends, read
// or not; an unread report is still returned, once, by the next wait.
func TestFinishedDelegatesAreForgottenWhenTheTurnEnds(t *testing.T) {
	f := newDelegateFixture(t, say("parent done"))
	def := readOnly("explore")
	f.script(def, say("the report"))
	d := f.start(def, "look")
	<-f.a.delegationDone(d.ID)
	if res, err := f.run("carry on"); err != nil || res.Text != "parent done" {
		t.Fatalf("parent = %+v, %v", res, err)
	}
	if n := f.live(); n != 0 {
		t.Errorf("%d delegates live after the turn ended", n)
	}
	w := f.waitAll()
	if len(w.Finished) != 1 || w.Finished[0].ID != d.ID || w.Finished[0].Report != "the report" {
		t.Errorf("wait = %+v", w)
	}
	if again := f.waitAll(); len(again.Finished) != 0 {
		t.Errorf("the report was returned twice: %+v", again)
	}
	f.a.mu.Lock()
	unread := len(f.a.unread)
	f.a.mu.Unlock()
	if unread != 0 {
		t.Errorf("%d sessions keep unread ids", unread)
	}
}
