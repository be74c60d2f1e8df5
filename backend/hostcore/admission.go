package hostcore

import (
	"context"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Admission limits. The global capacity refuses work instead of queueing it
// without bound; mutations additionally take a per-session permit (so a
// session never has two in flight) before one of a few global slots.
const (
	maxInFlight      = 256
	maxMutationSlots = 8
)

type admission struct {
	capacity  int
	inFlight  chan struct{}
	mutations chan struct{}

	mu       sync.Mutex
	sessions map[string]*refSem // per-session mutation permits
	paths    map[string]*refRW  // per-path read/write locks
}

type refSem struct {
	ch   chan struct{}
	refs int
}

type refRW struct {
	mu   sync.RWMutex
	refs int
}

func newAdmission(capacity, mutationSlots int) *admission {
	return &admission{
		capacity:  capacity,
		inFlight:  make(chan struct{}, capacity),
		mutations: make(chan struct{}, mutationSlots),
		sessions:  map[string]*refSem{},
		paths:     map[string]*refRW{},
	}
}

// admit reserves what a call needs and returns its release. It honours ctx
// while waiting, so a Stop cancels a queued call before it starts.
func (a *admission) admit(ctx context.Context, session, path string, mutates bool) (func(), error) {
	select {
	case a.inFlight <- struct{}{}:
	default:
		return nil, errs.New(errs.HostOverloaded, "PI-Desktop is running %d tool calls already; wait for some to finish and retry", a.capacity)
	}
	var undo []func()
	release := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		<-a.inFlight
	}
	if mutates {
		sem := a.sessionSem(session)
		undo = append(undo, func() { a.dropSessionSem(session) })
		select {
		case sem.ch <- struct{}{}:
			undo = append(undo, func() { <-sem.ch })
		case <-ctx.Done():
			release()
			return nil, aborted(ctx)
		}
		select {
		case a.mutations <- struct{}{}:
			undo = append(undo, func() { <-a.mutations })
		case <-ctx.Done():
			release()
			return nil, aborted(ctx)
		}
	}
	if path != "" {
		l := a.pathLock(path)
		undo = append(undo, func() { a.dropPathLock(path) })
		// Lock acquisition cannot observe ctx; mutations on one path are
		// already serialized per session, so waits here are short.
		if mutates {
			l.mu.Lock()
			undo = append(undo, l.mu.Unlock)
		} else {
			l.mu.RLock()
			undo = append(undo, l.mu.RUnlock)
		}
	}
	return release, nil
}

func aborted(ctx context.Context) error {
	if ctx.Err() == context.DeadlineExceeded {
		return errs.New(errs.ToolTimeout, "the call timed out while waiting for an earlier change to finish")
	}
	return errs.New(errs.ToolAborted, "the call was stopped before it started")
}

func (a *admission) sessionSem(s string) *refSem {
	a.mu.Lock()
	defer a.mu.Unlock()
	sem := a.sessions[s]
	if sem == nil {
		sem = &refSem{ch: make(chan struct{}, 1)}
		a.sessions[s] = sem
	}
	sem.refs++
	return sem
}

func (a *admission) dropSessionSem(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if sem := a.sessions[s]; sem != nil {
		if sem.refs--; sem.refs == 0 {
			delete(a.sessions, s)
		}
	}
}

func (a *admission) pathLock(p string) *refRW {
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.paths[p]
	if l == nil {
		l = &refRW{}
		a.paths[p] = l
	}
	l.refs++
	return l
}

func (a *admission) dropPathLock(p string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if l := a.paths[p]; l != nil {
		if l.refs--; l.refs == 0 {
			delete(a.paths, p)
		}
	}
}
