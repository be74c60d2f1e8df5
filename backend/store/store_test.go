package store_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/migrations"
)

func open(t *testing.T, file string, opts store.Options) *store.Store {
	t.Helper()
	s, err := store.Open(t.Context(), file, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func latest(t *testing.T) int {
	t.Helper()
	steps, err := store.LoadMigrations(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	return steps[len(steps)-1].Version
}

func TestFreshDatabase(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pi.sqlite")
	s := open(t, file, store.Options{})
	defer s.Close()
	v, err := s.SchemaVersion(t.Context())
	if err != nil || v != latest(t) {
		t.Fatalf("schema version = %d, %v; want %d", v, err, latest(t))
	}
	var mode string
	if err := s.DB().QueryRowContext(t.Context(), "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk int
	if err := s.DB().QueryRowContext(t.Context(), "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v; want 1", fk, err)
	}
	var timeout int
	if err := s.DB().QueryRowContext(t.Context(), "PRAGMA busy_timeout").Scan(&timeout); err != nil || timeout < 1000 {
		t.Errorf("busy_timeout = %d, %v; want a timeout", timeout, err)
	}
	var applied int
	if err := s.DB().QueryRowContext(t.Context(), "SELECT COUNT(*) FROM schema_migrations").Scan(&applied); err != nil || applied != latest(t) {
		t.Errorf("schema_migrations rows = %d, %v", applied, err)
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("database mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}

func TestReopenKeepsData(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pi.sqlite")
	s := open(t, file, store.Options{})
	if _, err := s.DB().ExecContext(t.Context(), "INSERT INTO settings (key, value) VALUES ('k', 'v')"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, file, store.Options{})
	defer s.Close()
	var v string
	if err := s.DB().QueryRowContext(t.Context(), "SELECT value FROM settings WHERE key = 'k'").Scan(&v); err != nil || v != "v" {
		t.Fatalf("after reopen got %q, %v", v, err)
	}
}

func TestForeignKeysEnforced(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "pi.sqlite"), store.Options{})
	defer s.Close()
	_, err := s.DB().ExecContext(t.Context(),
		"INSERT INTO sessions (id, project_id, title, created_at, updated_at) VALUES ('s', 'missing', 't', 0, 0)")
	if err == nil {
		t.Fatal("a session bound to a missing project was accepted")
	}
}

func withExtra(extra map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	names, _ := migrations.FS.ReadDir(".")
	for _, n := range names {
		b, _ := migrations.FS.ReadFile(n.Name())
		m[n.Name()] = &fstest.MapFile{Data: b}
	}
	for name, body := range extra {
		m[name] = &fstest.MapFile{Data: []byte(body)}
	}
	return m
}

func nextName(t *testing.T, suffix string) string {
	return fmt.Sprintf("%04d_%s.sql", latest(t)+1, suffix)
}

func TestTooNewSchemaRefusedAndUntouched(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pi.sqlite")
	newer := open(t, file, store.Options{Migrations: withExtra(map[string]string{
		nextName(t, "future"): "CREATE TABLE future (x INTEGER);",
	})})
	newer.Close()
	before := readFile(t, file)

	_, err := store.Open(t.Context(), file, store.Options{})
	if !errs.Is(err, errs.SchemaTooNew) {
		t.Fatalf("Open of a newer database: %v; want SCHEMA_TOO_NEW", err)
	}
	if !bytes.Equal(before, readFile(t, file)) {
		t.Error("refusing a too-new database changed its file")
	}
}

func TestFailedMigrationLeavesFileByteIdentical(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pi.sqlite")
	s := open(t, file, store.Options{})
	if _, err := s.DB().ExecContext(t.Context(), "INSERT INTO settings (key, value) VALUES ('k', 'v')"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := readFile(t, file)

	// The bad step first changes the schema, then fails: all of it must roll back.
	_, err := store.Open(t.Context(), file, store.Options{Migrations: withExtra(map[string]string{
		nextName(t, "broken"): "CREATE TABLE half (x INTEGER); INSERT INTO no_such_table VALUES (1);",
	})})
	if !errs.Is(err, errs.MigrationFailed) {
		t.Fatalf("Open with a failing migration: %v; want MIGRATION_FAILED", err)
	}
	if !bytes.Equal(before, readFile(t, file)) {
		t.Error("a failed migration changed the database file")
	}
	s = open(t, file, store.Options{})
	defer s.Close()
	if v, _ := s.SchemaVersion(t.Context()); v != latest(t) {
		t.Errorf("schema version after failed migration = %d, want %d", v, latest(t))
	}
}

func TestCorruptFileReportedNotReplaced(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pi.sqlite")
	garbage := bytes.Repeat([]byte("this is not a database "), 400)
	if err := os.WriteFile(file, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := store.Open(t.Context(), file, store.Options{})
	if !errs.Is(err, errs.StorageCorrupt) {
		t.Fatalf("Open of a corrupt file: %v; want STORAGE_CORRUPT", err)
	}
	if !bytes.Equal(garbage, readFile(t, file)) {
		t.Error("the corrupt file was modified")
	}
}

func TestDirectoryInPlaceOfDatabase(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pi.sqlite")
	if err := os.Mkdir(file, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(t.Context(), file, store.Options{}); !errs.Is(err, errs.StorageUnavailable) {
		t.Fatalf("Open of a directory: %v; want STORAGE_UNAVAILABLE", err)
	}
}

func TestLoadMigrationsRejectsGapsAndBadNames(t *testing.T) {
	tests := map[string]fstest.MapFS{
		"gap":      {"0001_a.sql": {}, "0003_c.sql": {}},
		"bad name": {"1_a.sql": {}},
		"no name":  {"0001.sql": {}},
	}
	for name, fsys := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := store.LoadMigrations(fsys); err == nil {
				t.Error("want an error")
			}
		})
	}
}

func readFile(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOddCharactersInThePath(t *testing.T) {
	for _, name := range []string{"a#b", "a?b", "a%20b", "a b"} {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "pi.sqlite")
		s := open(t, file, store.Options{})
		s.Close()
		if _, err := os.Stat(file); err != nil {
			t.Errorf("%q: the database is not where it was asked to be: %v", name, err)
		}
	}
}
