package hostcore

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// The admission tests run in a synctest bubble: synctest.Wait returns once
// every goroutine of the test is durably blocked, so "the call is queued" is
// a state the test observes, not one a sleep makes likely.

func TestAdmissionSerializesMutationsPerSession(t *testing.T) {
	synctest.Test(t, testAdmissionSerializesMutationsPerSession)
}

func testAdmissionSerializesMutationsPerSession(t *testing.T) {
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
				time.Sleep(time.Millisecond) // the bubble's clock: every other call gets to try meanwhile
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
	synctest.Test(t, testAdmissionReadsRunInParallelButNotWithAWriteOfTheSamePath)
}

func testAdmissionReadsRunInParallelButNotWithAWriteOfTheSamePath(t *testing.T) {
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
	synctest.Wait()
	if isClosed(wrote) {
		t.Fatal("a write overlapped reads of the same path")
	}
	r1()
	synctest.Wait()
	if isClosed(wrote) {
		t.Fatal("a write overlapped the remaining read of the same path")
	}
	r2()
	<-wrote
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// queued reports whether the call sending on got has not returned, how many
// calls of session are admitted or waiting, and how many hold or wait for
// the lock of path.
func queued(a *admission, session, path string, got <-chan error) (waiting bool, calls, pathRefs int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if g := a.sessions[session]; g != nil {
		calls = g.calls
	}
	if l := a.paths[path]; l != nil {
		pathRefs = l.refs
	}
	return len(got) == 0, calls, pathRefs
}

func TestAdmissionOverloadAndStop(t *testing.T) {
	synctest.Test(t, testAdmissionOverloadAndStop)
}

func testAdmissionOverloadAndStop(t *testing.T) {
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
	synctest.Wait()
	// An already-cancelled context would also yield TOOL_ABORTED: the call
	// must be waiting, and counted, before the Stop.
	if waiting, calls, _ := queued(a, "s", "/y", got); !waiting || calls != 2 {
		t.Fatalf("second mutation of the session: waiting=%v, calls=%d; want it queued behind the first (2 calls)", waiting, calls)
	}
	cancel()
	if err := <-got; !errs.Is(err, errs.ToolAborted) {
		t.Errorf("stopped while queued = %v; want TOOL_ABORTED", err)
	}
	first()
}

func TestAdmissionPerSessionShareAndStopOnPathLock(t *testing.T) {
	synctest.Test(t, testAdmissionPerSessionShareAndStopOnPathLock)
}

func testAdmissionPerSessionShareAndStopOnPathLock(t *testing.T) {
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
	synctest.Wait()
	if waiting, calls, refs := queued(a, "s2", "/p/f", got); !waiting || calls != 1 || refs != 2 {
		t.Fatalf("mutation of a read path: waiting=%v, calls=%d, path refs=%d; want it queued on the path lock", waiting, calls, refs)
	}
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
