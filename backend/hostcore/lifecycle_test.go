package hostcore_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// slowTool is an instrumented mutating tool: it records how many calls of
// one session overlap and waits until released.
type slowTool struct {
	running, maxRunning atomic.Int32
	started             chan struct{}
	release             chan struct{}
}

func (s *slowTool) Spec() tools.Spec {
	return tools.Spec{Name: "Slow", Class: permission.ClassEdit, Risk: permission.High, Mutates: true,
		Timeout: time.Minute, Schema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}
}

func (s *slowTool) Run(ctx context.Context, _ *tools.Call) tools.Result {
	n := s.running.Add(1)
	for {
		m := s.maxRunning.Load()
		if n <= m || s.maxRunning.CompareAndSwap(m, n) {
			break
		}
	}
	s.started <- struct{}{}
	<-s.release
	s.running.Add(-1)
	return tools.Result{OK: true}
}

func newSlowEnv(t *testing.T) (*hostcore.Core, *slowTool, string, string) {
	t.Helper()
	slow := &slowTool{started: make(chan struct{}, 16), release: make(chan struct{})}
	dir := t.TempDir()
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: filepath.Join(dir, "data"), ExtraTools: []tools.Tool{slow}})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := core.AddProject(t.Context(), dir)
	s, _ := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	if _, err := core.ConfigureSession(t.Context(), s.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		t.Fatal(err)
	}
	return core, slow, s.ID, filepath.Join(dir, "data")
}

func TestMutationsSerializedAndStopWhileQueued(t *testing.T) {
	core, slow, sid, _ := newSlowEnv(t)
	defer core.Close()
	results := make(chan tools.Result, 3)
	ctx2, stopQueued := context.WithCancel(t.Context())
	go func() {
		results <- core.Execute(t.Context(), hostcore.ToolRequest{SessionID: sid, ToolCallID: "a", Tool: "Slow"})
	}()
	<-slow.started
	go func() {
		results <- core.Execute(ctx2, hostcore.ToolRequest{SessionID: sid, ToolCallID: "b", Tool: "Slow"})
	}()
	go func() {
		results <- core.Execute(t.Context(), hostcore.ToolRequest{SessionID: sid, ToolCallID: "c", Tool: "Slow"})
	}()
	// b and c wait in admission behind a; an already-stopped b would also
	// yield TOOL_ABORTED, so see them queued first.
	waitUntil(t, "b and c queued behind a", func() bool { return core.CallsInAdmission(sid) == 3 })
	if n := len(slow.started); n != 0 {
		t.Fatalf("%d more mutations of the session started while a ran", n)
	}
	stopQueued() // b must end without ever running
	var first tools.Result
	select {
	case first = <-results:
	case <-time.After(30 * time.Second):
		t.Fatal("the stopped call did not end: it was running, not queued")
	}
	if first.Code != errs.ToolAborted {
		t.Fatalf("queued call after Stop = %+v; want TOOL_ABORTED", first)
	}
	close(slow.release)
	for range 2 {
		if r := <-results; !r.OK {
			t.Errorf("call = %+v", r)
		}
	}
	if m := slow.maxRunning.Load(); m != 1 {
		t.Errorf("%d mutations of one session ran at once", m)
	}
}

func TestCloseWaitsForRunningCallsAndKeepsTheirAudit(t *testing.T) {
	core, slow, sid, data := newSlowEnv(t)
	done := make(chan tools.Result, 1)
	go func() {
		done <- core.Execute(t.Context(), hostcore.ToolRequest{SessionID: sid, ToolCallID: "a", Tool: "Slow"})
	}()
	<-slow.started
	closed := make(chan struct{})
	go func() { core.Close(); close(closed) }()
	waitUntil(t, "Close to begin", core.Closing)
	if r := core.Execute(t.Context(), hostcore.ToolRequest{SessionID: sid, ToolCallID: "late", Tool: "Read", Args: json.RawMessage(`{"path":"x"}`)}); r.Code != errs.ToolAborted {
		t.Errorf("call during shutdown = %+v; want TOOL_ABORTED", r)
	}
	select {
	case <-closed:
		t.Fatal("Close returned while a mutation was still running")
	default:
	}
	close(slow.release)
	<-done
	<-closed
	again, err := hostcore.New(t.Context(), hostcore.Config{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	rows, err := again.AuditRows(t.Context(), sid)
	if err != nil || len(rows) != 2 {
		t.Fatalf("audit after shutdown: %d rows, %v; want the finished call and the refused one", len(rows), err)
	}
}

// waitUntil waits for cond, a state other goroutines reach. Core runs on
// real files and a database, which a synctest bubble cannot hold, so the
// test polls the state itself instead of sleeping until it probably holds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestApprovalEndsWithoutRunning(t *testing.T) {
	t.Run("permission timeout", func(t *testing.T) {
		e := newEnv(t)
		s, _ := e.core.Settings(t.Context())
		s.PermissionTimeoutSeconds = 1
		if _, err := e.core.UpdateSettings(t.Context(), s); err != nil {
			t.Fatal(err)
		}
		res := e.call(e.session.ID, "Write", map[string]any{"path": "late.txt", "content": "x"})
		<-e.cards.reqs
		if res.OK || res.Code != errs.PermissionTimeout || res.Decision != "timeout" {
			t.Errorf("timed-out card = %+v", res)
		}
		if _, err := os.Stat(filepath.Join(e.project, "late.txt")); !os.IsNotExist(err) {
			t.Error("a timed-out call ran")
		}
	})
	t.Run("session deleted", func(t *testing.T) {
		e := newEnv(t)
		done := make(chan tools.Result, 1)
		go func() { done <- e.call(e.session.ID, "Write", map[string]any{"path": "gone.txt", "content": "x"}) }()
		<-e.cards.reqs
		if err := e.core.DeleteSession(t.Context(), e.session.ID); err != nil {
			t.Fatal(err)
		}
		if res := <-done; res.OK {
			t.Errorf("call of a deleted session = %+v", res)
		}
		if _, err := os.Stat(filepath.Join(e.project, "gone.txt")); !os.IsNotExist(err) {
			t.Error("a deleted session's call ran")
		}
	})
	t.Run("a Read grant does not cover Write", func(t *testing.T) {
		e := newEnv(t)
		if res, _ := e.callAnswering(e.session.ID, "Read", map[string]any{"path": filepath.Join(e.outside, "secret.txt")}, permission.AllowSession); !res.OK {
			t.Fatalf("outside Read = %+v", res)
		}
		if res := e.call(e.session.ID, "Read", map[string]any{"path": filepath.Join(e.outside, "secret.txt")}); !res.OK || res.Decision != "granted" {
			t.Errorf("second outside Read = %+v; want allowed by the grant", res)
		}
		res, _ := e.callAnswering(e.session.ID, "Write", map[string]any{"path": "w.txt", "content": "x"}, permission.Denied)
		if res.OK {
			t.Error("a Read grant let Write through")
		}
	})
}
