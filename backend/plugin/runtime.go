package plugin

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Timeouts of a plugin's process (issue 22).
const (
	LoadTimeout = 15 * time.Second  // start and MCP handshake
	ToolTimeout = 110 * time.Second // one tool call
	// exitGrace is how long a failed call waits to see whether the process
	// died, which tells a crash from an error the process answered with.
	exitGrace = 500 * time.Millisecond
	logSize   = 64 << 10
	tailLines = 5
)

// RuntimeOptions configure a Runtime.
type RuntimeOptions struct {
	// Environ is the environment a plugin's process starts with: the Bash
	// tool's policy, never a provider's key.
	Environ func(ctx context.Context) ([]string, error)
	// RunnerExe is the binary that owns process trees ("" = this one).
	RunnerExe string
	// OnStart is told each time a plugin's process starts (tests, logs).
	OnStart func(id string, pid int)
}

// Runtime runs plugins' processes: each starts on its plugin's first call,
// through backend/mcp's stdio client (an owned process tree, MCP over its
// stdin and stdout), and only while the user's consent matches the plugin
// on disk. A process that dies fails the call it was serving with
// PLUGIN_CRASHED; the next call starts it again.
type Runtime struct {
	o RuntimeOptions

	mu     sync.Mutex
	procs  map[string]*process
	closed bool
}

type process struct {
	mu   sync.Mutex // held while starting, so one call starts it
	conn *mcp.Conn
	hash string // the consent hash it started under
	log  *tailLog
}

// NewRuntime returns a runtime with no process running; Close ends it.
func NewRuntime(o RuntimeOptions) *Runtime {
	if o.Environ == nil {
		o.Environ = func(context.Context) ([]string, error) { return nil, nil }
	}
	return &Runtime{o: o, procs: map[string]*process{}}
}

func (rt *Runtime) proc(id string) (*process, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return nil, errs.New(errs.ToolAborted, "PI-Desktop is shutting down; plugin %q was not started", id)
	}
	p := rt.procs[id]
	if p == nil {
		p = &process{log: &tailLog{max: logSize}}
		rt.procs[id] = p
	}
	return p, nil
}

// Call calls tool (its own name) on rec's process, starting it first when
// none runs. args are the validated arguments' bytes. Errors:
// PLUGIN_CONSENT_REQUIRED (not consented, or the files changed since),
// PLUGIN_CRASHED (it could not start, or died during the call), MCP codes
// for a process that answered badly, and ctx's cause when ctx ended.
func (rt *Runtime) Call(ctx context.Context, rec Record, tool string, args json.RawMessage) (*sdk.CallToolResult, error) {
	p, err := rt.proc(rec.ID)
	if err != nil {
		return nil, err
	}
	conn, err := rt.ready(ctx, p, rec)
	if err != nil {
		return nil, err
	}
	res, err := conn.CallTool(ctx, tool, args, nil)
	if err == nil {
		return res, nil
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	t := time.NewTimer(exitGrace)
	defer t.Stop()
	select {
	case <-conn.Exited():
	case <-t.C:
		return nil, err
	}
	p.mu.Lock()
	if p.conn == conn {
		p.conn = nil
	}
	p.mu.Unlock()
	_ = conn.Close()
	return nil, crashed(rec.ID, "its process exited during the call of "+tool, p.log.tail(tailLines), err)
}

func crashed(id, what string, tail []string, cause error) error {
	said := "it wrote nothing to stderr"
	if len(tail) > 0 {
		said = "its last stderr lines: " + strings.Join(tail, " | ")
	}
	return errs.Wrap(cause, errs.PluginCrashed, "plugin %q crashed: %s (%s); the next call starts it again", id, what, said).
		With("plugin", id).With("retriable", true)
}

// ready is p's live connection, started when there is none (or its
// process exited since).
func (rt *Runtime) ready(ctx context.Context, p *process, rec Record) (*mcp.Conn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn != nil {
		select {
		case <-p.conn.Exited():
			_ = p.conn.Close()
			p.conn = nil
		default:
			if p.hash == rec.ConsentHash {
				return p.conn, nil
			}
			_ = p.conn.Close() // reinstalled and consented again: the new one runs
			p.conn = nil
		}
	}
	if !rec.Consented() {
		return nil, consentRequired(rec.ID)
	}
	// The files are read again before anything runs: an edit since the
	// consent (a swapped binary) must be consented to first.
	now, err := Verify(rec.Path)
	if err != nil {
		return nil, err
	}
	if now != rec.ConsentHash {
		return nil, consentRequired(rec.ID)
	}
	m, err := rec.Manifest()
	if err != nil {
		return nil, err
	}
	env, err := rt.o.Environ(ctx)
	if err != nil {
		return nil, err
	}
	s := mcp.Server{ID: InternalName(rec.ID, "process"), Transport: mcp.TransportStdio, Command: commandPath(rec.Path, m.Command),
		Args: m.Args, Enabled: true, ConnectTimeout: LoadTimeout, CallTimeout: ToolTimeout}
	conn, err := mcp.ConnectStdio(ctx, s, mcp.StdioOptions{BaseEnv: env, Dir: rec.Path, RunnerExe: rt.o.RunnerExe, Stderr: p.log})
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, crashed(rec.ID, "its process did not start and complete the MCP handshake within "+LoadTimeout.String(), p.log.tail(tailLines), err)
	}
	rt.mu.Lock()
	closed := rt.closed
	rt.mu.Unlock()
	if closed {
		_ = conn.Close()
		return nil, errs.New(errs.ToolAborted, "PI-Desktop is shutting down; plugin %q was not started", rec.ID)
	}
	p.conn, p.hash = conn, rec.ConsentHash
	if rt.o.OnStart != nil {
		rt.o.OnStart(rec.ID, conn.Pid())
	}
	return conn, nil
}

func consentRequired(id string) error {
	return errs.New(errs.PluginConsentRequired,
		"plugin %q changed since the user consented to it (or was never consented to), so it runs nothing; ask the user to review it in Settings → Plugins or with `pi-desktop plugins install`", id).
		With("plugin", id)
}

// commandPath resolves a command with a path separator against the plugin
// folder; a bare program name is looked up on the PATH.
func commandPath(dir, command string) string {
	if strings.ContainsAny(command, `/\`) {
		return filepath.Join(dir, filepath.FromSlash(command))
	}
	return command
}

// Stop ends id's process, if one runs, and returns once it is gone.
func (rt *Runtime) Stop(id string) {
	rt.mu.Lock()
	p := rt.procs[id]
	delete(rt.procs, id)
	rt.mu.Unlock()
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn != nil {
		_ = p.conn.Close()
		p.conn = nil
	}
}

// Pid is the process id of id's running process, 0 when none runs.
func (rt *Runtime) Pid(id string) int {
	rt.mu.Lock()
	p := rt.procs[id]
	rt.mu.Unlock()
	if p == nil || !p.mu.TryLock() {
		return 0
	}
	defer p.mu.Unlock()
	if p.conn == nil {
		return 0
	}
	select {
	case <-p.conn.Exited():
		return 0
	default:
		return p.conn.Pid()
	}
}

// Log is the kept stderr of id's process ("" when it never ran).
func (rt *Runtime) Log(id string) string {
	rt.mu.Lock()
	p := rt.procs[id]
	rt.mu.Unlock()
	if p == nil {
		return ""
	}
	return p.log.String()
}

// Close ends every process; calls fail from then on.
func (rt *Runtime) Close() {
	rt.mu.Lock()
	rt.closed = true
	ids := make([]string, 0, len(rt.procs))
	for id := range rt.procs {
		ids = append(ids, id)
	}
	rt.mu.Unlock()
	for _, id := range ids {
		rt.Stop(id)
	}
}

// tailLog keeps the last max bytes of a process's stderr.
type tailLog struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (l *tailLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	if over := len(l.buf) - l.max; over > 0 {
		l.buf = append(l.buf[:0], l.buf[over:]...)
	}
	return len(p), nil
}

func (l *tailLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.ToValidUTF8(string(l.buf), "\uFFFD")
}

// tail is the last n non-empty lines.
func (l *tailLog) tail(n int) []string {
	var out []string
	for _, line := range strings.Split(l.String(), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, truncate.BytesEllipsis(line, 300))
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}
