package audit

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "pi.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func synchronous(t *testing.T, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}) int {
	t.Helper()
	var n int
	if err := q.QueryRowContext(t.Context(), "PRAGMA synchronous").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The writer's own connection commits without an fsync (NORMAL = 1); the
// pool's connections, which every other write uses, keep FULL (2).
func TestWriterRelaxesSyncOnItsOwnConnectionOnly(t *testing.T) {
	st := openStore(t)
	w := NewWriter(st.DB(), func(err error) { t.Error(err) })
	defer w.Close()
	w.Record(Row{TraceID: "a", SessionID: "s", Tool: "Read", Decision: "allow", OK: true})
	w.Flush()
	w.connMu.Lock()
	conn := w.conn
	w.connMu.Unlock()
	if conn == nil {
		t.Fatal("the writer holds no connection after a write")
	}
	if got := synchronous(t, conn); got != 1 {
		t.Errorf("writer's connection: synchronous = %d, want 1 (NORMAL)", got)
	}
	if got := synchronous(t, st.DB()); got != 2 {
		t.Errorf("pool connection: synchronous = %d, want 2 (FULL)", got)
	}
}

// A failed batch drops the connection and its statement; the next batch
// opens a fresh one and is written. Close gives the connection back.
func TestWriterRecoversFromAFailedWriteAndReleasesOnClose(t *testing.T) {
	st := openStore(t)
	var mu sync.Mutex
	var failures []error
	w := NewWriter(st.DB(), func(err error) { mu.Lock(); failures = append(failures, err); mu.Unlock() })
	w.Record(Row{TraceID: "before", SessionID: "s", Tool: "Read", Decision: "allow"})
	w.Flush()
	exec := func(q string) {
		if _, err := st.DB().ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	exec("ALTER TABLE audit RENAME TO audit_away")
	w.Record(Row{TraceID: "lost", SessionID: "s", Tool: "Read", Decision: "allow"})
	w.Flush()
	exec("ALTER TABLE audit_away RENAME TO audit")
	w.Record(Row{TraceID: "after", SessionID: "s", Tool: "Read", Decision: "allow"})
	w.Flush()
	mu.Lock()
	if len(failures) != 1 {
		t.Errorf("failures = %v, want the one write into the missing table", failures)
	}
	mu.Unlock()
	rows, err := List(t.Context(), st.DB(), "s")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.TraceID)
	}
	if len(ids) != 2 || ids[0] != "before" || ids[1] != "after" {
		t.Errorf("rows = %v, want [before after]", ids)
	}
	w.Close()
	w.Record(Row{TraceID: "closed", SessionID: "s", Tool: "Read", Decision: "allow"})
	if n := st.DB().Stats().InUse; n != 0 {
		t.Errorf("%d connections still in use after Close and a late Record", n)
	}
	if rows, _ := List(t.Context(), st.DB(), "s"); len(rows) != 3 {
		t.Errorf("%d rows after a Record past Close, want 3", len(rows))
	}
	// The writer's NORMAL connections never rejoined the pool.
	var held []*sql.Conn
	for st.DB().Stats().Idle > 0 {
		conn, err := st.DB().Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, conn)
		if got := synchronous(t, conn); got != 2 {
			t.Errorf("a pool connection after the writer's failure and Close: synchronous = %d, want 2 (FULL)", got)
		}
	}
	for _, c := range held {
		_ = c.Close()
	}
}

// Rows recorded in a row share one commit after at most the linger; Flush
// and Close never wait for it.
func TestWriterLingersButFlushAndCloseDoNot(t *testing.T) {
	t.Run("written after the linger", func(t *testing.T) {
		st := openStore(t)
		w := newWriter(st.DB(), func(err error) { t.Error(err) }, 20*time.Millisecond)
		defer w.Close()
		for i := range 5 {
			w.Record(Row{TraceID: fmt.Sprint(i), SessionID: "s", Tool: "Read", Decision: "allow"})
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			rows, err := List(t.Context(), st.DB(), "s")
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) == 5 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d of 5 rows written without a Flush", len(rows))
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	for _, end := range []string{"Flush", "Close"} {
		t.Run(end+" does not wait", func(t *testing.T) {
			st := openStore(t)
			w := newWriter(st.DB(), func(err error) { t.Error(err) }, time.Hour)
			defer w.Close()
			w.Record(Row{TraceID: "a", SessionID: "s", Tool: "Read", Decision: "allow"})
			done := make(chan struct{})
			go func() {
				if end == "Flush" {
					w.Flush()
				} else {
					w.Close()
				}
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("%s waited for the linger", end)
			}
			if rows, err := List(t.Context(), st.DB(), "s"); err != nil || len(rows) != 1 {
				t.Errorf("after %s: %d rows, %v", end, len(rows), err)
			}
		})
	}
}
