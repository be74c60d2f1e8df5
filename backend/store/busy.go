package store

import (
	"context"
	"errors"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// busyWait bounds how long opening retries a database another process
// holds. SQLite returns SQLITE_BUSY without waiting out busy_timeout where
// waiting could deadlock (a journal-mode switch, a reader that wants to
// write while another process migrates), so concurrent first starts need
// their own retry.
const busyWait = 15 * time.Second

// retryBusy runs fn until it returns anything but SQLITE_BUSY/LOCKED, or
// busyWait has passed.
func retryBusy(ctx context.Context, fn func() error) error {
	deadline := time.Now().Add(busyWait)
	pause := 5 * time.Millisecond
	for {
		err := fn()
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
		pause = min(2*pause, 100*time.Millisecond)
	}
}

func isBusy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	c := se.Code() & 0xff
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
}
