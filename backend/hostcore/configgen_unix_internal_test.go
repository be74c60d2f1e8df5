//go:build unix

package hostcore

import (
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/store"
)

// TestGenReaderServesFromTheWALIndex: with the WAL index mapped, a read
// after which nothing was committed runs no query and returns the value
// read last; any commit, to the generation or to another table, by this
// process or another, makes the very next read query again, and a bump is
// seen by it. After a failed read the mapping is not trusted again.
func TestGenReaderServesFromTheWALIndex(t *testing.T) {
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
	first, err := g.read()
	if err != nil {
		t.Fatal(err)
	}
	bump := "UPDATE config_generation SET n = n + 1 WHERE id = 1"
	steps := []struct {
		name      string
		db        *store.Store // nil: no change before the read
		change    string
		want      int64
		wantQuery bool
	}{
		{"the read after the first: the mark is taken", nil, "", first, true},
		{"nothing committed since", nil, "", first, false},
		{"still nothing", nil, "", first, false},
		{"a bump by another process", other, bump, first + 1, true},
		{"nothing since the bump", nil, "", first + 1, false},
		{"a bump by this process", own, bump, first + 2, true},
		{"a commit to another table", other, "CREATE TABLE IF NOT EXISTS unrelated (x); INSERT INTO unrelated VALUES (1)", first + 2, true},
		{"nothing since that commit", nil, "", first + 2, false},
	}
	for _, s := range steps {
		if s.db != nil {
			if _, err := s.db.DB().ExecContext(t.Context(), s.change); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
		}
		before := g.queries
		got, err := g.read()
		if err != nil || got != s.want {
			t.Fatalf("%s: read %d, %v; want %d", s.name, got, err, s.want)
		}
		if queried := g.queries > before; queried != s.wantQuery {
			t.Fatalf("%s: queried = %v, want %v", s.name, queried, s.wantQuery)
		}
	}
	// A failed read: the row gone. Every later read queries.
	if _, err := other.DB().ExecContext(t.Context(), "DELETE FROM config_generation"); err != nil {
		t.Fatal(err)
	}
	if n, err := g.read(); err == nil {
		t.Fatalf("read with the row gone = %d, want an error", n)
	}
	if _, err := other.DB().ExecContext(t.Context(), "INSERT INTO config_generation (id, n) VALUES (1, 7)"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		before := g.queries
		if got, err := g.read(); err != nil || got != 7 {
			t.Fatalf("read %d after the failure: %d, %v; want 7", i, got, err)
		}
		if g.queries == before {
			t.Fatalf("read %d after the failure was served from the mapping", i)
		}
	}
}
