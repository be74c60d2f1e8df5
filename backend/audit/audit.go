// Package audit records one append-only row per tool call. Rows are queued
// and written in batches off the hot path; Close flushes everything queued,
// so a clean shutdown loses nothing. A committed row survives a crash of
// the app; see Writer for what a power loss can take.
package audit

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync"
	"time"
)

// Row is one tool call's record (spec §9).
type Row struct {
	// ID is the row's place in the table, set when read back (the paging
	// cursor of Query); Record ignores it.
	ID         int64  `json:"id"`
	TraceID    string `json:"traceId"`
	SessionID  string `json:"sessionId"`
	TurnID     string `json:"turnId"`
	ToolCallID string `json:"toolCallId"`
	Tool       string `json:"tool"`
	Delegate   string `json:"delegate,omitempty"`
	// MCPServer is the server an MCP tool call went to ("" for other tools).
	MCPServer        string `json:"mcpServer,omitempty"`
	ArgsHash         string `json:"argsHash"`
	ArgsPreview      string `json:"argsPreview"`
	PathRoot         string `json:"pathRoot"`
	ExternalPath     bool   `json:"externalPath"`
	PermissionMode   string `json:"permissionMode"`
	OperatingMode    string `json:"operatingMode"`
	Decision         string `json:"decision"`
	Prompted         bool   `json:"prompted"`
	PermissionWaitMs int64  `json:"permissionWaitMs"`
	DurationMs       int64  `json:"durationMs"`
	OverheadMs       int64  `json:"overheadMs"`
	TotalMs          int64  `json:"totalMs"`
	OK               bool   `json:"ok"`
	ErrorCode        string `json:"errorCode"`
	CreatedAt        int64  `json:"createdAt"`
	// CommandRules is, for a command (Bash), the command rules' record as
	// JSON: the classifier's decision, the rules that matched, whether they
	// spared the card, and the rule an "Always allow" answer saved.
	CommandRules string `json:"commandRules,omitempty"`

	// PreviewOf and HashOf, when set, are the bytes the writer derives an
	// empty ArgsPreview and ArgsHash from, off the call's path (a preview
	// decodes and redacts the arguments). The caller must not change them
	// after Record.
	PreviewOf []byte `json:"-"`
	HashOf    []byte `json:"-"`
}

// derived fills the preview and hash a row left to the writer.
func (r Row) derived() Row {
	if r.ArgsPreview == "" && r.PreviewOf != nil {
		r.ArgsPreview = Preview(r.PreviewOf)
	}
	if r.ArgsHash == "" && r.HashOf != nil {
		r.ArgsHash = Hash(r.HashOf)
	}
	r.PreviewOf, r.HashOf = nil, nil
	return r
}

// item is a row to write, or a flush marker whose ack closes once every
// row queued before it is written.
type item struct {
	row Row
	ack chan struct{}
}

const (
	queueSize = 1024
	batchSize = 128
	// Linger is how long the writer holds a row for the rows of the next
	// calls to share its commit. A row is already not written when its call
	// returns; this adds at most Linger to that, and Flush and Close never
	// wait for it.
	Linger = 5 * time.Millisecond
)

// Writer batches rows into the audit table, on a connection of its own
// with synchronous=NORMAL (the rest of the database keeps SQLite's FULL).
// Why: a row is queued, not written, when its call returns, so a crash of
// the app can already lose the rows still queued; what FULL adds beyond
// NORMAL in WAL mode is that a commit also survives a power loss, and it
// pays for it with an fsync per batch — measured here 1.5 ms of I/O and
// about 0.3 ms of CPU per single-row batch, against 0.15 ms in all
// without it, which on a busy two-core machine was a visible share of an
// MCP call (issue #15). With NORMAL every committed row survives the app
// crashing or being killed; a power loss can take back the rows committed
// since the last checkpoint, and never leaves the database inconsistent.
type Writer struct {
	db      *sql.DB
	onError func(error)
	queue   chan item
	done    chan struct{}
	once    sync.Once
	mu      sync.RWMutex // guards closed against sends racing Close
	closed  bool
	linger  time.Duration
	kick    chan struct{} // wakes the writer from its linger

	// connMu serialises inserts (the loop, and Record writing synchronously
	// when the queue is full) on conn, which is opened on the first write,
	// replaced after a failed one, and given back by Close.
	connMu   sync.Mutex
	conn     *sql.Conn
	stmt     *sql.Stmt // prepared once: parsing the insert cost as much as running it
	released bool      // Close gave conn back: later writes use one of their own
}

// NewWriter starts the background writer. onError receives write failures
// (the log); it may be nil.
func NewWriter(db *sql.DB, onError func(error)) *Writer {
	return newWriter(db, onError, Linger)
}

func newWriter(db *sql.DB, onError func(error), linger time.Duration) *Writer {
	if onError == nil {
		onError = func(error) {}
	}
	w := &Writer{db: db, onError: onError, queue: make(chan item, queueSize), done: make(chan struct{}), kick: make(chan struct{}, 1), linger: linger}
	go w.loop()
	return w
}

// Record queues a row. When the queue is full it writes synchronously
// rather than drop a record; after Close it writes synchronously too.
func (w *Writer) Record(r Row) {
	w.mu.RLock()
	if !w.closed {
		select {
		case w.queue <- item{row: r}:
			w.mu.RUnlock()
			return
		default:
		}
	}
	w.mu.RUnlock()
	if err := w.insert([]Row{r}); err != nil {
		w.onError(err)
	}
}

func (w *Writer) loop() {
	defer close(w.done)
	batch := make([]Row, 0, batchSize)
	var acks []chan struct{}
	add := func(it item) {
		if it.ack != nil {
			acks = append(acks, it.ack)
		} else {
			batch = append(batch, it.row)
		}
	}
	// take adds what is queued now, up to a batch, without waiting.
	take := func() {
		for len(batch) < batchSize {
			select {
			case more, ok := <-w.queue:
				if !ok {
					return
				}
				add(more)
			default:
				return
			}
		}
	}
	linger := time.NewTimer(time.Hour)
	linger.Stop()
	for it := range w.queue {
		batch, acks = batch[:0], acks[:0]
		add(it)
		take()
		// Hold the batch open for the next calls' rows, unless someone waits
		// on a Flush or Close: one commit then covers the calls in a row (a
		// single-row commit costs ten rows' worth of CPU). The rows queue
		// meanwhile without waking the writer: only the timer or a kick does.
		if len(batch) < batchSize && len(acks) == 0 && w.linger > 0 {
			linger.Reset(w.linger)
			select {
			case <-linger.C:
			case <-w.kick:
			}
			linger.Stop() // no stale tick survives Stop (Go 1.23 timers)
			take()
		}
		if len(batch) > 0 {
			if err := w.insert(batch); err != nil {
				w.onError(err)
			}
		}
		for _, a := range acks {
			close(a)
		}
	}
}

// wake cuts a linger short (Flush, Close). A kick left over from a Flush
// that found the writer busy only makes a later batch smaller.
func (w *Writer) wake() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

const insertSQL = `INSERT INTO audit (trace_id, session_id, turn_id, tool_call_id, tool, delegate, mcp_server,
		args_hash, args_preview, path_root, external_path, permission_mode, operating_mode, decision, prompted,
		permission_wait_ms, duration_ms, overhead_ms, total_ms, ok, error_code, created_at, command_rules)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// insert writes rows in one transaction.
func (w *Writer) insert(rows []Row) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w.connMu.Lock()
	defer w.connMu.Unlock()
	if w.conn == nil {
		if err := w.open(ctx); err != nil {
			return err
		}
	}
	err := w.write(ctx, rows)
	if err != nil || w.released {
		w.release() // a failed connection is not reused; after Close none is kept
	}
	return err
}

// open takes a connection from the pool for the writer and prepares the
// insert on it. Called with connMu held.
func (w *Writer) open(ctx context.Context) error {
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return err
	}
	// Per connection: see Writer for why this one, and only this one.
	if _, err := conn.ExecContext(ctx, "PRAGMA synchronous = NORMAL"); err != nil {
		discard(conn)
		return err
	}
	// Prepared on the pool, not on conn: a transaction reuses a pool
	// statement's preparation on its connection, but prepares a
	// connection's own statement again every time.
	stmt, err := w.db.PrepareContext(ctx, insertSQL)
	if err != nil {
		discard(conn)
		return err
	}
	w.conn, w.stmt = conn, stmt
	return nil
}

// release closes the statement and the connection. Called with connMu
// held.
func (w *Writer) release() {
	if w.conn == nil {
		return
	}
	_ = w.stmt.Close()
	discard(w.conn)
	w.conn, w.stmt = nil, nil
}

// discard closes conn for good instead of giving it back to the pool: it
// may carry synchronous=NORMAL, which no other write may inherit.
func discard(conn *sql.Conn) {
	_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	_ = conn.Close()
}

func (w *Writer) write(ctx context.Context, rows []Row) error {
	tx, err := w.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	stmt := tx.StmtContext(ctx, w.stmt)
	// Rows are inserted without a cancellable context: the driver would
	// start a watcher goroutine per row, and busy_timeout already bounds
	// the only wait an insert has (another process's write lock).
	rowCtx := context.WithoutCancel(ctx)
	for _, r := range rows {
		r = r.derived()
		if _, err := stmt.ExecContext(rowCtx, r.TraceID, r.SessionID, r.TurnID, r.ToolCallID, r.Tool, r.Delegate, r.MCPServer,
			r.ArgsHash, r.ArgsPreview, r.PathRoot, r.ExternalPath, r.PermissionMode, r.OperatingMode, r.Decision, r.Prompted,
			r.PermissionWaitMs, r.DurationMs, r.OverheadMs, r.TotalMs, r.OK, r.ErrorCode, r.CreatedAt, r.CommandRules); err != nil {
			_ = tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// Close flushes queued rows and stops the writer.
func (w *Writer) Close() {
	w.once.Do(func() {
		w.mu.Lock()
		w.closed = true
		close(w.queue)
		w.mu.Unlock()
		w.wake()
		<-w.done
		w.connMu.Lock()
		w.released = true
		w.release()
		w.connMu.Unlock()
	})
}

// Flush waits until every row queued before the call is written.
func (w *Writer) Flush() {
	ack := make(chan struct{})
	w.mu.RLock()
	if w.closed {
		w.mu.RUnlock()
		return
	}
	w.queue <- item{ack: ack}
	w.mu.RUnlock()
	w.wake()
	<-ack
}

// List returns a session's rows, oldest first (tests; the UI pages with Query).
func List(ctx context.Context, db *sql.DB, sessionID string) ([]Row, error) {
	return scanRows(db.QueryContext(ctx, `SELECT `+rowColumns+` FROM audit WHERE session_id = ? ORDER BY id`, sessionID))
}

const rowColumns = `id, trace_id, session_id, turn_id, tool_call_id, tool, delegate, mcp_server, args_hash,
	args_preview, path_root, external_path, permission_mode, operating_mode, decision, prompted, permission_wait_ms,
	duration_ms, overhead_ms, total_ms, ok, error_code, created_at, command_rules`

func scanRows(rows *sql.Rows, err error) ([]Row, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Row
	for rows.Next() {
		var r Row
		if err := rows.Scan(&r.ID, &r.TraceID, &r.SessionID, &r.TurnID, &r.ToolCallID, &r.Tool, &r.Delegate, &r.MCPServer, &r.ArgsHash,
			&r.ArgsPreview, &r.PathRoot, &r.ExternalPath, &r.PermissionMode, &r.OperatingMode, &r.Decision, &r.Prompted,
			&r.PermissionWaitMs, &r.DurationMs, &r.OverheadMs, &r.TotalMs, &r.OK, &r.ErrorCode, &r.CreatedAt, &r.CommandRules); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
