package attachments

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
	"time"
)

// Sweep deletes the stored files nothing refers to any more: each file
// whose name is a store key that referenced says no to, and each partial
// ".put-" file a crashed Put left. A file changed at or after olderThan is
// kept whatever referenced says: a call still running may have stored it
// without having written the row that refers to it yet (Put refreshes the
// time of a file it finds already stored, for the same reason). Names the
// store never writes are left alone. It returns how many files it removed;
// ctx ends it between files.
func (s *Store) Sweep(ctx context.Context, referenced func(sha string) bool, olderThan time.Time) (int, error) {
	root, err := os.OpenRoot(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, storeErr(err, "open the attachments folder %s", s.dir)
	}
	defer root.Close()
	dir, err := root.Open(".")
	if err != nil {
		return 0, storeErr(err, "list the attachments folder %s", s.dir)
	}
	names, err := dir.Readdirnames(-1)
	_ = dir.Close()
	if err != nil {
		return 0, storeErr(err, "list the attachments folder %s", s.dir)
	}
	removed := 0
	var firstErr error
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return removed, err
		}
		partial := strings.HasPrefix(name, ".put-")
		if !partial && !ValidSHA(name) {
			continue
		}
		fi, err := root.Lstat(name)
		if err != nil || !fi.ModTime().Before(olderThan) {
			continue
		}
		if !partial && referenced(name) {
			continue
		}
		// Remove takes the name itself: a link is removed, never followed.
		if err := root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			firstErr = cmp.Or(firstErr, storeErr(err, "remove %s from the attachments folder", name))
			continue
		}
		removed++
	}
	return removed, firstErr
}
