package review

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// Operations, statuses and states of a Change (spec §4c).
const (
	OpWrite  = "write"
	OpEdit   = "edit"
	OpDelete = "delete"

	StatusAdded    = "added"
	StatusModified = "modified"
	StatusDeleted  = "deleted"

	StateActive     = "active"
	StateRolledBack = "rolledBack"
)

// Version is the ReviewChange record version.
const Version = 1

// Change is the ReviewChange record of spec §4c, plus the ids that tie it to
// its session, tool call and MV pair.
type Change struct {
	Version    int    `json:"version"`
	SnapshotID string `json:"snapshotId"`
	MessageID  string `json:"messageId"`
	// Path is workspace-relative with '/' separators, as tools display it.
	Path       string `json:"path"`
	Operation  string `json:"operation"`
	Status     string `json:"status"`
	State      string `json:"state"`
	Additions  int    `json:"additions"`
	Deletions  int    `json:"deletions"`
	Hunks      []Hunk `json:"hunks"`
	Binary     bool   `json:"binary,omitempty"`
	Truncated  bool   `json:"truncated,omitempty"`
	Reversible bool   `json:"reversible"`

	SessionID  string `json:"sessionId"`
	ToolCallID string `json:"toolCallId"`
	// GroupID is shared by the two entries of an MV ("" otherwise).
	GroupID   string `json:"groupId,omitempty"`
	CreatedAt int64  `json:"createdAt"` // Unix milliseconds
	// AfterSHA256 is the hex SHA-256 of the bytes the tool left ("" for a
	// deletion): the host's artifact list keeps it. Not part of the record.
	AfterSHA256 string `json:"-"`
}

// Store records review changes in the database and keeps their snapshots
// under reviewsDir. It is safe for concurrent use.
type Store struct {
	db         *sql.DB
	reviewsDir string
	now        func() time.Time
	mu         sync.Mutex // serializes rollbacks, so one change is never rolled back twice

	// afterApply, when set by a test, runs after step i of a rollback was
	// applied, before the next one.
	afterApply func(i int)
}

// New returns a Store over db (migrated by backend/store) that keeps
// snapshots under reviewsDir (<data>/reviews). now may be nil (time.Now).
func New(db *sql.DB, reviewsDir string, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{db: db, reviewsDir: reviewsDir, now: now}
}

// Capture holds the state of one target before a mutation.
type Capture struct {
	s                                *Store
	sessionID, messageID, toolCallID string
	target                           pathguard.Resolved
	before                           side
	mode                             fs.FileMode
	beforeSum                        string // hex SHA-256 of before.data when the caller knew it
	early                            *earlySnapshot
	// r and info, when set, are the resolver the previous bytes were read
	// through and what the file was then: StartSnapshot may keep that very
	// file as the snapshot (a hard link) instead of writing a copy.
	r    *pathguard.Resolver
	info fs.FileInfo
}

// earlySnapshot is the previous bytes' snapshot file being written while
// the change itself is (see StartSnapshot).
type earlySnapshot struct {
	id   string
	done chan struct{}
	err  error // set before done is closed
}

// StartSnapshot starts writing the snapshot of the previous bytes now, in
// the background, so that its write and sync overlap the caller's own
// write of the file (an Edit of a 6.6 MB file spent 5 ms on each, one after
// the other). The record still waits for it: Finish uses this snapshot, and
// a caller whose change does not happen calls Abandon. A capture with no
// previous bytes to keep starts nothing.
//
// Where it can (Linux, one file system, a file with one name that nothing
// rewrote since it was read) the snapshot is the previous file itself, given
// a second name in the reviews folder: the caller's rename then replaces
// only the workspace's name of it, and no byte is copied or synced (an Edit
// of a 6.6 MB file wrote and synced 6.6 MB for its snapshot). Its content is
// checked against the record's SHA-256 before any rollback, as a copy's is.
func (c *Capture) StartSnapshot() {
	if c == nil || c.early != nil || !c.before.present || c.before.big {
		return
	}
	e := &earlySnapshot{id: uuid.Must(uuid.NewV7()).String(), done: make(chan struct{})}
	c.early = e
	if c.r != nil && c.info != nil && c.s.linkSnapshot(c.sessionID, e.id, c.r, c.target, c.info) == nil {
		close(e.done)
		return
	}
	go func() {
		defer close(e.done)
		e.err = c.s.writeSnapshot(c.sessionID, e.id, c.before.data)
	}()
}

// Abandon removes the snapshot StartSnapshot wrote for a change that did
// not happen. A capture without one, or a nil capture, does nothing.
func (c *Capture) Abandon() {
	if c == nil || c.early == nil {
		return
	}
	<-c.early.done
	if c.early.err == nil {
		c.s.removeSnapshot(c.sessionID, c.early.id)
	}
	c.early = nil
}

// Capture reads the previous bytes (or absence) of target before a
// workspace mutation runs. A target outside the workspace root gets no
// record: Capture returns (nil, nil). The read goes through r, so it is
// re-resolved and confined to the workspace.
func (s *Store) Capture(sessionID, messageID, toolCallID string, target pathguard.Resolved, r *pathguard.Resolver) (*Capture, error) {
	if target.Root != pathguard.Workspace {
		return nil, nil
	}
	if err := validID("session id", sessionID); err != nil {
		return nil, err
	}
	if messageID == "" {
		return nil, errs.New(errs.InvalidArgument, "a review record needs the id of the message that made the change").With("field", "messageId")
	}
	c := &Capture{s: s, sessionID: sessionID, messageID: messageID, toolCallID: toolCallID, target: target}
	f, err := r.OpenFile(target, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, errs.Wrap(err, errs.ToolFailed, "cannot inspect %s before changing it; retry", target.Rel)
	}
	if !fi.Mode().IsRegular() {
		return nil, errs.New(errs.InvalidArgument, "%s is a folder or special file, not a regular file; pass the path of a file", target.Rel).With("field", "path")
	}
	data, big, err := readBounded(f, MaxSnapshotBytes)
	if err != nil {
		return nil, errs.Wrap(err, errs.ToolFailed, "cannot read %s before changing it; retry", target.Rel)
	}
	c.before = side{present: true, data: data, big: big}
	c.mode = fi.Mode().Perm()
	c.r, c.info = r, fi
	return c, nil
}

// CaptureBytes is Capture for a caller that has just read target's bytes
// and checked them (Edit compares the file with the bytes it validated
// right before writing): data are taken as the previous bytes instead of
// reading a large file once more. dataSum is their hex SHA-256 when the
// caller already has it, "" to compute it.
func (s *Store) CaptureBytes(sessionID, messageID, toolCallID string, target pathguard.Resolved, r *pathguard.Resolver, data []byte, dataSum string) (*Capture, error) {
	if target.Root != pathguard.Workspace {
		return nil, nil
	}
	if err := validID("session id", sessionID); err != nil {
		return nil, err
	}
	if messageID == "" {
		return nil, errs.New(errs.InvalidArgument, "a review record needs the id of the message that made the change").With("field", "messageId")
	}
	fi, err := r.Stat(target)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errs.New(errs.InvalidArgument, "%s is a folder or special file, not a regular file; pass the path of a file", target.Rel).With("field", "path")
	}
	c := &Capture{s: s, sessionID: sessionID, messageID: messageID, toolCallID: toolCallID, target: target, mode: fi.Mode().Perm()}
	if int64(len(data)) > MaxSnapshotBytes {
		c.before = side{present: true, big: true}
		return c, nil
	}
	c.before = side{present: true, data: data}
	c.beforeSum = dataSum
	c.r, c.info = r, fi
	return c, nil
}

// Finish records the change after the mutation succeeded. op is OpWrite,
// OpEdit or OpDelete; after is the bytes that landed, nil for a deletion.
// A nil Capture (a non-workspace target) records nothing and returns the
// zero Change.
func (c *Capture) Finish(ctx context.Context, op string, after []byte) (Change, error) {
	return c.FinishSum(ctx, op, after, "")
}

// FinishSum is Finish for a caller that knows the hex SHA-256 of after
// ("" to compute it).
func (c *Capture) FinishSum(ctx context.Context, op string, after []byte, afterSum string) (Change, error) {
	if c == nil {
		return Change{}, nil
	}
	if op != OpWrite && op != OpEdit && op != OpDelete {
		return Change{}, errs.New(errs.InvalidArgument, "review operation %q is not write, edit or delete", op)
	}
	if (op == OpDelete) != (after == nil) {
		return Change{}, errs.New(errs.InvalidArgument, "a %s review record needs after bytes exactly when the file still exists", op)
	}
	p, err := c.prepare(op, after, afterSum, "")
	if err != nil {
		c.Abandon()
		return Change{}, err
	}
	if err := c.s.insert(ctx, []*pending{p}); err != nil {
		return Change{}, err
	}
	return p.change, nil
}

// MoveCapture holds both ends of an MV before it runs.
type MoveCapture struct {
	from, to *Capture
}

// CaptureMove captures an MV: the source (to be deleted) and the
// destination (to be created). Only workspace ends get records: with
// neither in the workspace it returns (nil, nil); with one, only that end
// is recorded.
func (s *Store) CaptureMove(sessionID, messageID, toolCallID string, from, to pathguard.Resolved, r *pathguard.Resolver) (*MoveCapture, error) {
	if from.Root == pathguard.Workspace && to.Root == pathguard.Workspace && from.Abs == to.Abs {
		return nil, errs.New(errs.InvalidArgument, "an MV source and destination must differ; name another destination").With("field", "path")
	}
	fc, err := s.Capture(sessionID, messageID, toolCallID, from, r)
	if err != nil {
		return nil, err
	}
	tc, err := s.Capture(sessionID, messageID, toolCallID, to, r)
	if err != nil {
		return nil, err
	}
	if fc == nil && tc == nil {
		return nil, nil
	}
	return &MoveCapture{from: fc, to: tc}, nil
}

// Finish records the MV after it succeeded: fromAfter is what is left at
// the source (nil: it was removed) and toAfter the bytes at the destination.
// Both entries share a group id and are inserted together; a nil
// MoveCapture records nothing.
func (m *MoveCapture) Finish(ctx context.Context, fromAfter, toAfter []byte) ([]Change, error) {
	if m == nil {
		return nil, nil
	}
	if toAfter == nil {
		return nil, errs.New(errs.InvalidArgument, "an MV review record needs the bytes at its destination")
	}
	group := ""
	if m.from != nil && m.to != nil {
		group = uuid.Must(uuid.NewV7()).String()
	}
	var ps []*pending
	var s *Store
	// The source side is a deletion (when the move took it away), the
	// destination a creation by the edit.
	fromOp := OpEdit
	if fromAfter == nil {
		fromOp = OpDelete
	}
	for _, e := range []struct {
		c     *Capture
		op    string
		after []byte
	}{{m.from, fromOp, fromAfter}, {m.to, OpEdit, toAfter}} {
		if e.c == nil {
			continue
		}
		s = e.c.s
		p, err := e.c.prepare(e.op, e.after, "", group)
		if err != nil {
			for _, q := range ps {
				s.removeSnapshot(q.change.SessionID, q.change.SnapshotID)
			}
			return nil, err
		}
		ps = append(ps, p)
	}
	if err := s.insert(ctx, ps); err != nil {
		return nil, err
	}
	out := make([]Change, len(ps))
	for i, p := range ps {
		out[i] = p.change
	}
	return out, nil
}

// pending is a record whose snapshot is written but whose row is not.
type pending struct {
	change    Change
	abs       string
	before    side
	mode      fs.FileMode
	beforeSum string
	after     side
	afterSum  string
}

// prepare builds the record and writes its snapshot file. afterSum is the
// hex SHA-256 of after when known, "" to compute it.
func (c *Capture) prepare(op string, after []byte, afterSum, group string) (*pending, error) {
	a := side{present: after != nil, data: after}
	status := StatusModified
	switch {
	case !c.before.present && !a.present:
		return nil, errs.New(errs.InvalidArgument, "%s did not exist before and does not exist after; nothing to record", c.target.Rel)
	case !c.before.present:
		status = StatusAdded
	case !a.present:
		status = StatusDeleted
	}
	ev := describe(c.before, a)
	ch := Change{
		Version:    Version,
		SnapshotID: uuid.Must(uuid.NewV7()).String(),
		MessageID:  c.messageID,
		Path:       c.target.Rel,
		Operation:  op,
		Status:     status,
		State:      StateActive,
		Additions:  ev.additions,
		Deletions:  ev.deletions,
		Hunks:      ev.hunks,
		Binary:     ev.binary,
		Truncated:  ev.truncated,
		// Both sides must be within bounds: the previous bytes to be kept,
		// the current ones so a rollback's guard and undo stay bounded.
		Reversible: !c.before.big && len(after) <= MaxSnapshotBytes,
		SessionID:  c.sessionID,
		ToolCallID: c.toolCallID,
		GroupID:    group,
		CreatedAt:  c.s.now().UnixMilli(),
	}
	p := &pending{change: ch, abs: c.target.Abs, before: c.before, mode: c.mode, after: a}
	if a.present {
		p.afterSum = afterSum
		if p.afterSum == "" {
			p.afterSum = sum(after)
		}
		p.change.AfterSHA256 = p.afterSum
	}
	if ch.Reversible && c.before.present {
		p.beforeSum = c.beforeSum
		if p.beforeSum == "" {
			p.beforeSum = sum(c.before.data)
		}
		if e := c.early; e != nil {
			<-e.done
			if e.err != nil {
				return nil, e.err
			}
			p.change.SnapshotID = e.id
		} else if err := c.s.writeSnapshot(ch.SessionID, ch.SnapshotID, c.before.data); err != nil {
			return nil, err
		}
	} else {
		c.Abandon() // the change cannot be rolled back: its snapshot is not kept
	}
	return p, nil
}

// insert persists the records of one tool call in one transaction. On
// failure their snapshot files are removed.
func (s *Store) insert(ctx context.Context, ps []*pending) (err error) {
	defer func() {
		if err != nil {
			for _, p := range ps {
				s.removeSnapshot(p.change.SessionID, p.change.SnapshotID)
			}
		}
	}()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(err)
	}
	defer tx.Rollback()
	for _, p := range ps {
		rec, err := json.Marshal(p.change)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO review_changes
			(snapshot_id, session_id, message_id, tool_call_id, group_id, path, abs_path, state, record,
			 before_present, before_mode, before_sha256, after_present, after_sha256, after_size, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			p.change.SnapshotID, p.change.SessionID, p.change.MessageID, p.change.ToolCallID, p.change.GroupID,
			p.change.Path, p.abs, p.change.State, string(rec),
			p.before.present, int64(p.mode), p.beforeSum, p.after.present, p.afterSum, len(p.after.data),
			p.change.CreatedAt)
		if err != nil {
			return storageErr(err)
		}
	}
	return storageErr(tx.Commit())
}

// List returns the review changes of a session, oldest first; a non-empty
// messageID restricts them to that message.
func (s *Store) List(ctx context.Context, sessionID, messageID string) ([]Change, error) {
	q := `SELECT ` + rowColumns + ` FROM review_changes WHERE session_id = ?`
	args := []any{sessionID}
	if messageID != "" {
		q += ` AND message_id = ?`
		args = append(args, messageID)
	}
	recs, err := s.query(ctx, q+` ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	out := make([]Change, len(recs))
	for i, r := range recs {
		out[i] = r.change
	}
	return out, nil
}

// DeleteSession removes a session's records and its snapshot folder
// <reviewsDir>/<sessionId>. The folder is removed without following links:
// a link in its place is removed as a link.
func (s *Store) DeleteSession(ctx context.Context, sessionID string) error {
	if err := validID("session id", sessionID); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.removeSessionDir(sessionID); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `DELETE FROM review_changes WHERE session_id = ?`, sessionID)
	return storageErr(err)
}

// record is a stored row.
type record struct {
	change        Change
	abs           string
	beforePresent bool
	beforeMode    fs.FileMode
	beforeSum     string
	afterPresent  bool
	afterSum      string
	afterSize     int64
}

const rowColumns = `record, state, abs_path, before_present, before_mode, before_sha256, after_present, after_sha256, after_size`

func (s *Store) query(ctx context.Context, q string, args ...any) ([]record, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, storageErr(err)
	}
	defer rows.Close()
	var out []record
	for rows.Next() {
		var r record
		var raw, state string
		var mode int64
		if err := rows.Scan(&raw, &state, &r.abs, &r.beforePresent, &mode, &r.beforeSum, &r.afterPresent, &r.afterSum, &r.afterSize); err != nil {
			return nil, storageErr(err)
		}
		if err := json.Unmarshal([]byte(raw), &r.change); err != nil {
			return nil, errs.Wrap(err, errs.StorageCorrupt, "a review record in the database is damaged; delete the session's review history to clear it")
		}
		if r.change.Hunks == nil {
			r.change.Hunks = []Hunk{}
		}
		r.change.State = state // the column is authoritative; the JSON is the record as first shown
		r.change.AfterSHA256 = r.afterSum
		r.beforeMode = fs.FileMode(mode).Perm()
		out = append(out, r)
	}
	return out, storageErr(rows.Err())
}

// Helpers.

// readBounded reads f up to limit bytes. big reports that f held more; the
// data is then dropped. The buffer is sized from Stat, so a multi-megabyte
// file is read in one pass rather than by io.ReadAll's regrowing.
func readBounded(f *os.File, limit int64) (data []byte, big bool, err error) {
	size := int64(0)
	if fi, serr := f.Stat(); serr == nil && fi.Mode().IsRegular() {
		size = min(fi.Size(), limit)
	}
	var buf bytes.Buffer
	buf.Grow(int(size) + bytes.MinRead)
	_, err = buf.ReadFrom(io.LimitReader(f, limit+1))
	data = buf.Bytes()
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > limit {
		return nil, true, nil
	}
	return data, false, nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// validID accepts ids that are safe as one path component.
func validID(what, id string) error {
	if !idPattern.MatchString(id) {
		return errs.New(errs.InvalidArgument, "%s %q is not a valid id", what, id)
	}
	return nil
}

func storageErr(err error) error {
	if err == nil {
		return nil
	}
	if e := errs.As(err); e != nil {
		return e
	}
	return errs.Wrap(err, errs.StorageUnavailable, "cannot read or write review records in the database; check free disk space and retry")
}
