package fileindex

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/fsnotify/fsnotify"
)

// watchSet is the folders one fsnotify watcher watches. A nil watchSet
// watches nothing (the index polls).
type watchSet struct {
	w     *fsnotify.Watcher
	paths map[string]bool
	max   int
}

func newWatchSet(max int) (*watchSet, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errWatchLimit, err)
	}
	return &watchSet{w: w, paths: map[string]bool{}, max: max}, nil
}

// add watches folder abs. A folder gone before it could be watched is not
// an error: the event of its parent covers it. Any other failure (the
// inotify limit, out of descriptors) is errWatchLimit.
func (s *watchSet) add(abs string) error {
	if s == nil || s.paths[abs] {
		return nil
	}
	if s.max > 0 && len(s.paths) >= s.max {
		return errWatchLimit
	}
	if err := s.w.Add(abs); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("%w: %v", errWatchLimit, err)
	}
	s.paths[abs] = true
	return nil
}

// watching reports whether abs is watched.
func (s *watchSet) watching(abs string) bool { return s != nil && s.paths[abs] }

// remove stops watching abs; a folder renamed away would otherwise keep
// reporting under its old name.
func (s *watchSet) remove(abs string) {
	if s == nil || !s.paths[abs] {
		return
	}
	delete(s.paths, abs)
	_ = s.w.Remove(abs) // fails when the folder is gone, which ended the watch already
}

func (s *watchSet) close() {
	if s != nil {
		_ = s.w.Close()
	}
}

func (s *watchSet) events() <-chan fsnotify.Event {
	if s == nil {
		return nil
	}
	return s.w.Events
}

func (s *watchSet) errors() <-chan error {
	if s == nil {
		return nil
	}
	return s.w.Errors
}
