package fileindex

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"
)

// partialBatch is how many files the first walk finds between the updates
// it publishes, so early keystrokes see part of a large tree.
const partialBatch = 2048

// run owns the tree and the watcher: it walks, then applies changes until
// Close.
func (x *Index) run(ctx context.Context) {
	defer close(x.done)
	t, w := x.build(ctx, true)
	defer func() { w.close() }()
	if t == nil {
		<-ctx.Done()
		return
	}

	var poll <-chan time.Time
	startPolling := func() {
		x.setPolling()
		tick := time.NewTicker(x.opts.PollInterval)
		context.AfterFunc(ctx, tick.Stop)
		poll = tick.C
	}
	if w == nil {
		startPolling()
	}

	pending := map[string]bool{} // folder -> walk it whole
	full := false
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var fire <-chan time.Time
	var first time.Time
	schedule := func() {
		now := time.Now()
		if fire == nil {
			first, fire = now, timer.C
		}
		timer.Reset(max(0, min(x.opts.Debounce, x.opts.MaxDelay-now.Sub(first))))
	}

	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.events():
			if !ok {
				full = true
				schedule()
				continue
			}
			if d, whole, ok := x.affected(ev); ok {
				pending[d] = pending[d] || whole
				schedule()
			}
		case err, ok := <-w.errors():
			if ok && err != nil {
				// ErrEventOverflow, or a watch the OS dropped: events may be
				// lost, so nothing short of a new walk is trustworthy.
				full = true
				schedule()
			}
		case <-fire:
			fire = nil
			var relist []string
			if !full {
				var err error
				relist, err = applyPending(ctx, x.root, t, w, pending)
				full = err != nil
			}
			clear(pending)
			if !full && len(relist) > 0 {
				for _, d := range relist {
					if _, ok := pending[d]; !ok {
						pending[d] = false
					}
				}
				schedule()
			}
			if full {
				full = false
				nt, nw := x.build(ctx, false)
				if nt == nil {
					continue // cancelled; the old listing stays until Close
				}
				w.close()
				t, w = nt, nw
				if w == nil && poll == nil {
					startPolling()
				}
			}
			x.publish(t.flatten(), false, nil)
		case <-poll:
			nt := newTree()
			if err := walkInto(ctx, x.root, nt, nil, nil); err != nil {
				if ctx.Err() != nil {
					return
				}
				nt = newTree() // the root is gone or unreadable: nothing to suggest
			}
			t = nt
			x.publish(t.flatten(), false, nil)
		}
	}
}

// affected maps an event to the folder to list again, and whether to list
// it whole. Writes to a file do not change the list, except to an ignore
// file.
func (x *Index) affected(ev fsnotify.Event) (string, bool, bool) {
	rel, ok := relOf(x.root, ev.Name)
	if !ok {
		return "", false, false
	}
	if rel == "" {
		return "", true, true
	}
	whole := isIgnoreFile(baseOf(rel))
	if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) || (whole && ev.Has(fsnotify.Write)) {
		return dirOf(rel), whole, true
	}
	return "", false, false
}

// applyPending lists every changed folder again, outer folders first, and
// skips folders inside one listed whole. It returns the folders it started
// to watch, to be listed once more.
func applyPending(ctx context.Context, root string, t *tree, w *watchSet, pending map[string]bool) ([]string, error) {
	dirs := make([]string, 0, len(pending))
	for d := range pending {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs) // a parent sorts before what lies below it
	var whole, relist []string
	for _, d := range dirs {
		if slices.ContainsFunc(whole, func(p string) bool { return below(p, d) }) {
			continue
		}
		if pending[d] {
			whole = append(whole, d)
		}
		added, err := t.rescan(ctx, root, d, pending[d], w)
		if err != nil {
			return nil, err
		}
		relist = append(relist, added...)
	}
	return relist, nil
}

// build walks the whole tree into a new listing, watching every folder
// (first only, also publishing what it found so far). When the folders
// cannot all be watched it walks again without watches and w is nil. t is
// nil when the walk was cancelled or, for the first walk, failed (the
// failure is published for Query).
func (x *Index) build(ctx context.Context, first bool) (t *tree, w *watchSet) {
	if !x.Polling() {
		var err error
		if w, err = newWatchSet(x.opts.MaxWatches); err != nil {
			w = nil
		}
	}
	for {
		var found list
		var onFile func(string)
		if first {
			onFile = func(rel string) {
				found.add(rel)
				if len(found.paths)%partialBatch == 0 {
					x.publish(found.frozen(), true, nil)
				}
			}
		}
		t = newTree()
		err := walkInto(ctx, x.root, t, w, onFile)
		if errors.Is(err, errWatchLimit) && w != nil {
			w.close()
			w = nil
			x.setPolling()
			continue
		}
		if err != nil {
			w.close()
			if ctx.Err() != nil {
				return nil, nil
			}
			if first {
				x.publish(list{}, false, err)
				return nil, nil
			}
			return newTree(), nil // the root is gone: nothing to suggest; poll for it
		}
		if first {
			x.publish(t.flatten(), false, nil)
		}
		return t, w
	}
}
