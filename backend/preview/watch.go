package preview

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// ReloadDelay is how long the files must stay quiet before a live reload:
// an editor's save or a build writes several files in a burst.
const ReloadDelay = 250 * time.Millisecond

// maxWatchedDirs bounds the folders one preview watches (fsnotify watches
// one folder at a time, not a tree).
const maxWatchedDirs = 256

// skipped names folders never watched: they change without the page
// changing, or are far too big.
func skipped(name string) bool {
	switch name {
	case ".git", "node_modules", ".pi":
		return true
	}
	return false
}

// Debouncer calls fire once after a burst of Trigger calls has been quiet
// for delay.
type Debouncer struct {
	delay time.Duration
	fire  func()

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
}

// NewDebouncer returns a Debouncer that calls fire delay after the last
// Trigger.
func NewDebouncer(delay time.Duration, fire func()) *Debouncer {
	return &Debouncer{delay: delay, fire: fire}
}

// Trigger (re)starts the quiet period.
func (d *Debouncer) Trigger() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timer = time.AfterFunc(d.delay, d.fire)
}

// Stop cancels a pending call; later Triggers do nothing.
func (d *Debouncer) Stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopped = true
	if d.timer != nil {
		d.timer.Stop()
	}
}

// Watcher reloads a preview when files under its folder change.
type Watcher struct {
	w        *fsnotify.Watcher
	debounce *Debouncer
	done     chan struct{}
}

// Watch watches dir and its subfolders (up to maxWatchedDirs, skipping
// .git and node_modules) and calls changed ReloadDelay after a burst of
// changes ends. Folders created later are watched as they appear.
func Watch(dir string, changed func()) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, errs.Wrap(err, errs.ToolFailed, "live reload is not available: %v", err)
	}
	w := &Watcher{w: fw, debounce: NewDebouncer(ReloadDelay, changed), done: make(chan struct{})}
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != dir && skipped(d.Name()) {
			return filepath.SkipDir
		}
		if n >= maxWatchedDirs {
			return filepath.SkipAll
		}
		if fw.Add(p) == nil {
			n++
		}
		return nil
	})
	if n == 0 {
		_ = fw.Close()
		return nil, errs.New(errs.ToolFailed, "live reload is not available: %s cannot be watched", dir)
	}
	go w.loop(n)
	return w, nil
}

func (w *Watcher) loop(watched int) {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Create) && watched < maxWatchedDirs {
				if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() && !skipped(filepath.Base(ev.Name)) && w.w.Add(ev.Name) == nil {
					watched++
				}
			}
			if ev.Op != fsnotify.Chmod {
				w.debounce.Trigger()
			}
		case _, ok := <-w.w.Errors:
			if !ok {
				return
			}
		}
	}
}

// Close stops watching and cancels a pending reload.
func (w *Watcher) Close() {
	w.debounce.Stop()
	_ = w.w.Close()
	<-w.done
}
