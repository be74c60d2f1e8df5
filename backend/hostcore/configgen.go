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
type genReader struct {
	db *sql.DB

	mu     sync.Mutex // one query at a time; guards the fields below
	conn   *sql.Conn  // nil after a failure: the next read opens another
	stmt   driver.Stmt
	dest   []driver.Value
	closed bool
}

func (g *genReader) read() (int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return 0, errors.New("the host is closed")
	}
	if g.conn == nil {
		if err := g.open(context.Background()); err != nil {
			return 0, err
		}
	}
	n, err := g.query()
	if err != nil {
		g.release() // a connection that failed is not trusted again
	}
	return n, err
}

// query runs the statement on the driver's connection. The statement was
// prepared on that very connection, which the held sql.Conn keeps; Raw
// holds it for the call.
func (g *genReader) query() (n int64, err error) {
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
