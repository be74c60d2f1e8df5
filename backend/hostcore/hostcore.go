// Package hostcore is the composition root: it builds every backend service
// from one Config and is the facade the desktop shell, the CLI and tests use.
// The services stay private: callers go through Core's operations, which
// keep the invariants that span services.
package hostcore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/artifact"
	"github.com/pi-desktop/pi-desktop/backend/attachments"
	"github.com/pi-desktop/pi-desktop/backend/audit"
	"github.com/pi-desktop/pi-desktop/backend/bgtask"
	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
	"github.com/pi-desktop/pi-desktop/backend/cmdrule"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/fileindex"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/preview"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/providers"
	"github.com/pi-desktop/pi-desktop/backend/review"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/settings"
	"github.com/pi-desktop/pi-desktop/backend/skills"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
	"github.com/pi-desktop/pi-desktop/platform/paths"
	"github.com/pi-desktop/pi-desktop/platform/proc"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// Sink receives events for the UI. The desktop app's App (app.go) sends
// them to the window over the Wails event bus; the CLI prints them; tests
// record what was sent. Each change is emitted once, by the operation that
// made it.
type Sink interface {
	Emit(event string, payload any)
}

// NopSink drops every event (headless use).
type NopSink struct{}

func (NopSink) Emit(string, any) {}

// Config is everything New needs.
type Config struct {
	DataDir string
	Version string
	GOOS    string           // defaults to runtime.GOOS
	Now     func() time.Time // defaults to time.Now
	Sink    Sink             // defaults to NopSink
	// RgPath selects the ripgrep binary: "" looks it up on PATH, "-" forces
	// the in-process searcher.
	RgPath string
	// ExtraTools are registered beside the builtins (the seam plugin tools
	// will use; tests use it for instrumented tools).
	ExtraTools []tools.Tool
	// Delegation registers the Task tools (issue 16): the app and the CLI
	// turn it on. A host without it never offers Task (a test of one
	// runtime piece alone; the agent then lists no subagents either).
	Delegation bool
	// RunnerExe is the binary that owns command trees (proc.RunnerArg);
	// "" = this executable.
	RunnerExe string
	// Shells is where command shells are looked up (zero = this machine).
	Shells shells.Env
	// Provider returns a session's model provider (nil = the session's
	// saved provider, else the default one, else the environment's:
	// PI_DESKTOP_PROVIDER, PI_DESKTOP_MODEL, … ).
	Provider func(sessionID string) (provider.Provider, error)
	// Keychain holds API keys where it is reachable (nil = the 0600 key file
	// in DataDir only; the desktop app and `run` pass the OS keychain).
	Keychain provider.Keychain
	// KeychainProbeTimeout bounds the first keychain call (0 = the default).
	KeychainProbeTimeout time.Duration
	// Environ is the environment commands and the login-shell PATH probe
	// start from, before the environment policy filters it (nil = this
	// process's; tests craft one).
	Environ []string
	// MCP replaces the MCP side of sessions, their MCP tools and the way to
	// call them (tests); nil = the host's own servers (Settings → MCP
	// servers and the projects' files).
	MCP MCPSource
	// DeferMCP leaves the app's MCP servers stopped until something needs
	// them (the mcp CLI: adding a server starts nothing); by default they
	// connect in the background as the host starts.
	DeferMCP bool
	// DeferPathProbe leaves the login-shell PATH probe to WarmPathProbe or
	// to the first command that needs the PATH; by default it starts with
	// the host. The desktop app defers it: the probe runs the user's shell
	// startup files (pyenv, nvm, …), whose processes would otherwise take
	// the CPU from the window's first paint.
	DeferPathProbe bool
	// OpenBrowser opens a URL in the system browser (an MCP server's
	// sign-in); nil where there is none (the CLI).
	OpenBrowser func(url string) error
	// Home is the user's home folder, where ~/.agents/subagents is read
	// ("" = the process's).
	Home string
	// Checkpoints tunes workspace checkpoints (zero = the defaults: a 3 s
	// cap, 5 MB files, 100 per session); the data folder is always
	// excluded. Tests shorten the cap or slow a snapshot down.
	Checkpoints checkpoint.Options
	// PreviewGuard says whether the window may show preview pages: nil when
	// there is no window (the CLI: BrowserPreview fails), else an error
	// while the frame guard that keeps subframes off the app's bridge is
	// not in place (the desktop app passes its FrameGuard's Check).
	PreviewGuard func() error
	// PreviewWait bounds BrowserPreview's wait for the page's report (0 =
	// 5 s).
	PreviewWait time.Duration
}

// Core is the running backend.
type Core struct {
	cfg       Config
	layout    paths.Layout
	store     *store.Store
	log       *slog.Logger
	logFile   io.Closer
	sink      Sink
	sessions  *session.Service
	settings  *settings.Service
	agent     *agent.Agent
	providers *providers.Service // the saved model providers and each session's choice
	subagents subagentCache      // the delegate runtime's definitions, by project
	// skillCache keeps each project's skills while their files are unchanged.
	skillCache *skills.Cache

	// life gates Execute against Close: no call starts after Close begins,
	// and Close waits for the ones in flight so none runs unrecorded.
	life struct {
		sync.Mutex
		closing bool
		calls   sync.WaitGroup
	}
	registry  *tools.Registry
	keys      *provider.Keys
	mcp       *mcpHost
	plugins   *pluginHost
	worktrees *worktree.Manager
	tasks     *bgtask.Registry
	spare     *proc.Spare // a Bash runner started ahead of the next command
	probe     *shells.PathProbe
	spillSeq  atomic.Int64
	edits     editStates
	review    *review.Store
	artifacts *artifact.Store // the workspace files each session wrote (Files pane)
	// checkpoints snapshots workspaces around a turn's writes (issue 20);
	// cpTurns remembers which turns took their first one.
	checkpoints *checkpoint.Service
	cpTurns     turnMarks
	// attachments holds tool results' images (and later the user's), by
	// their sha256.
	attachments *attachments.Store
	// imageSlots lets at most maxImagePreparations images be decoded at once.
	imageSlots chan struct{}
	// startupSwept is closed when the startup sweep of attachments ends.
	startupSwept chan struct{}
	broker       *permission.Broker
	audit        *audit.Writer
	cancels      *cancels
	admission    *admission
	cfgCache     *configCache
	roots        pathguard.RootCache
	// mcpSchemas compiles each MCP tool's input schema once; mcpEntries
	// keeps the pipeline tool made of each MCP tool definition.
	mcpSchemas schemaCache
	mcpEntries entryCache

	// delegateWorktrees: the running delegates rooted in a worktree of their own.
	delegateWorktrees delegateWorktrees

	// rules are the command rules Bash calls are decided with (issue 19).
	rules *cmdrule.Store

	// fileIndexes are the workspaces' file lists behind @-suggestions, one
	// per workspace, shared by its sessions (issue 24).
	fileIndexes *fileindex.Pool
	// previews serves BrowserPreview's pages; panes are the sessions' open
	// previews (issue 23).
	previews *preview.Server
	panes    previewPanes
}

// newCore is New before its errors are put in the user's terms. What it
// opened is closed again when it fails.
func newCore(ctx context.Context, cfg Config) (_ *Core, err error) {
	if cfg.GOOS == "" {
		cfg.GOOS = runtime.GOOS
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sink == nil {
		cfg.Sink = NopSink{}
	}
	layout := paths.Layout{Root: cfg.DataDir}
	if err := layout.Prepare(); err != nil {
		return nil, err
	}
	logFile, err := os.OpenFile(filepath.Join(layout.Logs(), "pi-desktop.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, &paths.DirError{Dir: layout.Logs(), Err: err}
	}
	defer func() {
		if err != nil {
			_ = logFile.Close()
		}
	}()
	log := slog.New(slog.NewJSONHandler(logFile, &slog.HandlerOptions{Level: slog.LevelInfo}))
	st, err := store.Open(ctx, layout.Database(), store.Options{})
	if err != nil {
		log.Error("open database", "err", err)
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = st.Close()
		}
	}()
	if cfg.Shells.GOOS == "" {
		cfg.Shells = shells.HostEnv()
	}
	c := &Core{cfg: cfg, layout: layout, store: st, log: log, logFile: logFile, sink: cfg.Sink, skillCache: skills.NewCache()}
	c.fileIndexes = fileindex.NewPool(fileindex.Options{})
	c.previews = preview.New(preview.Options{DataDir: cfg.DataDir})
	c.tasks = bgtask.NewRegistry(bgtask.Options{PerSession: maxSessionTasks, Global: maxHostTasks, Now: cfg.Now, Emit: c.emit})
	c.probe = newPathProbe(cfg, c.hostEnviron())
	c.spare = proc.NewSpare(cfg.RunnerExe)
	if c.registry, err = tools.NewRegistry(append(tools.Builtins(tools.Options{RgPath: cfg.RgPath, Bash: tools.BashDeps{
		Shells: cfg.Shells, PathProbe: c.probe, Tasks: c.tasks, RunnerExe: cfg.RunnerExe, Spare: c.spare, Now: cfg.Now,
	}}), append(runtimeTools(cfg.Delegation), append(append([]tools.Tool{tools.NewSkillTool(c.SessionSkills), tools.NewBrowserPreviewTool(previewHost{c})},
		c.pluginAuthoringTools()...), cfg.ExtraTools...)...)...)...); err != nil {
		return nil, err
	}
	c.sessions = session.New(st.DB(), layout, cfg.Now)
	c.settings = settings.New(st.DB(), cfg.GOOS)
	c.settings.Available = func(id string) bool {
		_, err := shells.Resolve(id, cfg.Shells)
		return err == nil
	}
	if c.cfgCache, err = newConfigCache(ctx, st.DB(), layout.Database()); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			c.cfgCache.close()
			_ = st.Close() // before the -shm file's descriptor (closed again below: a no-op)
			c.cfgCache.closeFiles()
		}
	}()
	c.review = review.New(st.DB(), layout.Reviews(), cfg.Now)
	c.artifacts = artifact.New(st.DB(), cfg.Now)
	if c.checkpoints, err = newCheckpoints(cfg, st.DB(), log); err != nil {
		return nil, fmt.Errorf("prepare checkpoints: %w", err)
	}
	c.attachments = attachments.New(layout.Attachments())
	c.imageSlots = make(chan struct{}, maxImagePreparations)
	c.cancels = newCancels()
	c.admission = newAdmission(maxInFlight, maxSessionInFlight, maxMutationSlots)
	if c.worktrees, err = newWorktrees(cfg.DataDir); err != nil {
		return nil, fmt.Errorf("prepare worktrees: %w", err)
	}
	c.keys = provider.NewKeys(cfg.DataDir, cfg.Keychain, cfg.KeychainProbeTimeout)
	c.providers = providers.New(st.DB(), c.keys, cfg.Now)
	c.mcp = newMCPHost(c)
	c.plugins = newPluginHost(c)
	if c.cfg.MCP == nil {
		c.cfg.MCP = c.mcp
	}
	if err := c.providers.UpgradeLegacy(ctx); err != nil {
		// The old model stays saved for the next start; nothing is lost.
		log.Warn("upgrade the saved model to a provider", "code", errs.CodeOf(err), "err", err)
	}
	c.agent = agent.New(st.DB(), agentHost{c}, c.providerFor, c.emit, cfg.Now)
	if n, err := c.agent.MarkInterrupted(ctx); err != nil {
		log.Warn("mark interrupted turns", "err", err)
	} else if n > 0 {
		log.Info("turns interrupted by the last exit", "count", n)
	}
	c.broker = permission.NewBroker(c.emit, cfg.Now)
	c.rules = cmdrule.NewStore(st.DB(), cfg.Now)
	c.audit = audit.NewWriter(st.DB(), func(err error) { log.Error("audit write", "err", err) })
	report, err := c.sessions.Sweep(ctx)
	if err != nil {
		// A failed sweep costs disk space, not correctness: log and go on.
		log.Warn("startup sweep", "err", err)
	}
	for _, p := range report.Removed {
		log.Info("swept", "path", p)
	}
	for _, e := range report.Errors {
		log.Warn("sweep", "err", e)
	}
	if r, err := c.checkpoints.Sweep(ctx); err != nil {
		log.Warn("checkpoint sweep", "err", err)
	} else if r != (checkpoint.SweepReport{}) {
		log.Info("checkpoints swept", "rows", r.Rows, "refs", r.Refs, "shadows", r.Shadows)
	}
	log.Info("started", "version", cfg.Version, "dataDir", cfg.DataDir)
	if !cfg.DeferPathProbe {
		c.probe.Start() // warm the login-PATH probe now, not in the first command
	}
	// Images whose sessions are gone leave in the background; Close waits
	// for the sweep, which never outlives the database.
	c.startupSwept = make(chan struct{})
	if c.enter() {
		go func() {
			defer c.life.calls.Done()
			defer close(c.startupSwept)
			c.sweepAttachments(context.WithoutCancel(ctx))
		}()
	}
	// The app's MCP servers connect in the background: nothing waits for
	// them (a keychain read or a slow server must not hold the window).
	// Close waits for it like for a call: a read still open on the
	// database when the store closes would keep the last connection, and
	// with it the WAL, alive after Close returned.
	if !cfg.DeferMCP && c.enter() {
		go func() {
			defer c.life.calls.Done()
			if err := c.mcp.syncApp(context.WithoutCancel(ctx)); err != nil {
				log.Warn("start MCP servers", "code", errs.CodeOf(err))
			}
		}()
	}
	return c, nil
}

// Background task limits (spec §5): per session, and a host-wide ceiling.
const (
	maxSessionTasks = 10
	maxHostTasks    = 64
)

// shutdownGrace bounds how long Close waits for started calls to return.
const shutdownGrace = 10 * time.Second

// enter admits a call unless Close has begun; the caller must call
// c.life.calls.Done when entered is true.
func (c *Core) enter() bool {
	c.life.Lock()
	defer c.life.Unlock()
	if c.life.closing {
		return false
	}
	c.life.calls.Add(1)
	return true
}

// Close denies pending approvals, flushes the audit log and releases the
// database and the log.
func (c *Core) Close() error {
	c.life.Lock()
	c.life.closing = true
	c.life.Unlock()
	c.probe.Close() // a command waiting for it gets the host PATH at once
	c.fileIndexes.Close()
	c.agent.Shutdown() // turns end first: one waiting on a question must not hold shutdown
	c.cancels.stopAll()
	c.broker.Close()
	c.tasks.Shutdown()
	idle, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	if err := c.tasks.WaitIdle(idle); err != nil {
		c.log.Warn("background tasks still stopping at shutdown", "err", err)
	}
	cancel()
	drained := make(chan struct{})
	grace, cancelGrace := context.WithTimeout(context.Background(), shutdownGrace)
	go func() {
		// Delegates were cancelled by Shutdown; they record how they ended
		// before the database closes.
		if err := c.agent.Drain(grace); err != nil {
			c.log.Warn("delegates still ending at shutdown", "grace", shutdownGrace)
		}
		c.life.calls.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-grace.Done():
		c.log.Warn("tool calls still running at shutdown", "grace", shutdownGrace)
	}
	cancelGrace()
	c.spare.Close()
	c.mcp.close() // every server's process tree ends with the app
	c.closePreviews()
	c.plugins.rt.Close()
	c.audit.Close()
	c.log.Info("stopped")
	c.cfgCache.close()
	err := c.store.Close()
	c.cfgCache.closeFiles() // only now: see walIndex
	if cerr := c.logFile.Close(); err == nil {
		err = cerr
	}
	return err
}

// emit forwards an event to the UI; only the operation that made a change
// announces it, so nothing outside hostcore emits.
func (c *Core) emit(event string, payload any) { c.sink.Emit(event, payload) }

// Log returns the structured logger writing to the data directory.
func (c *Core) Log() *slog.Logger { return c.log }

// Info describes the running application.
func (c *Core) Info() api.AppInfo {
	info := api.AppInfo{Version: c.cfg.Version, Platform: c.cfg.GOOS, DataDir: c.cfg.DataDir, CommandShells: []api.ShellOption{}}
	for _, e := range shells.Available(c.cfg.Shells) {
		info.CommandShells = append(info.CommandShells, api.ShellOption{ID: e.ID, Label: e.Label})
	}
	return info
}

// DeleteSession deletes a session, cancelling its in-flight calls and
// pending approvals and forgetting its grants, and announces it
// (sessions:changed).
func (c *Core) DeleteSession(ctx context.Context, id string) error {
	gone, err := c.sessions.Get(ctx, id)
	if err != nil {
		return err
	}
	if err := c.retireSession(ctx, id); err != nil {
		return err
	}
	// The project's session list changed: say which one.
	c.emit(api.EventSessionsChanged, api.SessionsChanged{SessionID: id, ProjectID: gone.ProjectID})
	c.sweepAttachments(ctx) // the session's images, unless another refers to them
	return nil
}

// retireSession stops everything a session runs and deletes it with its
// worktree, folders and review records. It announces nothing: DeleteSession
// and RemoveProject each say what changed.
func (c *Core) retireSession(ctx context.Context, id string) error {
	// Stop first, so nothing is still writing into the folders removed next.
	// Tasks are signalled, not waited for (spec §5).
	c.agent.Stop(id)
	c.cancels.stopSession(id)
	c.forgetPreview(id)
	c.broker.DropSession(id)
	c.tasks.StopSession(id)
	c.fileIndexes.Release(id) // the last session on a workspace stops its watches
	if s, err := c.sessions.Bind(ctx, id); err == nil && s.Session.Isolated {
		// The worktree and its branch go with the session; a link planted
		// in its place is removed as a link only.
		if err := c.worktrees.Remove(ctx, s.Project, id); err != nil {
			c.log.Warn("remove worktree", "session", id, "err", err)
		}
	}
	err := c.sessions.Delete(ctx, id)
	var left *session.FilesLeftError
	if errors.As(err, &left) {
		c.log.Warn("session folders left for the startup sweep", "session", id, "err", err)
		err = nil
	}
	if err != nil {
		return err
	}
	c.edits.drop(id)
	c.agent.ForgetSession(id)
	if err := c.review.DeleteSession(ctx, id); err != nil {
		// The folder is swept at the next start; the rows stay as history.
		c.log.Warn("delete review records", "session", id, "err", err)
	}
	if err := c.artifacts.DeleteSession(ctx, id); err != nil {
		c.log.Warn("delete artifacts", "session", id, "err", err)
	}
	c.cpTurns.end(id, "")
	if err := c.checkpoints.DeleteSession(ctx, id); err != nil {
		// Its shadow refs go at the next start-up sweep.
		c.log.Warn("delete checkpoints", "session", id, "err", err)
	}
	return nil
}

// StopSession is the Stop button: it stops the session's agent turn and
// cancels every in-flight call (pending approvals end as cancelled, queued
// calls never start). It returns how many calls were cancelled.
func (c *Core) StopSession(sessionID string) int {
	c.agent.Stop(sessionID)
	return c.cancels.stopSession(sessionID)
}

// Abort cancels one call; an abort that arrives before its call keeps the
// call from starting.
func (c *Core) Abort(sessionID, toolCallID, tool string) bool {
	return c.cancels.abort(sessionID, toolCallID, tool)
}

// ResolveApproval answers a pending approval card.
func (c *Core) ResolveApproval(sessionID, requestID string, outcome permission.Outcome) error {
	return c.broker.Resolve(sessionID, requestID, outcome)
}

// PendingApprovals lists a session's open approval cards.
func (c *Core) PendingApprovals(sessionID string) []permission.Request {
	return c.broker.Pending(sessionID)
}

// AuditRows returns a session's audit rows, oldest first, after flushing.
func (c *Core) AuditRows(ctx context.Context, sessionID string) ([]audit.Row, error) {
	c.audit.Flush()
	return audit.List(ctx, c.store.DB(), sessionID)
}

// Tasks lists a session's background tasks.
func (c *Core) Tasks(sessionID string) []bgtask.Task { return c.tasks.List(sessionID) }

// TaskOutput returns a bounded preview of a task's output (8,000 stdout and
// 4,000 stderr characters, from the end), redacted for display (spec §8).
func (c *Core) TaskOutput(sessionID, taskID string) (bgtask.TaskOutput, error) {
	return redactTaskOutput(c.tasks.Output(sessionID, taskID, 0, 0))
}

// StopTask stops a background task (retriable).
func (c *Core) StopTask(sessionID, taskID string) error { return c.tasks.Stop(sessionID, taskID) }

// RemoveTask removes a finished task from its session's list.
func (c *Core) RemoveTask(sessionID, taskID string) error { return c.tasks.Remove(sessionID, taskID) }
