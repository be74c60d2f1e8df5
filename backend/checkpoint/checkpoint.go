package checkpoint

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
)

// Kind says when a checkpoint was taken.
type Kind string

// The moments a checkpoint is taken.
const (
	BeforeFirstMutation Kind = "before-first-mutation" // before the first Write/Edit/Bash/writing tool of a turn
	// BeforeBash is taken before each later Bash call of a turn so that
	// what the command changed is known exactly. It is no row of its own
	// (nothing to restore to that the previous checkpoint lacks, bar the
	// user's edits): its tree goes into the call's after-bash commit.
	BeforeBash    Kind = "before-bash"
	AfterBash     Kind = "after-bash"     // after every Bash call
	EndOfTurn     Kind = "end-of-turn"    // when a turn that mutated ends
	BeforeRestore Kind = "before-restore" // what a restore replaced: restoring it undoes the restore
	AfterRestore  Kind = "after-restore"  // what a restore left: the base later conflicts are judged against
)

// Defaults of Options.
const (
	DefaultCap         = 3 * time.Second
	DefaultMaxFileSize = 5 << 20
	DefaultKeep        = 100
)

// Checkpoint is one snapshot of a session's workspace (or the record that
// one could not be taken: Captured false with Reason).
type Checkpoint struct {
	ID           string `json:"id"`
	SessionID    string `json:"sessionId"`
	TurnID       string `json:"turnId,omitempty"`
	MessageID    string `json:"messageId,omitempty"`
	ToolCallID   string `json:"toolCallId,omitempty"`
	Kind         Kind   `json:"kind"`
	Workspace    string `json:"workspace"`
	Captured     bool   `json:"captured"`
	Reason       string `json:"reason,omitempty"`
	FilesChanged int    `json:"filesChanged"`
	CreatedAt    int64  `json:"createdAt"` // Unix milliseconds

	shadow string
	tree   string
	commit string
}

// Options tune a Service; zero values take the defaults.
type Options struct {
	Cap         time.Duration // longest a snapshot may take before it is abandoned
	MaxFileSize int64         // larger files are not captured (and never restored)
	Keep        int           // checkpoints kept per session
	// Exclude is a folder never captured when it lies inside a workspace
	// (the data folder).
	Exclude string
	// Slow, when set (tests), runs first in every snapshot under its
	// deadline: a seam to make a snapshot slow.
	Slow func(ctx context.Context) error
	Log  *slog.Logger
	Now  func() time.Time
}

// Service takes, lists and restores checkpoints. It is safe for concurrent
// use: snapshots and restores of one shadow are serialized.
type Service struct {
	db   *sql.DB
	git  *worktree.Git
	dir  string
	opts Options

	mu    sync.Mutex
	locks map[string]shadowLock // per shadow

	writesMu sync.Mutex
	writes   map[writeKey]map[string]string // the agent's writes not yet kept by a checkpoint: path → "mode blob"
	befores  map[beforeKey]parentRef        // before-bash snapshots waiting for their call's after-bash
	// lastNote is closed once the latest NoteWrite has kept its write (and
	// every earlier one has: they keep theirs in call order).
	lastNote chan struct{}

	// beforeWrite, set by tests, runs in a restore once a file's folder is
	// open and checked, right before the file is written or deleted.
	beforeWrite func(path string)
}

// New returns a Service over db (migrated) keeping shadows under dir
// (<data>/checkpoints), running git through g.
func New(db *sql.DB, g *worktree.Git, dir string, opts Options) *Service {
	if opts.Cap <= 0 {
		opts.Cap = DefaultCap
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultKeep
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{db: db, git: g, dir: dir, opts: opts, locks: map[string]shadowLock{}, writes: map[writeKey]map[string]string{}, befores: map[beforeKey]parentRef{}}
}

// Point says what a checkpoint is for.
type Point struct {
	SessionID  string
	TurnID     string
	MessageID  string
	ToolCallID string
	Kind       Kind
	Workspace  string // absolute
}

func (s *Service) shadowFor(workspace string) (*shadow, shadowLock) {
	key := shadowKey(workspace)
	s.mu.Lock()
	l := s.locks[key]
	if l == nil {
		l = make(shadowLock, 1)
		s.locks[key] = l
	}
	s.mu.Unlock()
	return &shadow{git: s.git, workspace: filepath.Clean(workspace), dir: filepath.Join(s.dir, key)}, l
}

// shadowLock serialises the work on one shadow repository. It is a channel,
// not a mutex, so a snapshot can give up waiting at its cap: a long restore
// or preview must not hold up a tool call.
type shadowLock chan struct{}

// acquire waits for the lock until ctx ends or, with wait > 0, wait passes.
func (l shadowLock) acquire(ctx context.Context, wait time.Duration) bool {
	var timeout <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case l <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	case <-timeout:
		return false
	}
}

func (l shadowLock) release() { <-l }

// Take snapshots p.Workspace and records the checkpoint. It never takes
// longer than the cap (plus the database write): a slow or failed snapshot
// is recorded with Captured false and its reason, and Take still returns
// the row. err is only a failure to record it, or an invalid Point.
func (s *Service) Take(ctx context.Context, p Point) (Checkpoint, error) {
	if err := validID("session", p.SessionID); err != nil {
		return Checkpoint{}, err
	}
	if !filepath.IsAbs(p.Workspace) {
		return Checkpoint{}, errs.New(errs.InvalidArgument, "a checkpoint needs an absolute workspace, not %q", p.Workspace)
	}
	sh, lock := s.shadowFor(p.Workspace)
	if !lock.acquire(ctx, s.opts.Cap) {
		if p.Kind == BeforeBash {
			return Checkpoint{SessionID: p.SessionID, Kind: p.Kind, Workspace: sh.workspace, Reason: "not captured: the folder was busy"}, nil
		}
		// Another snapshot or a restore of this workspace is still running:
		// record this step as not captured rather than delay the tool.
		cp := Checkpoint{ID: newID(), SessionID: p.SessionID, TurnID: p.TurnID, MessageID: p.MessageID, ToolCallID: p.ToolCallID,
			Kind: p.Kind, Workspace: sh.workspace, shadow: filepath.Base(sh.dir), CreatedAt: s.opts.Now().UnixMilli(),
			Reason: "not captured: another checkpoint or a restore of this folder was still running"}
		s.opts.Log.Warn("checkpoint not captured", "session", p.SessionID, "kind", p.Kind, "workspace", sh.workspace, "reason", cp.Reason)
		if err := s.insert(context.WithoutCancel(ctx), cp); err != nil {
			return Checkpoint{}, err
		}
		return cp, nil
	}
	defer lock.release()
	return s.take(ctx, sh, p)
}

// take is Take with the shadow's lock held.
func (s *Service) take(ctx context.Context, sh *shadow, p Point) (Checkpoint, error) {
	cp := Checkpoint{ID: newID(), SessionID: p.SessionID, TurnID: p.TurnID, MessageID: p.MessageID, ToolCallID: p.ToolCallID,
		Kind: p.Kind, Workspace: sh.workspace, shadow: filepath.Base(sh.dir)}
	parent, err := s.lastCommit(ctx, p.SessionID, cp.shadow)
	if err != nil {
		return Checkpoint{}, err
	}
	var excludes []string
	if e := insideExclude(sh.workspace, s.opts.Exclude); e != "" {
		excludes = append(excludes, e)
	}
	// The agent's writes since the session's previous checkpoint go into
	// this one's commit: a restore tells them from a user's (attribution.go).
	wrote := s.pendingWrites(p.SessionID, cp.shadow)
	msg := fmt.Sprintf("%s\n\nsession %s\nturn %s\ncall %s\n", p.Kind, p.SessionID, p.TurnID, p.ToolCallID)
	bkey := beforeKey{p.SessionID, cp.shadow, p.TurnID, p.ToolCallID}
	if before, ok := s.takeBefore(bkey, p.Kind); ok {
		// The tree just before the command, kept reachable as a second
		// parent: what changed from it is the command's.
		msg += beforeLine + before.tree + "\n"
		parent.also = before.commit
	}
	msg += formatWrites(wrote)
	sh.expectSame = p.Kind == BeforeBash
	tree, commit, changed, err := sh.snapshot(ctx, s.opts.Cap, s.opts.MaxFileSize, excludes, parent, msg, s.opts.Now(), s.opts.Slow)
	if p.Kind == BeforeBash {
		return s.markBefore(bkey, cp, tree, commit, err), nil
	}
	switch {
	case errors.Is(err, errSlow):
		cp.Reason = fmt.Sprintf("not captured: the snapshot took longer than %s and was abandoned", s.opts.Cap)
	case err != nil:
		cp.Reason = "not captured: " + errs.ToPayload(err).Message
	default:
		cp.Captured, cp.tree, cp.commit, cp.FilesChanged = true, tree, commit, changed
		if err := sh.setRef(p.SessionID, commit); err != nil {
			cp.Captured, cp.Reason = false, "not captured: cannot keep the snapshot: "+err.Error()
		}
	}
	if !cp.Captured {
		s.opts.Log.Warn("checkpoint not captured", "session", p.SessionID, "kind", p.Kind, "workspace", sh.workspace, "reason", cp.Reason)
	}
	cp.CreatedAt = s.opts.Now().UnixMilli()
	if err := s.insert(context.WithoutCancel(ctx), cp); err != nil {
		return Checkpoint{}, err
	}
	if cp.Captured {
		s.keptWrites(p.SessionID, cp.shadow, wrote)
	}
	return cp, nil
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// validID accepts ids that are safe as one path component (and ref name).
func validID(what, id string) error {
	if !idPattern.MatchString(id) {
		return errs.New(errs.InvalidArgument, "%s %q is not a valid id", what, id)
	}
	return nil
}

func newID() string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	return "cp_" + hex.EncodeToString(b[:])
}
