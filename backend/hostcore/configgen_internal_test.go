package hostcore

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/store"
)

// TestGenReader: the generation read on its own connection sees a commit
// made through another connection pool (another process) on the very next
// read, fails closed when the row is unreadable, recovers on a fresh
// connection once it is back, and refuses to read after close; with the
// WAL index mapped as without it.
func TestGenReader(t *testing.T) {
	for _, mapped := range []bool{false, true} {
		t.Run(map[bool]string{false: "queried", true: "mapped"}[mapped], func(t *testing.T) { testGenReader(t, mapped) })
	}
}

func testGenReader(t *testing.T, mapped bool) {
	file := filepath.Join(t.TempDir(), "pi.db")
	own, err := store.Open(t.Context(), file, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	other, err := store.Open(t.Context(), file, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := other.DB().ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	g := &genReader{db: own.DB()}
	if mapped {
		g.path = file
	}
	if err := g.open(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer g.closeFiles()
	first, err := g.read()
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name    string
		change  string
		want    int64
		wantErr bool
	}{
		{"a bump by another process", "UPDATE config_generation SET n = n + 1 WHERE id = 1", first + 1, false},
		{"another bump", "UPDATE config_generation SET n = n + 5 WHERE id = 1", first + 6, false},
		{"the row gone", "DELETE FROM config_generation", 0, true},
		{"the row back", "INSERT INTO config_generation (id, n) VALUES (1, 42)", 42, false},
	}
	for _, s := range steps {
		exec(s.change)
		got, err := g.read()
		if s.wantErr {
			if err == nil {
				t.Fatalf("%s: read %d, want an error", s.name, got)
			}
			if g.conn != nil {
				t.Fatalf("%s: the failed connection is kept", s.name)
			}
			continue
		}
		if err != nil || got != s.want {
			t.Fatalf("%s: read %d, %v; want %d", s.name, got, err, s.want)
		}
	}
	g.close()
	if n, err := g.read(); err == nil {
		t.Fatalf("read after close = %d, want an error", n)
	}
}

// TestGenReaderConcurrent: calls read the generation at once while another
// process bumps it; every read is a value that was committed, never going
// back (run with -race).
func TestGenReaderConcurrent(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pi.db")
	own, err := store.Open(t.Context(), file, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	other, err := store.Open(t.Context(), file, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	g := &genReader{db: own.DB(), path: file}
	if err := g.open(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer g.closeFiles()
	defer g.close()
	const bumps = 50
	var wg sync.WaitGroup
	wg.Go(func() {
		for range bumps {
			if _, err := other.DB().ExecContext(t.Context(), "UPDATE config_generation SET n = n + 1 WHERE id = 1"); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 4 {
		wg.Go(func() {
			last := int64(-1)
			for range 100 {
				n, err := g.read()
				if err != nil {
					t.Error(err)
					return
				}
				if n < last {
					t.Errorf("generation went back from %d to %d", last, n)
				}
				last = n
			}
		})
	}
	wg.Wait()
	var want int64
	if err := other.DB().QueryRowContext(t.Context(), "SELECT n FROM config_generation WHERE id = 1").Scan(&want); err != nil {
		t.Fatal(err)
	}
	if got, err := g.read(); err != nil || got != want {
		t.Fatalf("final read %d, %v; want %d", got, err, want)
	}
}
