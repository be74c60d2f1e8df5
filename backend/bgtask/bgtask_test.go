package bgtask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// fakeProc is a started process: it ends when end is called (or when
// killed, unless killEnds is false). atExit runs inside Wait before it
// returns, as output the process layer drains when the process ends.
type fakeProc struct {
	endOnce  sync.Once
	ended    chan struct{}
	code     int
	waitErr  error
	atExit   func()
	killEnds bool
	kills    atomic.Int32
	mu       sync.Mutex
	killErr  error
	killGate chan struct{} // when set, Kill blocks until it is closed
}

func newProc() *fakeProc { return &fakeProc{ended: make(chan struct{}), killEnds: true} }

func (p *fakeProc) end(code int) {
	p.endOnce.Do(func() { p.code = code; close(p.ended) })
}

func (p *fakeProc) Wait() (int, error) {
	<-p.ended
	if p.atExit != nil {
		p.atExit()
	}
	return p.code, p.waitErr
}

func (p *fakeProc) Kill() error {
	p.kills.Add(1)
	if p.killGate != nil {
		<-p.killGate
	}
	p.mu.Lock()
	err := p.killErr
	p.mu.Unlock()
	if err != nil {
		return err
	}
	if p.killEnds {
		p.end(-1)
	}
	return nil
}

func (p *fakeProc) setKillErr(err error) { p.mu.Lock(); p.killErr = err; p.mu.Unlock() }

func exists() bool { return true }

// start reserves and starts a task running p in session sid.
func start(t *testing.T, r *Registry, sid string, p *fakeProc) (Task, *Reservation) {
	t.Helper()
	res, err := r.Reserve(sid, exists)
	if err != nil {
		t.Fatalf("Reserve(%s): %v", sid, err)
	}
	task, err := res.Start("sleep 1000", p)
	if err != nil {
		t.Fatal(err)
	}
	return task, res
}

func waitIdle(t *testing.T, r *Registry) {
	t.Helper()
	if err := r.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Tests that wait for a task's goroutines run in a synctest bubble: the
// processes are fakes, so synctest.Wait returns once every goroutine has
// done what it can, and the test checks the state then instead of polling.

func TestLimits(t *testing.T) { synctest.Test(t, testLimits) }

func testLimits(t *testing.T) {
	r := NewRegistry(Options{Global: 13})
	var procs []*fakeProc
	for range 10 {
		p := newProc()
		procs = append(procs, p)
		start(t, r, "s1", p)
	}
	_, err := r.Reserve("s1", exists)
	if !errs.Is(err, errs.BackgroundTaskLimit) || !strings.Contains(err.Error(), "per-session limit of 10") || errs.As(err).Details["limit"] != 10 {
		t.Fatalf("11th task in a session: %v", err)
	}
	// Other sessions still start, up to the ceiling.
	start(t, r, "s2", newProc())
	start(t, r, "s2", newProc())
	res, err := r.Reserve("s3", exists) // 13th: reserved, not started yet
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Reserve("s4", exists)
	if !errs.Is(err, errs.BackgroundTaskHostLimit) || !strings.Contains(err.Error(), "ceiling of 13") {
		t.Fatalf("over the ceiling: %v", err)
	}
	res.Cancel() // a failed spawn gives its slot back
	res.Cancel()
	if _, err := res.Start("x", newProc()); !errs.Is(err, errs.Conflict) {
		t.Fatalf("Start after Cancel: %v", err)
	}
	res4, err := r.Reserve("s4", exists)
	if err != nil {
		t.Fatalf("after Cancel: %v", err)
	}
	res4.Cancel()
	// A finished task frees its session slot.
	procs[0].end(0)
	synctest.Wait()
	if ts := r.List("s1"); ts[0].State != Exited {
		t.Fatalf("ended task = %s; want exited", ts[0].State)
	}
	if _, err := r.Reserve("s1", exists); err != nil {
		t.Fatalf("after one exited: %v", err)
	}
	r.Shutdown() // a bubble ends only after every task's goroutine has returned
	waitIdle(t, r)
}

func TestSessionMustExist(t *testing.T) {
	r := NewRegistry(Options{})
	if _, err := r.Reserve("gone", func() bool { return false }); !errs.Is(err, errs.SessionNotFound) {
		t.Fatalf("missing session: %v", err)
	}
	if _, err := r.Reserve("s", nil); !errs.Is(err, errs.SessionNotFound) {
		t.Fatalf("no existence check: %v", err)
	}
	if _, err := r.Reserve("", exists); !errs.Is(err, errs.InvalidArgument) {
		t.Fatalf("empty session: %v", err)
	}
	// Deleted between Reserve and Start: the task is stopped at once.
	res, err := r.Reserve("s", exists)
	if err != nil {
		t.Fatal(err)
	}
	r.StopSession("s")
	p := newProc()
	task, err := res.Start("cmd", p)
	if err != nil || task.State != Stopping {
		t.Fatalf("Start in a deleted session: %+v, %v", task, err)
	}
	waitIdle(t, r)
	if p.kills.Load() == 0 {
		t.Fatal("task of a deleted session was not killed")
	}
	// A deleted session stays refused even if a stale check says it exists.
	if _, err := r.Reserve("s", exists); !errs.Is(err, errs.SessionNotFound) {
		t.Fatalf("deleted session: %v", err)
	}
}

func TestOwnership(t *testing.T) {
	r := NewRegistry(Options{})
	p := newProc()
	task, _ := start(t, r, "owner", p)
	if !strings.HasPrefix(task.ID, "bg-") || len(task.ID) < 20 || task.SessionID != "owner" {
		t.Fatalf("task %+v", task)
	}
	other, _ := start(t, r, "owner", newProc())
	if other.ID == task.ID {
		t.Fatal("ids repeat")
	}
	for name, call := range map[string]func() error{
		"Get":        func() error { _, err := r.Get("intruder", task.ID); return err },
		"Output":     func() error { _, err := r.Output("intruder", task.ID, 0, 0); return err },
		"Stop":       func() error { return r.Stop("intruder", task.ID) },
		"Remove":     func() error { return r.Remove("intruder", task.ID) },
		"Wait":       func() error { _, err := r.Wait(context.Background(), "intruder", task.ID); return err },
		"unknown id": func() error { _, err := r.Get("owner", "bg-NOPE"); return err },
	} {
		if err := call(); !errs.Is(err, errs.NotFound) {
			t.Errorf("%s from another session: %v", name, err)
		}
	}
	if got := r.List("intruder"); len(got) != 0 {
		t.Errorf("another session lists %v", got)
	}
	if p.kills.Load() != 0 {
		t.Error("another session's Stop reached the process")
	}
	if got := r.List("owner"); len(got) != 2 || got[0].ID != task.ID {
		t.Errorf("owner lists %+v", got)
	}
	r.Shutdown()
	waitIdle(t, r)
}

func TestStopRemoveGuards(t *testing.T) {
	r := NewRegistry(Options{})
	p := newProc()
	p.killEnds = false // the process takes its time to die
	task, _ := start(t, r, "s", p)
	if err := r.Remove("s", task.ID); !errs.Is(err, errs.BackgroundTaskRunning) {
		t.Fatalf("Remove running: %v", err)
	}
	// A failed signal is reported, leaves the task running, and can be retried.
	p.setKillErr(errors.New("operation not permitted"))
	if err := r.Stop("s", task.ID); !errs.Is(err, errs.BackgroundTaskStopFailed) {
		t.Fatalf("Stop with a failing Kill: %v", err)
	}
	if got, _ := r.Get("s", task.ID); got.State != Running {
		t.Fatalf("after a failed stop: %s", got.State)
	}
	p.setKillErr(nil)
	if err := r.Stop("s", task.ID); err != nil {
		t.Fatalf("retried Stop: %v", err)
	}
	if err := r.Stop("s", task.ID); err != nil { // again while stopping
		t.Fatalf("Stop while stopping: %v", err)
	}
	if got, _ := r.Get("s", task.ID); got.State != Stopping {
		t.Fatalf("after stop signal: %s", got.State)
	}
	if err := r.Remove("s", task.ID); !errs.Is(err, errs.BackgroundTaskRunning) {
		t.Fatalf("Remove stopping: %v", err)
	}
	p.end(143)
	waitIdle(t, r)
	got, _ := r.Get("s", task.ID)
	if got.State != Stopped || got.ExitCode == nil || *got.ExitCode != 143 || got.EndedAt.IsZero() {
		t.Fatalf("after the process died: %+v", got)
	}
	kills := p.kills.Load()
	if err := r.Stop("s", task.ID); err != nil || p.kills.Load() != kills {
		t.Fatalf("Stop on a stopped task: %v (kills %d→%d)", err, kills, p.kills.Load())
	}
	if err := r.Remove("s", task.ID); err != nil {
		t.Fatal(err)
	}
	if err := r.Remove("s", task.ID); err != nil {
		t.Fatalf("Remove twice: %v", err)
	}
	if len(r.List("s")) != 0 {
		t.Fatal("removed task still listed")
	}
	if g, err := r.Get("s", task.ID); err != nil || !g.Removed {
		t.Fatalf("removed task must stay readable by id: %+v %v", g, err)
	}
	if _, err := r.Output("s", task.ID, 0, 0); err != nil {
		t.Fatalf("removed task output: %v", err)
	}
}

func TestTerminalStates(t *testing.T) {
	tests := []struct {
		name  string
		code  int
		err   error
		state State
	}{
		{"exit 0", 0, nil, Exited},
		{"exit 3", 3, nil, Failed},
		{"no exit status", 0, errors.New("wait: no child processes"), Failed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var events []string
			var mu sync.Mutex
			r := NewRegistry(Options{OutputInterval: -1, Emit: func(ev string, payload any) {
				mu.Lock()
				events = append(events, ev)
				mu.Unlock()
			}})
			p := newProc()
			p.waitErr = tt.err
			res, _ := r.Reserve("s", exists)
			fmt.Fprint(res.Stdout(), "before registration\n") // output between spawn and Start
			task, _ := res.Start("cmd", p)
			fmt.Fprint(res.Stderr(), "warn\n")
			p.end(tt.code)
			waitIdle(t, r)
			got, _ := r.Get("s", task.ID)
			if got.State != tt.state {
				t.Fatalf("state %s, want %s", got.State, tt.state)
			}
			if tt.err == nil && (got.ExitCode == nil || *got.ExitCode != tt.code) || tt.err != nil && got.Error == "" {
				t.Fatalf("%+v", got)
			}
			out, _ := r.Output("s", task.ID, 0, 0)
			if out.Stdout.Text != "before registration\n" || out.Stderr.Text != "warn\n" {
				t.Fatalf("output %+v", out)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(events) < 3 || events[0] != EventStarted || events[len(events)-1] != EventExited {
				t.Fatalf("events %v", events)
			}
		})
	}
}

// The process layer drains queued output when the process ends (atExit);
// whoever sees the terminal state — the exited event or a poller — sees
// every byte.
func TestDrainBeforeTerminal(t *testing.T) {
	const rounds = 40
	for i := range rounds {
		var r *Registry
		var want atomic.Int64
		var checked atomic.Bool
		bad := make(chan string, 4)
		r = NewRegistry(Options{OutputInterval: -1, Emit: func(ev string, payload any) {
			if ev != EventExited {
				return
			}
			task := payload.(Task)
			out, err := r.Output(task.SessionID, task.ID, 1<<20, 1<<20)
			if err != nil || out.Stdout.TotalBytes != want.Load() || !strings.HasSuffix(out.Stdout.Text, "last line\n") || out.Stderr.Text != "err tail\n" {
				bad <- fmt.Sprintf("exited event saw %d of %d bytes: %v", out.Stdout.TotalBytes, want.Load(), err)
			}
			checked.Store(true)
		}})
		res, _ := r.Reserve("s", exists)
		p := newProc()
		p.atExit = func() {
			for j := range 200 {
				fmt.Fprintf(res.Stdout(), "queued line %d\n", j)
			}
			io.WriteString(res.Stdout(), "last line\n")
			io.WriteString(res.Stderr(), "err tail\n")
		}
		var n int64
		for j := range 100 {
			k, _ := fmt.Fprintf(res.Stdout(), "early %d\n", j)
			n += int64(k)
		}
		for j := range 200 {
			n += int64(len(fmt.Sprintf("queued line %d\n", j)))
		}
		want.Store(n + int64(len("last line\n")))
		task, _ := res.Start("cmd", p)
		// Poll while it ends.
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				got, err := r.Get("s", task.ID)
				if err != nil {
					bad <- err.Error()
					return
				}
				if got.State.Terminal() {
					out, _ := r.Output("s", task.ID, 1<<20, 1<<20)
					if out.Stdout.TotalBytes != want.Load() || out.Stderr.TotalBytes != int64(len("err tail\n")) {
						bad <- fmt.Sprintf("poller saw %s with %d of %d bytes", got.State, out.Stdout.TotalBytes, want.Load())
					}
					return
				}
			}
		}()
		if i%2 == 0 {
			p.end(0)
		} else {
			r.Stop("s", task.ID) // stopped: output queued at the stop counts too
		}
		<-done
		waitIdle(t, r)
		select {
		case msg := <-bad:
			t.Fatalf("round %d: %s", i, msg)
		default:
		}
		if !checked.Load() {
			t.Fatal("no exited event")
		}
	}
}

func TestStopSessionDoesNotWaitOrFail(t *testing.T) {
	synctest.Test(t, testStopSessionDoesNotWaitOrFail)
}

func testStopSessionDoesNotWaitOrFail(t *testing.T) {
	r := NewRegistry(Options{})
	gate := make(chan struct{})
	blocking := newProc()
	blocking.killGate = gate // Kill hangs until released
	failing := newProc()
	failing.setKillErr(errors.New("access denied"))
	other := newProc()
	start(t, r, "doomed", blocking)
	start(t, r, "doomed", failing)
	start(t, r, "kept", other)

	r.StopSession("doomed") // must return while Kill is still blocked
	close(gate)
	if len(r.List("doomed")) != 0 {
		t.Fatal("a deleted session's tasks are listed")
	}
	if _, err := r.Reserve("doomed", exists); !errs.Is(err, errs.SessionNotFound) {
		t.Fatalf("Reserve in a deleted session: %v", err)
	}
	if len(r.List("kept")) != 1 || other.kills.Load() != 0 {
		t.Fatal("another session was touched")
	}
	synctest.Wait() // the signals are asynchronous
	if blocking.kills.Load() == 0 || failing.kills.Load() == 0 {
		t.Fatalf("kills: blocking %d, failing %d; want both signalled", blocking.kills.Load(), failing.kills.Load())
	}
	failing.end(1) // it dies on its own later
	// Archiving is not deletion: nothing here stops "kept".
	r.Shutdown()
	waitIdle(t, r)
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.sessions["doomed"].order); n != 0 {
		t.Fatalf("deleted session still holds %d tasks after they settled", n)
	}
	if r.active != 0 {
		t.Fatalf("active = %d", r.active)
	}
}

func TestShutdownTakesNoOutputLock(t *testing.T) {
	r := NewRegistry(Options{})
	p1, p2 := newProc(), newProc()
	t1, _ := start(t, r, "a", p1)
	start(t, r, "b", p2)
	// A writer stuck inside a stream's lock must not delay shutdown.
	r.mu.Lock()
	tk := r.tasks[t1.ID]
	r.mu.Unlock()
	tk.stdout.mu.Lock()
	tk.stderr.mu.Lock()
	r.Shutdown()
	if p1.kills.Load() != 1 || p2.kills.Load() != 1 {
		t.Fatalf("kills %d %d", p1.kills.Load(), p2.kills.Load())
	}
	if _, err := r.Reserve("c", exists); !errs.Is(err, errs.Conflict) {
		t.Fatalf("Reserve after Shutdown: %v", err)
	}
	if err := r.Stop("a", t1.ID); err != nil {
		t.Fatal(err)
	}
	tk.stdout.mu.Unlock()
	tk.stderr.mu.Unlock()
	waitIdle(t, r)
	for _, sid := range []string{"a", "b"} {
		if got := r.List(sid); got[0].State != Stopped {
			t.Fatalf("%s: %+v", sid, got)
		}
	}
}

func TestOutputPreview(t *testing.T) {
	r := NewRegistry(Options{RingBytes: 64 << 10})
	p := newProc()
	res, _ := r.Reserve("s", exists)
	task, _ := res.Start("cmd", p)
	// 20,000 three-byte characters: more than the ring and the preview.
	for range 100 {
		io.WriteString(res.Stdout(), strings.Repeat("€", 200))
	}
	io.WriteString(res.Stderr(), "e"+strings.Repeat("ü", 5000))
	res.Stderr().Write([]byte("\xc3")) // a character still being written
	out, err := r.Output("s", task.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(out.Stdout.Text); n != PreviewStdoutChars || strings.Trim(out.Stdout.Text, "€") != "" || !out.Stdout.Truncated {
		t.Fatalf("stdout preview: %d chars, truncated %v", n, out.Stdout.Truncated)
	}
	if n := utf8.RuneCountInString(out.Stderr.Text); n != PreviewStderrChars || strings.Trim(out.Stderr.Text, "ü") != "" {
		t.Fatalf("stderr preview: %d chars %q...", n, out.Stderr.Text[:10])
	}
	if out.Stdout.TotalBytes != 60000 {
		t.Fatalf("total %d", out.Stdout.TotalBytes)
	}
	// The ring cut falls inside a character: it is skipped, not garbled.
	whole, _ := r.Output("s", task.ID, 1<<20, 1<<20)
	if !utf8.ValidString(whole.Stdout.Text) || strings.ContainsRune(whole.Stdout.Text, utf8.RuneError) || len(whole.Stdout.Text) > 64<<10 {
		t.Fatalf("ring tail not clean: %d bytes", len(whole.Stdout.Text))
	}
	io.WriteString(res.Stderr(), "\xbc!") // completes ü
	p.end(0)
	waitIdle(t, r)
	out, _ = r.Output("s", task.ID, 2, 2)
	if out.Stderr.Text != "ü!" || out.Stdout.Text != "€€" {
		t.Fatalf("tail %q %q", out.Stdout.Text, out.Stderr.Text)
	}
}

func TestRetention(t *testing.T) {
	r := NewRegistry(Options{KeepTerminal: 3})
	var ids []string
	for range 5 {
		p := newProc()
		task, _ := start(t, r, "s", p)
		ids = append(ids, task.ID)
		p.end(0)
		waitIdle(t, r)
	}
	got := r.List("s")
	if len(got) != 3 || got[0].ID != ids[2] {
		t.Fatalf("kept %+v", got)
	}
	if _, err := r.Get("s", ids[0]); !errs.Is(err, errs.NotFound) {
		t.Fatalf("dropped task: %v", err)
	}
}

// Many sessions reserving, starting, printing, stopping, reading and
// removing at once; run with -race.
func TestConcurrentUse(t *testing.T) {
	var events atomic.Int64
	r := NewRegistry(Options{PerSession: 4, Global: 12, OutputInterval: -1, Emit: func(string, any) { events.Add(1) }})
	var wg sync.WaitGroup
	for s := range 6 {
		sid := fmt.Sprintf("s%d", s)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				res, err := r.Reserve(sid, exists)
				if err != nil {
					deleted := sid == "s5" && errs.Is(err, errs.SessionNotFound)
					if !deleted && !errs.Is(err, errs.BackgroundTaskLimit) && !errs.Is(err, errs.BackgroundTaskHostLimit) {
						t.Errorf("Reserve: %v", err)
					}
					for _, task := range r.List(sid) {
						r.Stop(sid, task.ID)
						r.Remove(sid, task.ID)
					}
					continue
				}
				p := newProc()
				task, _ := res.Start("cmd", p)
				go func() {
					for j := range 50 {
						fmt.Fprintf(res.Stdout(), "%s line %d\n", task.ID, j)
						fmt.Fprintf(res.Stderr(), "é%d", j)
					}
					if i%3 == 0 {
						p.end(i)
					}
				}()
				r.Output(sid, task.ID, 100, 100)
				if i%5 == 0 {
					r.Stop(sid, task.ID)
				}
				r.List(sid)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.StopSession("s5")
	}()
	wg.Wait()
	r.Shutdown()
	waitIdle(t, r)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active != 0 {
		t.Fatalf("active = %d after everything settled", r.active)
	}
	for id, s := range r.sessions {
		if s.active != 0 {
			t.Fatalf("session %s active = %d", id, s.active)
		}
	}
	if events.Load() == 0 {
		t.Fatal("no events")
	}
}

func TestWaitReturnsTheSettledState(t *testing.T) {
	synctest.Test(t, testWaitReturnsTheSettledState)
}

func testWaitReturnsTheSettledState(t *testing.T) {
	r := NewRegistry(Options{})
	p := newProc()
	task, _ := start(t, r, "s", p)
	// The bubble's clock: the deadline passes once Wait is durably blocked.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	got, err := r.Wait(ctx, "s", task.ID)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || got.State != Running {
		t.Fatalf("Wait on a running task = %+v, %v", got, err)
	}
	if err := r.Stop("s", task.ID); err != nil {
		t.Fatal(err)
	}
	got, err = r.Wait(context.Background(), "s", task.ID)
	if err != nil || got.State != Stopped || got.EndedAt.IsZero() {
		t.Fatalf("Wait after Stop = %+v, %v", got, err)
	}
	p2 := newProc()
	t2, _ := start(t, r, "s", p2)
	p2.end(3)
	if got, err := r.Wait(context.Background(), "s", t2.ID); err != nil || got.State != Failed || got.ExitCode == nil || *got.ExitCode != 3 {
		t.Fatalf("Wait on a failing task = %+v, %v", got, err)
	}
	waitIdle(t, r)
}
