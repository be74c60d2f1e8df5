package hostcore

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestAdmissionSerializesMutationsPerSession(t *testing.T) {
	a := newAdmission(64, 64, 4)
	var inSession [3]atomic.Int32
	var overlap atomic.Bool
	var wg sync.WaitGroup
	for s := range 3 {
		for i := range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				session := string(rune('a' + s))
				done, err := a.admit(t.Context(), session, []string{"/p/" + session + "/" + string(rune('0'+i))}, true)
				if err != nil {
					t.Error(err)
					return
				}
				if inSession[s].Add(1) > 1 {
					overlap.Store(true)
				}
				time.Sleep(time.Millisecond)
				inSession[s].Add(-1)
				done()
			}()
		}
	}
	wg.Wait()
	if overlap.Load() {
		t.Error("a session had two mutations in flight")
	}
	if len(a.sessions) != 0 || len(a.paths) != 0 {
		t.Errorf("leaked locks: %d sessions, %d paths", len(a.sessions), len(a.paths))
	}
}

func TestAdmissionReadsRunInParallelButNotWithAWriteOfTheSamePath(t *testing.T) {
	a := newAdmission(64, 64, 4)
	r1, _ := a.admit(t.Context(), "s", []string{"/p/f"}, false)
	r2, err := a.admit(t.Context(), "t", []string{"/p/f"}, false) // two readers together
	if err != nil {
		t.Fatal(err)
	}
	wrote := make(chan struct{})
	go func() {
		w, err := a.admit(context.Background(), "s", []string{"/p/f"}, true)
		if err == nil {
			close(wrote)
			w()
		}
	}()
	select {
	case <-wrote:
		t.Fatal("a write overlapped reads of the same path")
	case <-time.After(30 * time.Millisecond):
	}
	r1()
	r2()
	<-wrote
}

func TestAdmissionOverloadAndStop(t *testing.T) {
	a := newAdmission(1, 1, 1)
	hold, _ := a.admit(t.Context(), "s", []string{""}, false)
	if _, err := a.admit(t.Context(), "s", []string{""}, false); !errs.Is(err, errs.HostOverloaded) {
		t.Errorf("over capacity = %v; want HOST_OVERLOADED", err)
	}
	hold()

	a = newAdmission(8, 8, 1)
	first, _ := a.admit(t.Context(), "s", []string{"/x"}, true)
	ctx, cancel := context.WithCancel(t.Context())
	got := make(chan error, 1)
	go func() {
		_, err := a.admit(ctx, "s", []string{"/y"}, true) // queued behind the first mutation
		got <- err
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-got; !errs.Is(err, errs.ToolAborted) {
		t.Errorf("stopped while queued = %v; want TOOL_ABORTED", err)
	}
	first()
}

func TestAdmissionPerSessionShareAndStopOnPathLock(t *testing.T) {
	a := newAdmission(8, 2, 4)
	r1, _ := a.admit(t.Context(), "busy", []string{""}, false)
	r2, _ := a.admit(t.Context(), "busy", []string{""}, false)
	if _, err := a.admit(t.Context(), "busy", []string{""}, false); !errs.Is(err, errs.HostOverloaded) {
		t.Errorf("third call of one session = %v; want HOST_OVERLOADED", err)
	}
	other, err := a.admit(t.Context(), "calm", []string{""}, false)
	if err != nil {
		t.Errorf("another session was starved: %v", err)
	}
	r1()
	r2()
	other()

	// A mutation waiting for a path held by a reader of another session
	// can be stopped.
	reader, _ := a.admit(t.Context(), "s1", []string{"/p/f"}, false)
	ctx, cancel := context.WithCancel(t.Context())
	got := make(chan error, 1)
	go func() {
		_, err := a.admit(ctx, "s2", []string{"/p/f"}, true)
		got <- err
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-got; !errs.Is(err, errs.ToolAborted) {
		t.Errorf("stopped while waiting for the path = %v; want TOOL_ABORTED", err)
	}
	reader()
	if len(a.sessions) != 0 || len(a.paths) != 0 {
		t.Errorf("leaked gates: %d sessions, %d paths", len(a.sessions), len(a.paths))
	}
}

func TestCancelRecords(t *testing.T) {
	c := newCancels()
	ctx, release, err := c.register(t.Context(), "s", "call-1", "Write")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.register(t.Context(), "s", "call-1", "Read"); !errs.Is(err, errs.Conflict) {
		t.Errorf("reusing a live call id = %v; want CONFLICT", err)
	}
	if c.abort("s", "call-1", "Read") {
		t.Error("an abort naming another tool cancelled the call")
	}
	if ctx.Err() != nil {
		t.Fatal("cancelled by the wrong tool's abort")
	}
	if !c.abort("s", "call-1", "Write") || ctx.Err() == nil {
		t.Error("abort did not cancel the call")
	}
	release()

	// A Stop that arrives before its call keeps it from starting, but only
	// for the tool it named.
	c.abort("s", "call-2", "Bash")
	if _, _, err := c.register(t.Context(), "s", "call-2", "Read"); err != nil {
		t.Errorf("a tombstone for Bash blocked Read: %v", err)
	}
	c.abort("s", "call-3", "Bash")
	if _, _, err := c.register(t.Context(), "s", "call-3", "Bash"); !errs.Is(err, errs.ToolAborted) {
		t.Errorf("aborted-before-start call = %v; want TOOL_ABORTED", err)
	}
}
