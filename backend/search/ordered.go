package search

import (
	"context"
	"sync"
)

// runInOrder runs jobs on workers goroutines and hands their results to sink
// in the order feed put them, so a result is the same however the work was
// scheduled. feed runs on its own goroutine and calls put for each job;
// put returns false once the pool is stopping (feed should then return).
// Every job put is run, even after a stop, with a cancelled context, so a
// job can always release what it holds. When sink returns true the pool
// stops: the context jobs see is cancelled and later results are dropped.
// At most about 4×workers jobs' results wait out of order.
func runInOrder(ctx context.Context, workers int, feed func(put func(job func(context.Context) []hit) bool), sink func(hit) bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type task struct {
		run func(context.Context) []hit
		out chan []hit
	}
	tasks := make(chan task)
	order := make(chan chan []hit, 4*workers) // bounds results held out of order
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range tasks {
				t.out <- t.run(ctx)
			}
		}()
	}
	go func() {
		defer close(order)
		defer close(tasks)
		feed(func(job func(context.Context) []hit) bool {
			out := make(chan []hit, 1)
			select {
			case order <- out:
			case <-ctx.Done():
				job(ctx) // a stopped pool still lets the job release what it holds
				return false
			}
			tasks <- task{job, out}
			return ctx.Err() == nil
		})
	}()
	stopped := false
	for out := range order {
		for _, h := range <-out {
			if !stopped && sink(h) {
				stopped = true
				cancel()
			}
		}
	}
	wg.Wait()
}
