package hostcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/cmdrule"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// A result says what let the call run, so the window's tool row tells the
// same story live and after a reload: the user's answer (and how long the
// card waited), a command rule, the permission mode, or an earlier
// allow-for-session; nothing when no card was due.
func TestResultTellsWhoAllowedTheCall(t *testing.T) {
	type want struct {
		decision string
		by       string // "" = no Approval
		mode     string
		rules    []string
	}
	cases := []struct {
		name   string
		perm   string
		setup  func(e *env)
		tool   string
		args   map[string]any
		answer permission.Outcome // "" = no card expected
		want   want
	}{
		{name: "a read needs nobody", perm: api.PermissionAsk, tool: "Read", args: map[string]any{"path": "main.go"},
			want: want{decision: "allow"}},
		{name: "a write the user allowed once", perm: api.PermissionAsk, tool: "Write", args: map[string]any{"path": "a.txt", "content": "x"},
			answer: permission.AllowOnce, want: want{decision: "allow-once", by: tools.ApprovedByUser, mode: api.PermissionAsk}},
		{name: "a write the user denied", perm: api.PermissionAsk, tool: "Write", args: map[string]any{"path": "a.txt", "content": "x"},
			answer: permission.Denied, want: want{decision: "denied", by: tools.ApprovedByUser, mode: api.PermissionAsk}},
		{name: "a write accept-edits allowed", perm: api.PermissionAcceptEdits, tool: "Write", args: map[string]any{"path": "a.txt", "content": "x"},
			want: want{decision: "allow", by: tools.ApprovedByMode, mode: api.PermissionAcceptEdits}},
		{name: "a command auto allowed", perm: api.PermissionAuto, tool: "Bash", args: map[string]any{"command": "true"},
			want: want{decision: "allow", by: tools.ApprovedByMode, mode: api.PermissionAuto}},
		{name: "a command a rule allowed", perm: api.PermissionAsk, tool: "Bash", args: map[string]any{"command": "touch made"},
			setup: func(e *env) { e.addRule(cmdrule.Allow, cmdrule.ScopeProject, "touch") },
			want:  want{decision: "allow", by: tools.ApprovedByRule, mode: api.PermissionAsk, rules: []string{"allow touch (project)"}}},
		{name: "a write an earlier allow-for-session covers", perm: api.PermissionAsk, tool: "Write", args: map[string]any{"path": "b.txt", "content": "y"},
			setup: func(e *env) {
				e.callAnswering(e.session.ID, "Write", map[string]any{"path": "a.txt", "content": "x"}, permission.AllowSession)
			},
			want: want{decision: "granted", by: tools.ApprovedBySession, mode: api.PermissionAsk}},
		{name: "a scratch write needs nobody", perm: api.PermissionAsk, tool: "Write", args: map[string]any{"path": "SCRATCH", "content": "x"},
			want: want{decision: "allow"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.configure("", tc.perm)
			if tc.setup != nil {
				tc.setup(e)
			}
			if tc.args["path"] == "SCRATCH" {
				tc.args["path"] = filepath.Join(e.core.Info().DataDir, "scratch", e.session.ID, "notes.md")
			}
			var res tools.Result
			if tc.answer != "" {
				res, _ = e.callAnswering(e.session.ID, tc.tool, tc.args, tc.answer)
			} else {
				res = e.call(e.session.ID, tc.tool, tc.args)
				e.noCard()
			}
			if res.Decision != tc.want.decision {
				t.Fatalf("decision = %q, want %q (%+v)", res.Decision, tc.want.decision, res)
			}
			a := res.Approval
			if tc.want.by == "" {
				if a != nil {
					t.Fatalf("approval = %+v, want none", a)
				}
				return
			}
			if a == nil || a.By != tc.want.by || a.Mode != tc.want.mode || !slices.Equal(a.Rules, tc.want.rules) {
				t.Fatalf("approval = %+v, want %+v", a, tc.want)
			}
			if (a.WaitMs > 0) && tc.want.by != tools.ApprovedByUser {
				t.Errorf("waitMs = %d without a card", a.WaitMs)
			}
			// The model never reads it: it is the window's.
			b, _ := json.Marshal(res)
			var back tools.Result
			if err := json.Unmarshal(b, &back); err != nil || back.Approval == nil || back.Approval.By != a.By {
				t.Errorf("approval does not survive storage: %s", b)
			}
		})
	}
}

// startTurn records when Execute says a carded call starts its run.
type startTurn struct {
	tools.Turn
	mu     sync.Mutex
	waited []time.Duration
}

func (s *startTurn) RunStarted(_ context.Context, waited time.Duration) {
	s.mu.Lock()
	s.waited = append(s.waited, waited)
	s.mu.Unlock()
}

func (s *startTurn) starts() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.waited)
}

// A call that waited on a card tells its turn when its run starts, with the
// wait, which the result's Approval repeats; a call with no card, or one the
// user denied, never starts that way.
func TestRunStartsAfterTheAnswer(t *testing.T) {
	e := newEnv(t)
	turn := &startTurn{}
	run := func(tool string, args map[string]any, answer permission.Outcome, hold time.Duration) tools.Result {
		t.Helper()
		raw, _ := json.Marshal(args)
		e.n++
		done := make(chan tools.Result, 1)
		go func() {
			done <- e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "turn",
				ToolCallID: fmt.Sprintf("call-%d", e.n), Tool: tool, Args: raw, Turn: turn})
		}()
		if answer == "" {
			return <-done
		}
		req := <-e.cards.reqs
		time.Sleep(hold) // the user reads the card
		if err := e.core.ResolveApproval(req.SessionID, req.ID, answer); err != nil {
			t.Fatal(err)
		}
		return <-done
	}

	res := run("Write", map[string]any{"path": "a.txt", "content": "x"}, permission.AllowOnce, 30*time.Millisecond)
	starts := turn.starts()
	if !res.OK || len(starts) != 1 {
		t.Fatalf("allowed write: %+v, starts %v", res, starts)
	}
	if starts[0] < 30*time.Millisecond || res.Approval == nil || res.Approval.WaitMs != starts[0].Milliseconds() {
		t.Errorf("waited %v, approval %+v", starts[0], res.Approval)
	}

	if res = run("Write", map[string]any{"path": "b.txt", "content": "x"}, permission.Denied, 0); res.OK || len(turn.starts()) != 1 {
		t.Errorf("denied write: %+v, starts %v", res, turn.starts())
	}
	if res = run("Read", map[string]any{"path": "main.go"}, "", 0); !res.OK || len(turn.starts()) != 1 {
		t.Errorf("read: %+v, starts %v", res, turn.starts())
	}
}
