package hostcore

import (
	"context"
	"errors"
	"slices"
	"sync"

	"golang.org/x/sync/semaphore"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Admission limits. The global capacity refuses work instead of queueing it
// without bound, and a per-session share keeps one busy session from taking
// all of it. Mutations also take a per-session permit (a session never has
// two in flight) before a path lock and one of a few global slots.
const (
	maxInFlight        = 256
	maxSessionInFlight = 64
	maxMutationSlots   = 8
	pathWriteWeight    = 1 << 20 // a writer takes the whole path; a reader 1
)

type admission struct {
	capacity, perSession int
	inFlight             chan struct{}
	mutations            chan struct{}

	mu       sync.Mutex
	sessions map[string]*sessionGate
	paths    map[string]*refSem
}

type sessionGate struct {
	permit chan struct{} // one mutation at a time
	calls  int           // admitted or waiting calls of the session
}

type refSem struct {
	sem  *semaphore.Weighted
	refs int
}

func newAdmission(capacity, perSession, mutationSlots int) *admission {
	return &admission{
		capacity: capacity, perSession: perSession,
		inFlight:  make(chan struct{}, capacity),
		mutations: make(chan struct{}, mutationSlots),
		sessions:  map[string]*sessionGate{},
		paths:     map[string]*refSem{},
	}
}

// admit reserves what a call needs and returns its release. Every wait
// honours ctx, so a Stop cancels a queued call before it starts. pathKeys
// are the normalized paths the call touches; they are locked in sorted
// order so two calls never wait on each other's second path.
func (a *admission) admit(ctx context.Context, session string, pathKeys []string, mutates bool) (func(), error) {
	gate, err := a.enterSession(session)
	if err != nil {
		return nil, err
	}
	select {
	case a.inFlight <- struct{}{}:
	default:
		a.leaveSession(session)
		return nil, errs.New(errs.HostOverloaded, "PI-Desktop is running %d tool calls already; wait for some to finish and retry", a.capacity)
	}
	undo := []func(){func() { <-a.inFlight }, func() { a.leaveSession(session) }}
	release := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	if mutates {
		select {
		case gate.permit <- struct{}{}:
			undo = append(undo, func() { <-gate.permit })
		case <-ctx.Done():
			release()
			return nil, aborted(ctx)
		}
	}
	keys := slices.Clone(pathKeys)
	slices.Sort(keys)
	for _, key := range slices.Compact(keys) {
		if key == "" {
			continue
		}
		l := a.pathLock(key)
		undo = append(undo, func() { a.dropPathLock(key) })
		weight := int64(1)
		if mutates {
			weight = pathWriteWeight
		}
		if err := l.sem.Acquire(ctx, weight); err != nil {
			release()
			return nil, aborted(ctx)
		}
		undo = append(undo, func() { l.sem.Release(weight) })
	}
	if mutates {
		select {
		case a.mutations <- struct{}{}:
			undo = append(undo, func() { <-a.mutations })
		case <-ctx.Done():
			release()
			return nil, aborted(ctx)
		}
	}
	return release, nil
}

func aborted(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return errs.New(errs.ToolTimeout, "the call timed out while waiting for an earlier change to finish")
	}
	return errs.New(errs.ToolAborted, "the call was stopped before it started")
}

func (a *admission) enterSession(s string) (*sessionGate, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	g := a.sessions[s]
	if g == nil {
		g = &sessionGate{permit: make(chan struct{}, 1)}
		a.sessions[s] = g
	}
	if g.calls >= a.perSession {
		if g.calls == 0 {
			delete(a.sessions, s)
		}
		return nil, errs.New(errs.HostOverloaded, "this session already has %d tool calls running or queued; wait for them to finish and retry", a.perSession)
	}
	g.calls++
	return g, nil
}

func (a *admission) leaveSession(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if g := a.sessions[s]; g != nil {
		if g.calls--; g.calls == 0 {
			delete(a.sessions, s)
		}
	}
}

func (a *admission) pathLock(p string) *refSem {
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.paths[p]
	if l == nil {
		l = &refSem{sem: semaphore.NewWeighted(pathWriteWeight)}
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
