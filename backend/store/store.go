// Package store opens PI-Desktop's SQLite database and keeps its schema
// current with the numbered migrations embedded from migrations/.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/migrations"
)

// Store is an open database whose schema is current.
type Store struct {
	db   *sql.DB
	path string
}

// Options tune Open; the zero value is what the app uses.
type Options struct {
	// Migrations replaces the embedded migrations (tests).
	Migrations fs.FS
}

// Migration is one numbered schema step.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Open opens (creating if needed) the database at file and applies every
// pending migration, each in its own transaction. It refuses a database whose
// schema is newer than this build and never replaces an unreadable file.
func Open(ctx context.Context, file string, opts Options) (*Store, error) {
	src := opts.Migrations
	if src == nil {
		src = migrations.FS
	}
	steps, err := LoadMigrations(src)
	if err != nil {
		return nil, err
	}
	if err := prepareFile(file); err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	// A URI with the path escaped: a '#' or '?' in a folder name must not
	// cut the path short (SQLite decodes the escapes).
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(file), RawQuery: q.Encode()}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path // Windows: file:///C:/…
	}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "cannot open the database %s", file)
	}
	s := &Store{db: db, path: file}
	if err := s.migrate(ctx, steps); err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

func prepareFile(file string) error {
	fi, err := os.Stat(file)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return errs.New(errs.StorageUnavailable, "the database path %s is not a regular file; move it away or choose another data directory with --data-dir", file)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return errs.Wrap(err, errs.StorageUnavailable, "cannot read the database %s; check its permissions", file)
	}
	// Create it private to the user before SQLite does with its umask default.
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		// Another process starting at the same moment made it first.
		if fi, err := os.Stat(file); err == nil && fi.Mode().IsRegular() {
			return nil
		}
	}
	if err != nil {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot create the database %s; check that the data directory is writable", file)
	}
	return f.Close()
}

func (s *Store) migrate(ctx context.Context, steps []Migration) error {
	latest := 0
	if len(steps) > 0 {
		latest = steps[len(steps)-1].Version
	}
	// A first look without a lock decides whether to write at all, so a
	// refused database is never touched.
	var current int
	err := retryBusy(ctx, func() (err error) {
		current, err = s.checkVersion(ctx, s.db, latest)
		return err
	})
	if err != nil || current == latest {
		return err
	}
	// WAL is a property of the file: set it only when about to write anyway.
	err = retryBusy(ctx, func() error {
		_, err := s.db.ExecContext(ctx, "PRAGMA journal_mode=WAL")
		return err
	})
	if err != nil {
		return classify(err, s.path)
	}
	for _, m := range steps {
		if m.Version <= current {
			continue
		}
		if err := retryBusy(ctx, func() error { return s.apply(ctx, m, latest) }); err != nil {
			return err
		}
	}
	return nil
}

// checkVersion reads the schema version through q and refuses a database
// that is newer than this build or not PI-Desktop's.
func (s *Store) checkVersion(ctx context.Context, q querier, latest int) (int, error) {
	current, err := s.checkOurs(ctx, q)
	if err != nil {
		return 0, err
	}
	if current > latest {
		return 0, errs.New(errs.SchemaTooNew,
			"the database %s has schema version %d but this PI-Desktop understands up to %d; install the newer PI-Desktop that wrote it, or start with another --data-dir",
			s.path, current, latest).With("schemaVersion", current).With("supportedVersion", latest)
	}
	return current, nil
}

func (s *Store) apply(ctx context.Context, m Migration, latest int) error {
	err := s.Tx(ctx, func(tx *sql.Tx) error {
		// The transaction begins IMMEDIATE (_txlock), so this read is under
		// the write lock: another process that started at the same moment
		// and applied the step already is seen here, and the step skipped.
		current, err := s.checkVersion(ctx, tx, latest)
		if err != nil || current >= m.Version {
			return err
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
			m.Version, m.Name, time.Now().UnixMilli()); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.Version))
		return err
	})
	if err != nil {
		if e := errs.As(err); e != nil {
			return e
		}
		return errs.Wrap(err, errs.MigrationFailed,
			"migration %04d_%s failed and was rolled back; the database is unchanged. Report this with the log in the data directory",
			m.Version, m.Name).With("version", m.Version)
	}
	return nil
}

// SchemaVersion reports the schema version recorded in the database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, classify(err, s.path)
	}
	return v, nil
}

// classify maps a SQLite failure at open to a stable code.
func classify(err error, file string) error {
	if IsDamaged(err) {
		return Damaged(err, file)
	}
	return errs.Wrap(err, errs.StorageUnavailable, "cannot read the database %s; check its permissions and free disk space", file)
}

// Damaged reports err, a SQLite "corrupt" or "not a database" failure on
// file, with where the file is and how to recover from it.
func Damaged(err error, file string) error {
	return errs.Wrap(err, errs.StorageCorrupt,
		"the database %s is damaged (SQLite: %s); it was left untouched. To start fresh, quit PI-Desktop and move it aside, e.g. mv '%s' '%s.damaged' (with its -wal and -shm files if present): PI-Desktop then creates a new, empty database there. Or restore it from a backup",
		file, sqliteMessage(err), file, file).With("path", file)
}

// IsDamaged reports whether err is SQLite saying a database file is
// corrupt or not a database at all.
func IsDamaged(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	c := se.Code() & 0xff
	return c == sqlite3.SQLITE_NOTADB || c == sqlite3.SQLITE_CORRUPT
}

func sqliteMessage(err error) string {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Error()
	}
	return err.Error()
}

// DB returns the connection pool for domain packages' queries.
func (s *Store) DB() *sql.DB { return s.db }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Tx runs fn in a transaction that commits when fn returns nil.
func (s *Store) Tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// LoadMigrations reads NNNN_name.sql files from src. Versions must run 1, 2,
// 3… without gaps, so a missing or duplicated file is caught at build time by
// the tests rather than on a user's machine.
func LoadMigrations(src fs.FS) ([]Migration, error) {
	names, err := fs.Glob(src, "*.sql")
	if err != nil {
		return nil, err
	}
	var out []Migration
	for _, name := range names {
		num, rest, ok := strings.Cut(strings.TrimSuffix(name, ".sql"), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 || len(num) != 4 {
			return nil, fmt.Errorf("migration %s: want NNNN_name.sql", name)
		}
		body, err := fs.ReadFile(src, name)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: path.Base(rest), SQL: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration versions must be 1..%d without gaps; found %04d at position %d", len(out), m.Version, i+1)
		}
	}
	return out, nil
}
