package store_test

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/store"
)

// makeDB writes a SQLite file by running stmts with the plain driver, as
// another program would.
func makeDB(t *testing.T, file string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func journalMode(t *testing.T, file string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.QueryRowContext(t.Context(), "PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	return mode
}

// Another program's database in the data folder is refused and left as it
// was: same bytes, same journal mode, no WAL files beside it.
func TestForeignDatabaseRefusedUntouched(t *testing.T) {
	invoices := []string{
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)",
		"INSERT INTO invoices (total) VALUES (12.5), (99)",
	}
	tests := []struct {
		name  string
		extra []string
	}{
		{"user_version 0", nil},
		{"own user_version", []string{"PRAGMA user_version = 3"}},
		{"only an index and a view", []string{"CREATE INDEX inv_total ON invoices (total)", "CREATE VIEW big AS SELECT * FROM invoices WHERE total > 50"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "pi.sqlite")
			makeDB(t, file, append(invoices, tt.extra...)...)
			before := readFile(t, file)
			modeBefore := journalMode(t, file)

			_, err := store.Open(t.Context(), file, store.Options{})
			if !errs.Is(err, errs.StorageForeign) {
				t.Fatalf("Open of another program's database: %v; want STORAGE_FOREIGN", err)
			}
			if msg := errs.ToPayload(err).Message; !strings.Contains(msg, file) || !strings.Contains(msg, "--data-dir") {
				t.Errorf("message %q does not name the file and the way out", msg)
			}
			if !bytes.Equal(before, readFile(t, file)) {
				t.Error("the refused database's bytes changed")
			}
			if m := journalMode(t, file); m != modeBefore {
				t.Errorf("journal mode %q -> %q", modeBefore, m)
			}
			for _, side := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(file + side); !os.IsNotExist(err) {
					t.Errorf("%s left behind: %v", side, err)
				}
			}
		})
	}
}

// An empty SQLite file (made by hand, or by a start that stopped before
// the first migration) is ours to fill.
func TestEmptyDatabaseIsMigrated(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pi.sqlite")
	makeDB(t, file, "PRAGMA user_version = 0", "CREATE TABLE tmp (x)", "DROP TABLE tmp")
	s := open(t, file, store.Options{})
	defer s.Close()
	if v, err := s.SchemaVersion(t.Context()); err != nil || v != latest(t) {
		t.Errorf("schema version = %d, %v; want %d", v, err, latest(t))
	}
}
