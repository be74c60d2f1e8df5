package permission_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

type events struct {
	mu   sync.Mutex
	reqs chan permission.Request
	res  []permission.Resolution
}

func newEvents() *events { return &events{reqs: make(chan permission.Request, 16)} }

func (e *events) emit(name string, payload any) {
	switch name {
	case permission.EventRequest:
		e.reqs <- payload.(permission.Request)
	case permission.EventResolved:
		e.mu.Lock()
		e.res = append(e.res, payload.(permission.Resolution))
		e.mu.Unlock()
	}
}

func ask(b *permission.Broker, ctx context.Context, id, session, tool string, deadline time.Duration) <-chan permission.Outcome {
	out := make(chan permission.Outcome, 1)
	go func() {
		out <- b.Ask(ctx, permission.Request{ID: id, SessionID: session, Tool: tool}, deadline)
	}()
	return out
}

func TestBrokerAnswers(t *testing.T) {
	tests := []struct {
		answer  permission.Outcome
		allowed bool
		grant   bool
	}{
		{permission.AllowOnce, true, false},
		{permission.AllowSession, true, true},
		{permission.Denied, false, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.answer), func(t *testing.T) {
			ev := newEvents()
			b := permission.NewBroker(ev.emit, nil)
			out := ask(b, t.Context(), "r1", "s1", "Bash", 0)
			req := <-ev.reqs
			if got := b.Pending("s1"); len(got) != 1 || got[0].ID != "r1" {
				t.Fatalf("pending = %+v", got)
			}
			if err := b.Resolve(req.SessionID, req.ID, tt.answer); err != nil {
				t.Fatal(err)
			}
			if o := <-out; o != tt.answer || o.Allowed() != tt.allowed {
				t.Errorf("outcome %s allowed=%v", o, o.Allowed())
			}
			if b.Granted("s1", "Bash") != tt.grant {
				t.Errorf("grant = %v, want %v", b.Granted("s1", "Bash"), tt.grant)
			}
			if b.Granted("s1", "Write") || b.Granted("s2", "Bash") {
				t.Error("a grant leaked to another tool or session")
			}
			if len(b.Pending("s1")) != 0 {
				t.Error("answered request still pending")
			}
			if err := b.Resolve("s1", "r1", permission.AllowOnce); !errs.Is(err, errs.NotFound) {
				t.Errorf("answering twice = %v; want NOT_FOUND", err)
			}
		})
	}
}

func TestBrokerRequestsAreKeyedBySession(t *testing.T) {
	ev := newEvents()
	b := permission.NewBroker(ev.emit, nil)
	out := ask(b, t.Context(), "r1", "background", "Write", 0)
	<-ev.reqs
	if len(b.Pending("foreground")) != 0 {
		t.Error("a background session's card shows in another session")
	}
	if err := b.Resolve("foreground", "r1", permission.AllowOnce); !errs.Is(err, errs.NotFound) {
		t.Errorf("another session answered the card: %v", err)
	}
	if got := b.PendingCounts(); got["background"] != 1 {
		t.Errorf("counts = %v", got)
	}
	_ = b.Resolve("background", "r1", permission.Denied)
	<-out
}

func TestBrokerEndsWithoutAnswer(t *testing.T) {
	t.Run("stop cancels", func(t *testing.T) {
		ev := newEvents()
		b := permission.NewBroker(ev.emit, nil)
		ctx, cancel := context.WithCancel(t.Context())
		out := ask(b, ctx, "r1", "s", "Bash", 0)
		<-ev.reqs
		cancel()
		if o := <-out; o != permission.Cancelled {
			t.Errorf("outcome = %s", o)
		}
	})
	t.Run("optional deadline", func(t *testing.T) {
		ev := newEvents()
		b := permission.NewBroker(ev.emit, nil)
		out := ask(b, t.Context(), "r1", "s", "Bash", 20*time.Millisecond)
		<-ev.reqs
		if o := <-out; o != permission.TimedOut || o.Allowed() {
			t.Errorf("outcome = %s", o)
		}
	})
	t.Run("no deadline by default", func(t *testing.T) {
		ev := newEvents()
		b := permission.NewBroker(ev.emit, nil)
		out := ask(b, t.Context(), "r1", "s", "Bash", 0)
		<-ev.reqs
		select {
		case o := <-out:
			t.Fatalf("resolved on its own: %s", o)
		case <-time.After(100 * time.Millisecond):
		}
		_ = b.Resolve("s", "r1", permission.Denied)
		<-out
	})
	t.Run("session deleted", func(t *testing.T) {
		ev := newEvents()
		b := permission.NewBroker(ev.emit, nil)
		out := ask(b, t.Context(), "r1", "s", "Bash", 0)
		<-ev.reqs
		b.DropSession("s")
		if o := <-out; o.Allowed() {
			t.Errorf("outcome = %s", o)
		}
	})
	t.Run("shutdown", func(t *testing.T) {
		ev := newEvents()
		b := permission.NewBroker(ev.emit, nil)
		out := ask(b, t.Context(), "r1", "s", "Bash", 0)
		<-ev.reqs
		b.Close()
		if o := <-out; o != permission.Shutdown {
			t.Errorf("outcome = %s", o)
		}
		if o := b.Ask(t.Context(), permission.Request{ID: "r2", SessionID: "s"}, 0); o != permission.Shutdown {
			t.Errorf("after shutdown Ask = %s", o)
		}
	})
}

func TestResolveRejectsNonAnswers(t *testing.T) {
	b := permission.NewBroker(func(string, any) {}, nil)
	if err := b.Resolve("s", "r", permission.Cancelled); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("Resolve(cancelled) = %v", err)
	}
}

func TestLateAllowSessionGrantsNothing(t *testing.T) {
	t.Run("after a deny", func(t *testing.T) {
		ev := newEvents()
		b := permission.NewBroker(ev.emit, nil)
		out := ask(b, t.Context(), "r1", "s", "Write", 0)
		<-ev.reqs
		_ = b.Resolve("s", "r1", permission.Denied)
		_ = b.Resolve("s", "r1", permission.AllowSession) // a double click, too late
		if o := <-out; o != permission.Denied {
			t.Errorf("outcome = %s", o)
		}
		if b.Granted("s", "Write") {
			t.Error("a losing allow-session answer installed a grant")
		}
	})
	t.Run("after a stop", func(t *testing.T) {
		ev := newEvents()
		b := permission.NewBroker(ev.emit, nil)
		ctx, cancel := context.WithCancel(t.Context())
		out := ask(b, ctx, "r1", "s", "Write", 0)
		<-ev.reqs
		cancel()
		if o := <-out; o != permission.Cancelled {
			t.Errorf("outcome = %s", o)
		}
		_ = b.Resolve("s", "r1", permission.AllowSession)
		if b.Granted("s", "Write") {
			t.Error("an answer after Stop installed a grant")
		}
	})
}
