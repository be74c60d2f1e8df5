package store_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/store"
)

// Several PI-Desktop processes started together on a new data folder must
// all open it, with every migration applied exactly once: the version is
// read under the migration's write lock, not before it.
func TestConcurrentFirstOpen(t *testing.T) {
	tests := []struct {
		name string
		open func(t *testing.T, file string, n int) []error
	}{
		{"processes", openInProcesses},
		{"handles", openInGoroutines},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for round := range 3 {
				file := filepath.Join(t.TempDir(), "pi.sqlite")
				for i, err := range tt.open(t, file, 4) {
					if err != nil {
						t.Fatalf("round %d, opener %d: %v", round, i, err)
					}
				}
				s := open(t, file, store.Options{})
				var rows, distinct int
				err := s.DB().QueryRowContext(t.Context(), "SELECT COUNT(*), COUNT(DISTINCT version) FROM schema_migrations").Scan(&rows, &distinct)
				v, _ := s.SchemaVersion(t.Context())
				s.Close()
				if err != nil || rows != latest(t) || distinct != rows || v != latest(t) {
					t.Fatalf("round %d: %d migration rows (%d distinct), version %d, %v; want each of %d once", round, rows, distinct, v, err, latest(t))
				}
			}
		})
	}
}

// openInProcesses starts n copies of this test binary, each blocked on its
// standard input, and releases them together.
func openInProcesses(t *testing.T, file string, n int) []error {
	t.Helper()
	cmds := make([]*exec.Cmd, n)
	stderr := make([]bytes.Buffer, n)
	starts := make([]*os.File, n)
	for i := range cmds {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmds[i] = exec.Command(os.Args[0], "-test.run=^$")
		cmds[i].Env = append(os.Environ(), envOpen+"="+file)
		cmds[i].Stdin, cmds[i].Stderr = r, &stderr[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		starts[i] = w
	}
	for _, w := range starts {
		w.Close()
	}
	errs := make([]error, n)
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			errs[i] = &childError{err, stderr[i].String()}
		}
	}
	return errs
}

type childError struct {
	err    error
	stderr string
}

func (e *childError) Error() string { return e.err.Error() + ": " + e.stderr }

// openInGoroutines opens n separate pools on file at once.
func openInGoroutines(t *testing.T, file string, n int) []error {
	t.Helper()
	errs := make([]error, n)
	var ready, wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		ready.Add(1)
		wg.Go(func() {
			ready.Done()
			<-start
			s, err := store.Open(t.Context(), file, store.Options{})
			if err == nil {
				s.Close()
			}
			errs[i] = err
		})
	}
	ready.Wait()
	close(start)
	wg.Wait()
	return errs
}
