package session

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ScratchMaxIdle is how long an untouched scratch folder survives a sweep.
const ScratchMaxIdle = 7 * 24 * time.Hour

// SweepReport says what a sweep removed.
type SweepReport struct {
	Removed []string
	Skipped []string // redirected bases or entries left alone, with the reason
	Errors  []error
}

// Sweep is the startup fallback for crashes and force-quits: it removes
// scratch folders whose session is gone or that nobody touched for
// ScratchMaxIdle, and visualization and review folders whose session is
// gone. It never follows a symlink: a redirected base is skipped and a link
// in place of a session folder is removed as a link.
func (s *Service) Sweep(ctx context.Context) (SweepReport, error) {
	live := map[string]bool{}
	ids, err := s.sessionIDs(ctx, "1 = 1")
	if err != nil {
		return SweepReport{}, err // without the live set nothing can be judged safely
	}
	for _, id := range ids {
		live[id] = true
	}
	var r SweepReport
	cutoff := s.now().Add(-ScratchMaxIdle)
	s.sweepBase(&r, s.layout.Scratch(), func(entry string, isDir bool) bool {
		if !live[entry] || !isDir {
			return true
		}
		return !touchedSince(filepath.Join(s.layout.Scratch(), entry), cutoff)
	})
	for _, base := range []string{s.layout.Visualizations(), s.layout.Reviews()} {
		s.sweepBase(&r, base, func(entry string, _ bool) bool { return !live[entry] })
	}
	return r, nil
}

func (s *Service) sweepBase(r *SweepReport, base string, remove func(entry string, isDir bool) bool) {
	fi, err := os.Lstat(base)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil || !fi.IsDir() {
		r.Skipped = append(r.Skipped, base+": not a real folder")
		return
	}
	entries, err := os.ReadDir(base)
	if err != nil {
		r.Errors = append(r.Errors, err)
		return
	}
	for _, e := range entries {
		isDir := e.Type().IsDir() // false for a symlink, whatever it points to
		if !remove(e.Name(), isDir) {
			continue
		}
		if err := removeEntry(base, e.Name()); err != nil {
			r.Errors = append(r.Errors, err)
			continue
		}
		r.Removed = append(r.Removed, filepath.Join(base, e.Name()))
	}
}

// touchedSince reports whether anything in dir (not following links) was
// modified after cutoff.
func touchedSince(dir string, cutoff time.Time) bool {
	found := false
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().After(cutoff) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}
