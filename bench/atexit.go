package main

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// atExit runs cleanups (the 128 MB corpus copy) on every way out of the
// bench: normal return, a failed section, and SIGINT/SIGTERM, none of
// which may leave a copy in the temp folder.
type atExit struct {
	mu  sync.Mutex
	fns []func()
}

// add registers fn to run once at exit, last added first.
func (a *atExit) add(fn func()) {
	once := sync.OnceFunc(fn)
	a.mu.Lock()
	a.fns = append(a.fns, once)
	a.mu.Unlock()
}

// run runs the cleanups; running them again does nothing.
func (a *atExit) run() {
	a.mu.Lock()
	fns := a.fns
	a.fns = nil
	a.mu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
}

// onSignal cleans up and exits when the bench is interrupted.
func (a *atExit) onSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-ch
		fmt.Fprintf(os.Stderr, "bench: %v: removing temporary files\n", sig)
		a.run()
		os.Exit(130)
	}()
}

// fail cleans up, reports err and exits.
func (a *atExit) fail(err error) {
	a.run()
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}
