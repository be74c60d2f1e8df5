package hostcore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"sync"
)

const configGenQuery = "SELECT n FROM config_generation WHERE id = 1"

// genReader reads the config generation, once per tool call, as cheaply as
// SQLite allows while still seeing another process's commit: on a
// connection of its own, through a statement the driver prepared once on
// it. Through the pool it cost twice as much (issue #15: ~50 µs against
// ~27 µs, a fifth of the host's share of an MCP call): database/sql picks
// a connection per query and prepares the statement again on one it has
// not seen, and wraps rows and values. What is left is SQLite's own read
// transaction, whose WAL locks are system calls.
//
// The read is not cancellable: a one-row read of a WAL database never
// waits on a writer, and a cancellable context makes the driver start a
// watcher goroutine and a progress handler per query.
//
// Most reads need no query at all: the WAL index header in the -shm file
// changes with every commit of any process, so while it is the same as just
// before the last query, nothing can have changed the generation since and
// the value read then is still current. Reading the header is two loads
// from a mapping, against SQLite's read transaction, whose WAL locks are
// system calls: on a busy two-core machine those were a third of the
// host's share of an MCP call (issue #15). Any commit (an audit batch
// too) makes the next read query again.
type genReader struct {
	db   *sql.DB
	path string // the database file; "" = query on every read

	mu     sync.Mutex // one query at a time; guards the fields below
	conn   *sql.Conn  // nil after a failure: the next read opens another
	stmt   driver.Stmt
	dest   []driver.Value
	closed bool

	wal    *walIndex // mapped after the first query; nil = none
	mapped bool      // the mapping was tried (once: a failure is for good)
	last   int64     // the generation the last query read
	mark   walMark   // the WAL index header just before that query
	marked bool      // last and mark are usable: no failure since
	// queries counts the queries run (the tests check which reads were
	// served from the mark).
	queries int
}

func (g *genReader) read() (int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return 0, errors.New("the host is closed")
	}
	if g.marked {
		if m, ok := g.wal.header(); ok && m == g.mark {
			return g.last, nil // nothing committed since the last query
		}
	}
	if g.conn == nil {
		if err := g.open(context.Background()); err != nil {
			return 0, err
		}
	}
	// The mark is taken before the query: a commit in between is either
	// seen by the query or makes the next read query again.
	mark, ok := g.wal.header()
	n, err := g.query()
	if err != nil {
		g.release() // a connection that failed is not trusted again
		return n, err
	}
	if !g.mapped && g.path != "" {
		// Now that the connection has the database open in WAL mode, its
		// -shm file exists and stays while the connection does.
		g.mapped, g.wal = true, openWALIndex(g.path)
	}
	g.last, g.mark, g.marked = n, mark, ok
	return n, nil
}

// query runs the statement on the driver's connection. The statement was
// prepared on that very connection, which the held sql.Conn keeps; Raw
// holds it for the call.
func (g *genReader) query() (n int64, err error) {
	g.queries++
	err = g.conn.Raw(func(any) error {
		rows, err := g.stmt.(driver.StmtQueryContext).QueryContext(context.Background(), nil)
		if err != nil {
			return err
		}
		// Close resets the statement, which ends the read transaction.
		defer func() { err = errors.Join(err, rows.Close()) }()
		if err := rows.Next(g.dest); err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("the config generation row is missing")
			}
			return err
		}
		v, ok := g.dest[0].(int64)
		if !ok {
			return fmt.Errorf("the config generation is a %T, not an integer", g.dest[0])
		}
		n = v
		return nil
	})
	return n, err
}

// open takes a connection from the pool for good and prepares the query on
// it. Called with mu held, or before the reader is shared.
func (g *genReader) open(ctx context.Context) error {
	conn, err := g.db.Conn(ctx)
	if err != nil {
		return err
	}
	var stmt driver.Stmt
	err = conn.Raw(func(dc any) error {
		p, ok := dc.(driver.ConnPrepareContext)
		if !ok {
			return fmt.Errorf("the SQLite driver's connection %T cannot prepare a statement", dc)
		}
		if stmt, err = p.PrepareContext(ctx, configGenQuery); err != nil {
			return err
		}
		if _, ok := stmt.(driver.StmtQueryContext); !ok {
			_ = stmt.Close()
			return fmt.Errorf("the SQLite driver's statement %T cannot query", stmt)
		}
		return nil
	})
	if err != nil {
		_ = conn.Close()
		return err
	}
	g.conn, g.stmt, g.dest = conn, stmt, make([]driver.Value, 1)
	return nil
}

// release finalises the statement and gives the connection back. Called
// with mu held.
func (g *genReader) release() {
	// The mapping is only safe to read while this reader's connection
	// keeps the -shm file as it is; after a failure it is not trusted
	// again, and every read queries.
	g.marked = false
	g.wal.unmap()
	if g.conn == nil {
		return
	}
	_ = g.conn.Raw(func(any) error { return g.stmt.Close() })
	_ = g.conn.Close()
	g.conn, g.stmt = nil, nil
}

func (g *genReader) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	g.release()
}

// closeFiles closes the -shm file, once the database is closed (see
// walIndex: closing it earlier would drop SQLite's locks on it).
func (g *genReader) closeFiles() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.wal.closeFile()
	g.wal = nil
}
