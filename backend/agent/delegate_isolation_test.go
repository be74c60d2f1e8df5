package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// isolatingHost is the fake host with the isolation seam: it isolates every
// delegate whose tools it is given that include Write, and records what it
// was asked.
type isolatingHost struct {
	*fakeHost
	isolateErr error
	settleErr  error
	settled    Settlement

	mu      sync.Mutex
	asked   [][]string // tools per IsolateDelegate
	settles []string   // "state|title" per SettleDelegate
}

func (h *isolatingHost) IsolateDelegate(_ context.Context, sessionID, delegationID string, tools []string) (Isolation, error) {
	h.mu.Lock()
	h.asked = append(h.asked, slices.Clone(tools))
	h.mu.Unlock()
	if h.isolateErr != nil {
		return Isolation{}, h.isolateErr
	}
	if !slices.Contains(tools, ToolWrite) {
		return Isolation{}, nil
	}
	return Isolation{Branch: "pi-desktop-delegate/" + sessionID + "/" + delegationID, Workspace: "/data/worktrees/d/" + delegationID}, nil
}

func (h *isolatingHost) SettleDelegate(_ context.Context, sessionID, delegationID, state, title string) (Settlement, error) {
	h.mu.Lock()
	h.settles = append(h.settles, state+"|"+title)
	h.mu.Unlock()
	st := h.settled
	st.Branch = "pi-desktop-delegate/" + sessionID + "/" + delegationID
	return st, h.settleErr
}

func (h *isolatingHost) settleList() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.settles)
}

func newIsolatingFixture(t *testing.T) (*delegateFixture, *isolatingHost) {
	f := newDelegateFixture(t)
	h := &isolatingHost{fakeHost: f.host}
	f.a = New(f.db, h, func(string) (provider.Provider, error) { return f.rt, nil }, f.rec.emit,
		func() time.Time { return time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC) })
	return f, h
}

// recordSystem answers like say and keeps the request's system prompt.
func recordSystem(into *string, text string) step {
	return func(ctx context.Context, req provider.Request, emit func(provider.Event) error) (provider.Response, error) {
		*into = req.System
		return say(text)(ctx, req, emit)
	}
}

func TestWritingDelegateIsIsolatedAndSettled(t *testing.T) {
	f, h := newIsolatingFixture(t)
	h.settled = Settlement{MergeState: MergeMerged, Files: []string{"main.go"}}
	writer := definition("writer", subagent.ToolSpec{Names: []string{"Read", "Write"}})
	var system string
	f.script(writer, recordSystem(&system, "Changed main.go."))
	// The finished event goes out after the delegate is marked done.
	finished := make(chan DelegationEvent, 1)
	f.rec.mu.Lock()
	f.rec.hook = func(name string, payload any) {
		if de, ok := payload.(DelegationEvent); ok && de.State == DelegationDone {
			finished <- de
		}
	}
	f.rec.mu.Unlock()

	d := f.start(writer, "change main.go")
	wantBranch := "pi-desktop-delegate/" + sid + "/" + d.ID
	if d.Branch != wantBranch {
		t.Errorf("Branch = %q, want %q", d.Branch, wantBranch)
	}
	got := f.waitAll(d.ID).Finished[0]
	if got.State != DelegationDone || got.MergeState != MergeMerged || got.Branch != wantBranch ||
		got.Report != "Changed main.go.\n\n[PI-Desktop merged this delegate's changes into the session's workspace: main.go.]" {
		t.Errorf("delegation = %+v", got)
	}
	if !strings.Contains(system, "Workspace root: /data/worktrees/d/"+d.ID+"\n") || !strings.Contains(system, "(branch "+wantBranch+")") {
		t.Errorf("the delegate's prompt does not name its worktree:\n%s", system)
	}
	if s := h.settleList(); !slices.Equal(s, []string{"done|PI-Desktop delegate writer: look around"}) {
		t.Errorf("settles = %v", s)
	}
	// The stored record says the same after the live one is gone.
	stored, err := f.newAgent().Delegation(t.Context(), sid, d.ID)
	if err != nil || stored.Branch != wantBranch || stored.MergeState != MergeMerged || stored.Report != got.Report {
		t.Errorf("stored = %+v, %v", stored, err)
	}
	select {
	case de := <-finished:
		if de.Branch != wantBranch || de.MergeState != MergeMerged {
			t.Errorf("the finished delegation's event = %+v", de)
		}
	case <-time.After(10 * time.Second):
		t.Error("no finished delegation event")
	}
}

func TestDelegateIsolationOutcomes(t *testing.T) {
	tests := []struct {
		name       string
		def        subagent.Definition
		steps      []step
		stop       bool
		settled    Settlement
		settleErr  error
		wantSettle string // state passed to SettleDelegate; "" = none
		wantMerge  string
		wantNote   string
	}{
		{name: "a read-only delegate shares the root", def: readOnly("reader"), steps: []step{say("read it")}},
		{name: "a stopped writer keeps its branch", def: definition("writer", subagent.ToolSpec{Names: []string{"Write"}}),
			stop: true, settled: Settlement{MergeState: MergeKept, Commit: "abc"}, wantSettle: DelegationStopped, wantMerge: MergeKept,
			wantNote: "the delegate stopped before it finished, so its changes were not merged"},
		{name: "a failed settle is reported kept", def: definition("writer", subagent.ToolSpec{Names: []string{"Write"}}),
			steps: []step{say("done")}, settleErr: errors.New("git exploded"), wantSettle: DelegationDone, wantMerge: MergeKept,
			wantNote: "could not commit this delegate's changes (git exploded)"},
		{name: "an unchanged writer says nothing", def: definition("writer", subagent.ToolSpec{Names: []string{"Write"}}),
			steps: []step{say("nothing to do")}, settled: Settlement{MergeState: MergeUnchanged}, wantSettle: DelegationDone, wantMerge: MergeUnchanged},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, h := newIsolatingFixture(t)
			h.settled, h.settleErr = tc.settled, tc.settleErr
			started := make(chan string, 1)
			steps := tc.steps
			if tc.stop {
				steps = []step{hanging(started, tc.def.Name)}
			}
			f.script(tc.def, steps...)
			d := f.start(tc.def, "go")
			if tc.stop {
				<-started
				f.a.StopDelegation(sid, d.ID)
			}
			got := f.waitAll(d.ID).Finished[0]
			settles := h.settleList()
			if tc.wantSettle == "" {
				if len(settles) != 0 || got.Branch != "" || got.MergeState != "" {
					t.Errorf("a delegate that shared the root was settled: %v, %+v", settles, got)
				}
				return
			}
			if len(settles) != 1 || !strings.HasPrefix(settles[0], tc.wantSettle+"|") {
				t.Errorf("settles = %v, want state %s", settles, tc.wantSettle)
			}
			if got.MergeState != tc.wantMerge {
				t.Errorf("MergeState = %q, want %q", got.MergeState, tc.wantMerge)
			}
			if tc.wantNote == "" && strings.Contains(got.Report, "[PI-Desktop") || !strings.Contains(got.Report, tc.wantNote) {
				t.Errorf("report = %q, want note %q", got.Report, tc.wantNote)
			}
		})
	}
}

func TestIsolationFailureRefusesTheDelegate(t *testing.T) {
	f, h := newIsolatingFixture(t)
	h.isolateErr = errs.New(errs.WorktreeMissing, "the isolated worktree is missing")
	writer := definition("writer", subagent.ToolSpec{Names: []string{"Write"}})
	f.script(writer, say("never"))
	_, err := f.a.StartDelegation(t.Context(), sid, DelegateSpec{Definition: writer, Prompt: "go"})
	mustCode(t, err, errs.WorktreeMissing)
	if list, _ := f.a.Delegations(t.Context(), sid); len(list) != 0 {
		t.Errorf("a refused delegate was recorded: %+v", list)
	}
	if asked := h.asked; len(asked) != 1 || !slices.Equal(asked[0], []string{"Write"}) {
		t.Errorf("IsolateDelegate was asked with %v", asked)
	}
}

func TestRefusedDelegateGivesItsWorktreeBack(t *testing.T) {
	f, h := newIsolatingFixture(t)
	started := make(chan string, MaxRunningDelegations)
	for i := range MaxRunningDelegations {
		def := readOnly(fmt.Sprintf("r%d", i))
		f.script(def, hanging(started, def.Name))
		f.start(def, "go")
		<-started
	}
	writer := definition("writer", subagent.ToolSpec{Names: []string{"Write"}})
	_, err := f.a.StartDelegation(t.Context(), sid, DelegateSpec{Definition: writer, Prompt: "one more"})
	mustCode(t, err, errs.DelegateLimit)
	if s := h.settleList(); len(s) != 1 || !strings.HasPrefix(s[0], DelegationFailed+"|") {
		t.Errorf("the refused writer's worktree was not given back: %v", s)
	}
	f.a.Stop(sid)
}

func TestMarkInterruptedKeepsAnIsolatedDelegatesBranch(t *testing.T) {
	f := newDelegateFixture(t)
	ctx := t.Context()
	for _, d := range []Delegation{
		{ID: "d-iso", SessionID: sid, TurnID: "t-iso", Subagent: "general", Source: "builtin", Prompt: "p", CreatedAt: 1, Branch: "pi-desktop-delegate/s/d-iso"},
		{ID: "d-shared", SessionID: sid, TurnID: "t-shared", Subagent: "explore", Source: "builtin", Prompt: "p", CreatedAt: 2},
	} {
		if _, err := f.a.st.beginDelegation(ctx, d, Turn{ID: d.TurnID, SessionID: sid, Prompt: "p", CreatedAt: d.CreatedAt, delegationID: d.ID}, "m-"+d.ID); err != nil {
			t.Fatal(err)
		}
	}
	restarted := f.newAgent()
	if _, err := restarted.MarkInterrupted(ctx); err != nil {
		t.Fatal(err)
	}
	list, err := restarted.Delegations(ctx, sid)
	if err != nil || len(list) != 2 {
		t.Fatalf("list = %+v, %v", list, err)
	}
	iso, shared := list[0], list[1]
	if iso.State != DelegationInterrupted || iso.MergeState != MergeKept || !strings.Contains(iso.Report, "branch pi-desktop-delegate/s/d-iso are kept") {
		t.Errorf("isolated = %+v", iso)
	}
	if shared.State != DelegationInterrupted || shared.MergeState != "" || shared.Report != "" {
		t.Errorf("shared = %+v", shared)
	}
}

func TestSettlementNotes(t *testing.T) {
	branch := "pi-desktop-delegate/s1/d1"
	var b strings.Builder
	for _, c := range []struct {
		state string
		st    Settlement
	}{
		{DelegationDone, Settlement{MergeState: MergeMerged, Branch: branch, Files: []string{"a.go", "b/c.go"}, MoreFiles: 3}},
		{DelegationDone, Settlement{MergeState: MergeUnchanged, Branch: branch}},
		{DelegationDone, Settlement{MergeState: MergeConflict, Branch: branch, Files: []string{"a.go"}, Base: "0123abcd"}},
		{DelegationDone, Settlement{MergeState: MergeKept, Branch: branch, Commit: "89abcdef", Base: "0123abcd", Reason: "the session's files changed while merging"}},
		{DelegationFailed, Settlement{MergeState: MergeKept, Branch: branch, Commit: "89abcdef", Base: "0123abcd"}},
		{DelegationStopped, Settlement{MergeState: MergeKept, Branch: branch, Commit: "89abcdef", Base: "0123abcd"}},
		// The settle failed before a commit: the branch is only the checkpoint,
		// so no git diff of it is offered.
		{DelegationDone, Settlement{MergeState: MergeKept, Branch: branch, Reason: "git commit: exit status 128"}},
	} {
		fmt.Fprintf(&b, "== %s, %s\n%s\n", c.state, c.st.MergeState, settlementNote(c.st, c.state))
	}
	fmt.Fprintf(&b, "== prompt\n%s", isolationPrompt(branch))
	b.WriteString("== TaskList\n")
	for _, ms := range []string{"", MergeMerged, MergeUnchanged, MergeConflict, MergeKept} {
		fmt.Fprintf(&b, "%q:%s\n", ms, isolationSummary(Delegation{Branch: branch, MergeState: ms}))
	}
	fmt.Fprintf(&b, "shared:%q\n", isolationSummary(Delegation{}))
	golden.Assert(t, filepath.Join("testdata", "settlement_notes.golden"), b.String())
}

func TestReportWithNoteKeepsTheNote(t *testing.T) {
	note := "\n\n[the note]"
	if got := reportWithNote("short", note); got != "short"+note {
		t.Errorf("short = %q", got)
	}
	if got := reportWithNote("anything", ""); got != "anything" {
		t.Errorf("no note = %q", got)
	}
	long := strings.Repeat("é", MaxReportChars)
	got := reportWithNote(long, note)
	if n := len([]rune(got)); n > MaxReportChars || !strings.HasSuffix(got, note) || !strings.Contains(got, "[report cut at") {
		t.Errorf("long: %d characters, ends %q", n, got[len(got)-120:])
	}
	// TaskWait's own cut then leaves it whole.
	w := WaitResult{Finished: []Delegation{{ID: "d", State: DelegationDone, Report: got}}}.ModelText()
	if !strings.Contains(w, note) || strings.Contains(w, "[report cut at 12000 characters]") {
		t.Errorf("TaskWait cut the note: %s", w[len(w)-200:])
	}
}
