package hostcore

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/audit"
	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
)

// Checkpoints (issue 20): the host takes a snapshot of the session's
// workspace before the first call of a turn that may write (Write, Edit,
// Bash, an MCP or plugin tool, a delegate's writing call), after every Bash
// call, and when a turn that wrote ends. Each is capped (3 s by default)
// and a failure is recorded as "not captured", never a failure of the call.

func newCheckpoints(cfg Config, db *sql.DB, log *slog.Logger) (*checkpoint.Service, error) {
	dataDir := cfg.DataDir
	git, err := worktree.NewGit(filepath.Join(dataDir, "git", "empty-hooks"))
	if err != nil {
		return nil, err
	}
	opts := cfg.Checkpoints
	if abs, err := filepath.Abs(dataDir); err == nil {
		opts.Exclude = abs
	}
	opts.Log, opts.Now = log, cfg.Now
	return checkpoint.New(db, git, filepath.Join(dataDir, "checkpoints"), opts), nil
}

// turnMarks remembers, per session and turn, the workspaces a turn took
// its before-first-mutation checkpoint of, until the turn ends.
type turnMarks struct {
	mu    sync.Mutex
	marks map[turnKey]map[string]bool // workspace set
}

type turnKey struct{ session, turn string }

// first marks workspace for the turn and reports whether it was new.
func (m *turnMarks) first(session, turn, workspace string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.marks == nil {
		m.marks = map[turnKey]map[string]bool{}
	}
	k := turnKey{session, turn}
	if m.marks[k][workspace] {
		return false
	}
	if m.marks[k] == nil {
		m.marks[k] = map[string]bool{}
	}
	m.marks[k][workspace] = true
	return true
}

// end forgets the session's turns (turn "" = all of them) and returns
// what each had marked.
func (m *turnMarks) end(session, turn string) map[turnKey][]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[turnKey][]string{}
	for k, set := range m.marks {
		if k.session != session || (turn != "" && k.turn != turn) {
			continue
		}
		for ws := range set {
			out[k] = append(out[k], ws)
		}
		delete(m.marks, k)
	}
	return out
}

// mayWrite reports whether a call of spec can change files: the ones the
// host knows mutate, commands, and tools whose effects it cannot see (an
// MCP server's, a plugin's).
func mayWrite(spec tools.Spec) bool {
	switch spec.Class {
	case permission.ClassExec, permission.ClassMCP, permission.ClassPlugin:
		return true
	}
	return spec.Mutates
}

// checkpointBefore takes the turn's before-first-mutation checkpoint when
// this call is its first that may write in this workspace, and a
// before-bash snapshot before each later command: what a command changed
// is then known exactly, and a user's edit made between two calls stays a
// conflict at restore (checkpoint/attribution.go).
func (c *Core) checkpointBefore(ctx context.Context, req ToolRequest, spec tools.Spec, b session.Binding) {
	if !mayWrite(spec) || b.Temporary || b.Workspace == "" || req.TurnID == "" {
		return
	}
	kind := checkpoint.BeforeFirstMutation
	if !c.cpTurns.first(req.SessionID, req.TurnID, b.Workspace) {
		if spec.Class != permission.ClassExec {
			return
		}
		kind = checkpoint.BeforeBash
	}
	c.takeCheckpoint(ctx, checkpoint.Point{SessionID: req.SessionID, TurnID: req.TurnID, MessageID: req.MessageID,
		ToolCallID: req.ToolCallID, Kind: kind, Workspace: b.Workspace})
}

// checkpointAfter notes what the agent's Write or Edit wrote (so a restore
// does not take it for the user's), and takes the after-bash checkpoint of
// a command.
func (c *Core) checkpointAfter(ctx context.Context, req ToolRequest, spec tools.Spec, b session.Binding, call *tools.Call, res tools.Result) {
	if b.Temporary || b.Workspace == "" {
		return
	}
	if spec.Mutates && spec.Class != permission.ClassExec && res.OK && call.Target != nil && call.Target.Root == pathguard.Workspace {
		c.checkpoints.NoteWrite(req.SessionID, b.Workspace, call.Target.Abs, call.Outcome.Landed)
		return
	}
	if spec.Class != permission.ClassExec {
		return
	}
	// A Stop must not lose the record of what the command did: the cap
	// still bounds it.
	c.takeCheckpoint(context.WithoutCancel(ctx), checkpoint.Point{SessionID: req.SessionID, TurnID: req.TurnID, MessageID: req.MessageID,
		ToolCallID: req.ToolCallID, Kind: checkpoint.AfterBash, Workspace: b.Workspace})
}

func (c *Core) takeCheckpoint(ctx context.Context, p checkpoint.Point) {
	if _, err := c.checkpoints.Take(ctx, p); err != nil {
		c.log.Warn("checkpoint not recorded", "session", p.SessionID, "kind", p.Kind, "code", errs.CodeOf(err), "err", err)
	}
}

// EndTurn takes the end-of-turn checkpoint of every workspace the turn
// (turn "" = every turn of the session) wrote in. The agent's turns call it
// when they end; `pi-desktop tool` calls it when its script ends.
func (c *Core) EndTurn(ctx context.Context, sessionID, turnID string) {
	for k, workspaces := range c.cpTurns.end(sessionID, turnID) {
		for _, ws := range workspaces {
			c.takeCheckpoint(context.WithoutCancel(ctx), checkpoint.Point{SessionID: k.session, TurnID: k.turn,
				Kind: checkpoint.EndOfTurn, Workspace: ws})
		}
	}
}

// Checkpoints lists a session's checkpoints, newest first.
func (c *Core) Checkpoints(ctx context.Context, sessionID string) ([]checkpoint.Checkpoint, error) {
	if _, err := c.sessions.Get(ctx, sessionID); err != nil {
		return nil, err
	}
	return c.checkpoints.List(ctx, sessionID)
}

// PreviewRestore says what restoring a checkpoint would change: every file
// with its diff, and the conflicts (files changed after the session's
// latest checkpoint, by someone other than the agent).
func (c *Core) PreviewRestore(ctx context.Context, sessionID, checkpointID string) (checkpoint.Plan, error) {
	if _, err := c.sessions.Get(ctx, sessionID); err != nil {
		return checkpoint.Plan{}, err
	}
	return c.checkpoints.Preview(ctx, sessionID, checkpointID)
}

// RestoreCheckpoint brings the session's workspace back to a checkpoint,
// keeping each conflict unless overwrite covers it. It runs as a mutation of the session
// (after its in-flight writes, before the next), takes a checkpoint first
// (Result.Before: restoring it undoes this) and leaves an audit row.
func (c *Core) RestoreCheckpoint(ctx context.Context, sessionID, checkpointID string, overwrite checkpoint.Overwrite) (checkpoint.Result, error) {
	start := time.Now()
	preview := "checkpointId=" + clip(checkpointID)
	if o := overwrite.String(); o != "" {
		preview += " " + clip(o)
	}
	row := audit.Row{TraceID: newTraceID(), SessionID: sessionID, Tool: "RestoreCheckpoint", ArgsHash: audit.Hash([]byte(preview)),
		ArgsPreview: preview, Decision: "user", PathRoot: "workspace", CreatedAt: c.cfg.Now().UnixMilli()}
	res, err := c.restoreCheckpoint(ctx, sessionID, checkpointID, overwrite)
	row.OK, row.ErrorCode = err == nil, string(errs.CodeOf(err))
	row.TotalMs = time.Since(start).Milliseconds()
	row.DurationMs = row.TotalMs
	c.audit.Record(row)
	return res, err
}

func (c *Core) restoreCheckpoint(ctx context.Context, sessionID, checkpointID string, overwrite checkpoint.Overwrite) (checkpoint.Result, error) {
	if !c.enter() {
		return checkpoint.Result{}, errs.New(errs.ToolAborted, "PI-Desktop is shutting down; nothing was restored")
	}
	defer c.life.calls.Done()
	if _, err := c.sessions.Get(ctx, sessionID); err != nil {
		return checkpoint.Result{}, err
	}
	done, err := c.admission.admit(ctx, sessionID, nil, true)
	if err != nil {
		return checkpoint.Result{}, err
	}
	defer done()
	res, err := c.checkpoints.Restore(ctx, sessionID, checkpointID, overwrite)
	if err == nil {
		c.afterRestore(context.WithoutCancel(ctx), sessionID, res)
	}
	return res, err
}

// afterRestore follows the files a restore rewrote, as a rollback does: the
// session's Edit versions of them are stale and its Files list shows their
// new hashes (or drops what the restore deleted).
func (c *Core) afterRestore(ctx context.Context, sessionID string, res checkpoint.Result) {
	if len(res.Restored) == 0 {
		return
	}
	binding, _, err := c.bind(ctx, sessionID)
	if err != nil || filepath.Clean(binding.Workspace) != res.Checkpoint.Workspace {
		return // the session now works elsewhere: its paths would mean other files
	}
	settings, err := c.settings.Get(ctx)
	if err != nil {
		return
	}
	resolver, err := c.resolverFor(ctx, binding, settings.InlineVisualizations)
	if err != nil {
		return
	}
	for _, f := range res.Restored {
		c.forgetEdits(sessionID, resolver, f.Path)
		c.artifactRestored(ctx, sessionID, resolver, f.Path)
	}
}
