package proc

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"time"
)

// Spare keeps one runner started ahead of need, waiting for its command,
// so that a Start does not wait for the runner's own start-up: a Go
// binary's runtime start was ~6 ms of a ~20 ms `bash -lc true` here. Once
// each command it started has ended (or run refillDelay), it starts the
// next one in the background. The first Start starts as Start does:
// nothing runs before the first command.
//
// A waiting runner holds no command and no tree; it exits at EOF on its
// stdin, so one left behind by a host that died goes with it. A nil Spare
// starts every command as Start does.
type Spare struct {
	exe   string        // the runner binary ("" = DefaultRunner())
	delay time.Duration // how long a running command delays the next spare (0 = refillDelay)

	mu     sync.Mutex
	idle   *runnerProc
	filled chan struct{} // closed when the runner being started is ready; nil when none is
	closed bool
	wg     sync.WaitGroup
}

// NewSpare returns a Spare of runners of exe ("" = DefaultRunner()).
func NewSpare(exe string) *Spare { return &Spare{exe: exe} }

// Start is proc.Start, on the spare runner when one is waiting and s needs
// nothing a spare lacks (its own stdin pipe, another runner binary).
func (sp *Spare) Start(ctx context.Context, s Spec) (*Process, error) {
	if sp == nil || s.StdinPipe || s.noCgroup || s.RunnerExe != sp.exe {
		return Start(ctx, s)
	}
	path, runner, grace, err := resolve(ctx, s)
	if err != nil {
		return nil, err
	}
	// The next spare starts once this command has ended, or has run for
	// refillDelay: a runner's start beside a short command takes one of
	// the machine's cores from it (on two cores, `bash -lc true` took
	// 2-3 ms longer), while a long command does not miss it. Ended, the
	// refill is under way before Wait returns.
	s.onEnd = sp.refill
	r := sp.take(ctx)
	var p *Process
	if r != nil {
		p, err = r.run(ctx, s, path, grace)
		var gone errRunnerGone
		if errors.As(err, &gone) {
			r = nil // it died waiting; the command never started
		}
	}
	if r == nil {
		p, err = startResolved(ctx, s, path, runner, grace)
	}
	if err != nil {
		sp.refill()
		return p, err
	}
	delay := cmp.Or(sp.delay, refillDelay)
	go func() {
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-p.done:
		case <-t.C:
			sp.refill()
		}
	}()
	return p, nil
}

// refillDelay bounds how long a running command delays the next spare.
const refillDelay = 100 * time.Millisecond

// take returns the waiting runner, or the one being started once it is
// ready (it started before any new one could), or nil.
func (sp *Spare) take(ctx context.Context) *runnerProc {
	sp.mu.Lock()
	r, filled := sp.idle, sp.filled
	sp.idle = nil
	sp.mu.Unlock()
	if r != nil || filled == nil {
		return r
	}
	select {
	case <-filled:
	case <-ctx.Done():
		return nil
	}
	sp.mu.Lock()
	r, sp.idle = sp.idle, nil
	sp.mu.Unlock()
	return r
}

// refill starts the next spare in the background, unless one is waiting
// or starting. A failure leaves none: the next Start starts its own.
func (sp *Spare) refill() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.closed || sp.filled != nil || sp.idle != nil {
		return
	}
	filled := make(chan struct{})
	sp.filled = filled
	sp.wg.Add(1)
	go func() {
		defer sp.wg.Done()
		defer close(filled)
		exe := sp.exe
		var r *runnerProc
		var err error
		if exe == "" {
			exe, err = DefaultRunner()
		}
		if err == nil {
			r, _ = spawnRunner(exe, false, false)
		}
		sp.mu.Lock()
		sp.filled = nil
		if sp.closed && r != nil {
			sp.mu.Unlock()
			r.discard(false)
			return
		}
		sp.idle = r
		sp.mu.Unlock()
	}()
}

// Close ends the waiting runner, if any, and stops starting new ones. It
// waits for them to exit. Processes already started are not affected.
func (sp *Spare) Close() {
	if sp == nil {
		return
	}
	sp.mu.Lock()
	sp.closed = true
	r := sp.idle
	sp.idle = nil
	sp.mu.Unlock()
	if r != nil {
		r.discard(false)
	}
	sp.wg.Wait()
}
