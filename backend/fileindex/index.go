package fileindex

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/search"
)

// Options tune an Index; zero fields take the defaults.
type Options struct {
	// Debounce is the quiet time after a change before a burst of changes
	// is applied (default 50 ms).
	Debounce time.Duration
	// MaxDelay bounds how long a steady stream of changes can hold back
	// the update (default 500 ms).
	MaxDelay time.Duration
	// PollInterval is how often the tree is walked again when it cannot be
	// watched (default 30 s).
	PollInterval time.Duration
	// MaxWatches caps the folders watched; past it the index polls. 0
	// leaves the limit to the OS.
	MaxWatches int
}

func (o Options) withDefaults() Options {
	if o.Debounce <= 0 {
		o.Debounce = 50 * time.Millisecond
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 500 * time.Millisecond
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 30 * time.Second
	}
	return o
}

// Result is one query's answer.
type Result struct {
	Files     []string // '/'-separated, relative to the root, best first
	Truncated bool     // more files matched than listed
	Indexing  bool     // the first walk is still running: more may match later
}

// Index is the file list of one folder tree. Its methods are safe for
// concurrent use.
type Index struct {
	root string
	opts Options

	mu       sync.Mutex
	files    list // what queries see; never changed in place
	building bool
	polling  bool
	err      error // the first walk failed
	gen      uint64
	changed  chan struct{} // closed when gen moves on

	// last is the previous query's matches: the next keystroke usually
	// extends it, and then only those paths can match.
	lastMu sync.Mutex
	last   lastQuery

	cancel context.CancelFunc
	done   chan struct{}
}

// New starts indexing root (an absolute folder) in the background. Close
// stops it.
func New(root string, opts Options) *Index {
	ctx, cancel := context.WithCancel(context.Background())
	x := &Index{
		root:     filepath.Clean(root),
		opts:     opts.withDefaults(),
		building: true,
		changed:  make(chan struct{}),
		cancel:   cancel,
		done:     make(chan struct{}),
	}
	go x.run(ctx)
	return x
}

// Root is the folder the index lists.
func (x *Index) Root() string { return x.root }

// Close stops watching and waits for the background work to end.
func (x *Index) Close() error {
	x.cancel()
	<-x.done
	return nil
}

// Generation counts the updates published so far; Wait blocks for the
// next one.
func (x *Index) Generation() uint64 {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.gen
}

// Wait blocks until the generation is past after, and returns it.
func (x *Index) Wait(ctx context.Context, after uint64) (uint64, error) {
	for {
		x.mu.Lock()
		gen, ch := x.gen, x.changed
		x.mu.Unlock()
		if gen > after {
			return gen, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return gen, ctx.Err()
		case <-x.done:
			return gen, errors.New("fileindex: closed")
		}
	}
}

// Ready blocks until the first walk has finished (or failed).
func (x *Index) Ready(ctx context.Context) error {
	for {
		x.mu.Lock()
		building, gen := x.building, x.gen
		x.mu.Unlock()
		if !building {
			return nil
		}
		if _, err := x.Wait(ctx, gen); err != nil {
			return err
		}
	}
}

// Polling reports whether the index fell back to periodic rebuilds.
func (x *Index) Polling() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.polling
}

// Len is the number of files indexed so far.
func (x *Index) Len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.files.paths)
}

// Query returns the limit (at least 1) best matches of query. The error is
// the first walk's failure, coded as Glob codes it.
func (x *Index) Query(query string, limit int) (Result, error) {
	x.mu.Lock()
	files, building, err, gen := x.files, x.building, x.err, x.gen
	x.mu.Unlock()
	if err != nil {
		return Result{}, err
	}
	q := fold(strings.TrimSpace(query))
	x.lastMu.Lock()
	last := x.last
	x.lastMu.Unlock()
	var within []int32
	if last.gen == gen && last.query != "" && strings.HasPrefix(q, last.query) {
		within = last.matched
	}
	r := rank(files, within, q, max(limit, 1))
	x.lastMu.Lock()
	x.last = lastQuery{gen: gen, query: q, matched: r.matched}
	x.lastMu.Unlock()
	return Result{Files: r.top, Truncated: len(r.matched) > len(r.top), Indexing: building}, nil
}

// lastQuery is a query's matches in the list of generation gen.
type lastQuery struct {
	gen     uint64
	query   string
	matched []int32
}

// publish makes files what queries see and moves the generation on.
func (x *Index) publish(files list, building bool, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.files, x.building, x.err = files, building, err
	x.gen++
	close(x.changed)
	x.changed = make(chan struct{})
}

func (x *Index) setPolling() {
	x.mu.Lock()
	x.polling = true
	x.mu.Unlock()
}

// isIgnoreFile: a change to one of these can show or hide a whole subtree.
func isIgnoreFile(name string) bool {
	switch name {
	case ".gitignore", ".ignore", ".rgignore":
		return true
	}
	return false
}

// errWatchLimit ends a walk that cannot watch another folder.
var errWatchLimit = errors.New("fileindex: cannot watch every folder")

// walk lists the visible tree below rel into t, watching each folder it
// enters when w is set. A folder that cannot be watched stops the walk
// with errWatchLimit; the caller falls back to polling.
func walkInto(ctx context.Context, root string, t *tree, w *watchSet, onFile func(rel string)) error {
	werr := w.add(root)
	err := search.WalkVisible(ctx, root, func(rel string) bool {
		t.addDir(rel)
		if w != nil && werr == nil {
			werr = w.add(filepath.Join(root, filepath.FromSlash(rel)))
		}
		return true
	}, func(rel string) error {
		if werr != nil {
			return werr
		}
		t.addFile(rel)
		if onFile != nil {
			onFile(rel)
		}
		return nil
	})
	if err == nil && werr != nil {
		err = werr
	}
	return err
}

// relOf returns abs relative to root ('/'-separated, "" for root), or
// ok=false for a path outside root.
func relOf(root, abs string) (string, bool) {
	if abs == root {
		return "", true
	}
	r, ok := strings.CutPrefix(abs, root+string(filepath.Separator))
	if !ok {
		return "", false
	}
	return filepath.ToSlash(r), true
}
