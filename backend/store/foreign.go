package store

import (
	"context"
	"database/sql"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// querier is what checkVersion reads through: the pool, or the migration's
// transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// versionQuery reads the schema version and what the schema holds in one
// statement, hence one snapshot: read apart, another process's first
// migration could land between them and look like someone else's tables.
const versionQuery = `SELECT v.user_version,
	(SELECT COUNT(*) FROM sqlite_schema WHERE name <> 'schema_migrations'),
	(SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations')
	FROM pragma_user_version AS v`

// checkOurs returns the schema version, refusing a database that holds
// another program's schema: at version 0 it must be empty, and past it it
// must carry our migrations table. Migrating into someone else's file would
// mix our tables with theirs and switch it to WAL behind their back.
func (s *Store) checkOurs(ctx context.Context, q querier) (int, error) {
	var version, objects, ours int
	if err := q.QueryRowContext(ctx, versionQuery).Scan(&version, &objects, &ours); err != nil {
		return 0, classify(err, s.path)
	}
	if (version == 0 && objects == 0) || (version > 0 && ours == 1) {
		return version, nil
	}
	return 0, errs.New(errs.StorageForeign,
		"the database %s holds another program's tables, not PI-Desktop's; it was left untouched. Move it away if it is not needed there, or start with another --data-dir", s.path).
		With("path", s.path)
}
