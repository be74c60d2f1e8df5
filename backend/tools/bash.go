package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/bash"
	"github.com/pi-desktop/pi-desktop/backend/bgtask"
	"github.com/pi-desktop/pi-desktop/backend/envpolicy"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/platform/proc"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// EventToolOutput carries a running command's output to the UI, in order
// per stream.
const EventToolOutput = "tool:output"

// BashDeps are the host services the Bash tool runs on.
type BashDeps struct {
	Shells    shells.Env
	PathProbe *shells.PathProbe // login-shell PATH (Unix); nil = host PATH
	Tasks     *bgtask.Registry
	RunnerExe string // binary that dispatches proc.RunnerArg ("" = this one)
	// Spare starts commands on a runner started ahead (nil: each command
	// starts its own).
	Spare *proc.Spare
	Now   func() time.Time
}

// ShellPin is the shell a turn was started with; host-core resolves it again
// before every spawn and refuses a change (spec §5, COMMAND_SHELL_CHANGED).
type ShellPin struct {
	ID      string `json:"shellId,omitempty"`
	Dialect string `json:"shellDialect,omitempty"`
}

// CallEnv is the per-call context a tool that runs commands needs.
type CallEnv struct {
	Workspace     string                 // the session's workspace root: the command's cwd
	EnsureScratch func() (string, error) // the session's scratch folder, created on first use
	DefaultShell  string                 // settings.defaultCommandShell
	Pin           ShellPin               // the turn's pinned shell ("" = the default)
	ToolCallID    string                 //
	Emit          func(string, any)      // UI events
	SessionExists func() bool            // for background spawns
	SpillSeq      *atomic.Int64          // numbers spill files (host-wide)
	ExtraEnv      []string               // e.g. PI_PORT, PI_PROJECT_ROOT, PI_WORKTREE_ROOT of an isolated session
	// Environ is the environment commands start from: the host's, filtered
	// by the user's environment policy (nil = the default policy over this
	// process's environment, so a caller that forgets it fails closed).
	Environ func() []string
}

type bashArgs struct {
	Command         string   `json:"command"`
	Timeout         *float64 `json:"timeout"`
	RunInBackground bool     `json:"runInBackground"`
	Description     string   `json:"description"`
}

type bashTool struct{ deps BashDeps }

func (bashTool) Spec() Spec {
	return Spec{
		Name: "Bash",
		Description: "Run a non-interactive shell command in the workspace (stdin is closed). Output is bounded: " +
			"stdout keeps its head, stderr its tail, with the full output saved under $PI_SCRATCH_DIR when cut. " +
			"Use runInBackground for servers and watchers: it returns a backgroundTaskId; read the task's output with BashOutput and stop it with BashStop " +
			"(on-demand tools: load them with ToolSearch). Prefer Read/Glob/Grep over cat/find/grep.",
		Class: permission.ClassExec, Risk: permission.High,
		Shape: NoPath,
		// Timeout 0: the command's own timeout applies, and the pipeline
		// waits for the tree to be gone before it returns.
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "command": {"type": "string", "minLength": 1, "description": "The command line."},
    "timeout": {"type": "number", "minimum": 1, "maximum": 100000000, "description": "Seconds (default 60, at most 21600); a value above 21600 is read as milliseconds."},
    "runInBackground": {"type": "boolean", "description": "Start and return at once with a backgroundTaskId; no timeout applies."},
    "description": {"type": "string", "description": "A few words on what the command does, for the user."}
  },
  "required": ["command"],
  "additionalProperties": false
}`),
	}
}

// Live output limits: chunks stream to the UI as they come, up to a bound
// per stream per call; the final result and the spill file have the rest.
const liveOutputMax = 1 << 20

// abortGrace is how long a stopped command may take to hand back the output
// it collected (spec §3: the runtime waits up to 10 s).
const abortGrace = 10 * time.Second

// patchCommand matches a command segment that runs a patch tool: apply_patch,
// patch, or git … apply (with options before the subcommand).
var patchCommand = regexp.MustCompile(`^(\S+=\S*\s+)*(apply_patch|patch|git(\s+(-C\s+\S+|-c\s+\S+|--\S+|-\S+))*\s+apply)(\s|$)`)

var commandSeparators = regexp.MustCompile(`[;&|\n]+`)

// isPatchCommand reports whether any segment of a command line (split at
// ; & | && || and newlines) starts with a patch tool, so "echo patch" does
// not count but "cd x && git -C y apply z.diff" does.
func isPatchCommand(cmd string) bool {
	for _, seg := range commandSeparators.Split(cmd, -1) {
		if patchCommand.MatchString(strings.TrimLeft(strings.TrimSpace(seg), "( ")) {
			return true
		}
	}
	return false
}

func (t bashTool) Run(ctx context.Context, c *Call) Result {
	var a bashArgs
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return Failure(errs.Wrap(err, errs.InvalidArgument, "Bash arguments do not decode"))
	}
	timeout, err := bash.Timeout(a.Timeout)
	if err != nil {
		return Failure(err)
	}
	sh, err := t.shell(c.Env)
	if err != nil {
		return Failure(err)
	}
	inv, err := sh.Invocation(a.Command)
	if errors.Is(err, shells.ErrMultiLineCommand) {
		return Failure(errs.New(errs.InvalidArgument, "%s", err.Error()).With("field", "command"))
	} else if err != nil {
		return Failure(errs.Wrap(err, errs.InvalidArgument, "%v", err).With("field", "command"))
	}
	scratch, err := c.Env.EnsureScratch()
	if err != nil {
		return Failure(err)
	}
	spec := proc.Spec{Path: inv.Path, Args: inv.Args, CmdLine: inv.CmdLine, Dir: c.Env.Workspace,
		Env: append(t.environ(c.Env, sh, scratch), c.Env.ExtraEnv...), RunnerExe: t.deps.RunnerExe}
	if a.RunInBackground {
		return t.background(c, a, spec)
	}
	return t.foreground(ctx, c, a, spec, scratch, timeout)
}

// shell resolves the turn's pinned shell again, or the default one.
func (t bashTool) shell(env CallEnv) (shells.Resolved, error) {
	if env.Pin.ID != "" {
		sh, err := shells.Resolve(env.Pin.ID, t.deps.Shells)
		if err != nil || (env.Pin.Dialect != "" && sh.Dialect != env.Pin.Dialect) {
			return shells.Resolved{}, errs.New(errs.CommandShellChanged,
				"the command shell %s this turn started with is no longer available as it was; start a new turn to use the current shell", env.Pin.ID)
		}
		return sh, nil
	}
	id := shells.Effective(env.DefaultShell, t.deps.Shells).ID
	sh, err := shells.Resolve(id, t.deps.Shells)
	if err != nil {
		return shells.Resolved{}, errs.Wrap(err, errs.ShellNotFound, "%s", err.Error())
	}
	return sh, nil
}

// environ is the host's environment as the policy filters it, with the
// login-shell PATH and the session's scratch folder.
func (t bashTool) environ(ce CallEnv, sh shells.Resolved, scratch string) []string {
	var env []string
	if ce.Environ != nil {
		env = ce.Environ()
	} else {
		env = envpolicy.Policy{}.Environ(os.Environ())
	}
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PI_SCRATCH_DIR=") {
			out = append(out, kv)
		}
	}
	if t.deps.PathProbe != nil {
		out = envpolicy.WithPATH(out, t.deps.PathProbe.PATH())
	}
	return append(out, "PI_SCRATCH_DIR="+sh.ScratchDir(scratch))
}

func (t bashTool) foreground(ctx context.Context, c *Call, a bashArgs, spec proc.Spec, scratch string, timeout time.Duration) Result {
	now := time.Now
	if t.deps.Now != nil {
		now = t.deps.Now
	}
	spillDir := filepath.Join(scratch, "tool-output")
	liveOut, liveErr := &liveOutput{c: c, label: "stdout"}, &liveOutput{c: c, label: "stderr"}
	capture := func(kind bash.Stream, live *liveOutput) *bash.Capture {
		return bash.NewCapture(kind, bash.CaptureOptions{
			OnChunk: live.chunk,
			Spill:   bash.FileSpill(spillDir, bash.SpillFileName("bash-"+live.label, now().UnixMilli(), int(c.Env.nextSpill()))),
		})
	}
	stdout, stderr := capture(bash.Stdout, liveOut), capture(bash.Stderr, liveErr)
	spec.Stdout, spec.Stderr = stdout, stderr
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p, err := t.deps.Spare.Start(runCtx, spec)
	if err != nil {
		return startFailure(err)
	}
	code, waitErr := waitBounded(ctx, runCtx, p)
	stdout.Close()
	stderr.Close()
	liveOut.flush()
	liveErr.flush()
	out, errOut := stdout.Result(), stderr.Result()
	res := Result{Content: bash.Format(out, errOut, code)}
	fields := map[string]any{"exitCode": code, "stdout": out.WithMarker(), "stderr": errOut.WithMarker(),
		"stdoutTruncated": out.Truncated, "stderrTruncated": errOut.Truncated}
	if out.SpillPath != "" || errOut.SpillPath != "" {
		fields["spill"] = map[string]string{"stdout": out.SpillPath, "stderr": errOut.SpillPath}
	}
	res.Fields = fields
	switch {
	case errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		res.Code = errs.ToolTimeout
		res.Message = fmt.Sprintf("the command did not finish within %s and its process tree was stopped; raise timeout (up to 21600 s), split the command, or use runInBackground", timeout)
		res.Details = map[string]any{"timeoutMs": timeout.Milliseconds()}
	case ctx.Err() != nil:
		res.Code, res.Message = errs.ToolAborted, "the command was stopped; the output collected before it ended is included"
	case waitErr != nil && !errors.Is(waitErr, proc.ErrKilled):
		res.Code, res.Message = errs.ToolFailed, fmt.Sprintf("the command ended abnormally: %v", waitErr)
	case code != 0:
		res.Code, res.Message = errs.ToolFailed, fmt.Sprintf("the command exited with status %d", code)
		if isPatchCommand(a.Command) && c.Guard != nil {
			g := c.Guard.FailShellPatch(c.PromptID)
			fields["guard"] = g
			if g.Terminate {
				res.Message += "; patch attempts in this prompt are used up: report the failure instead of retrying"
			}
		}
	default:
		res.OK = true
	}
	if !res.OK {
		fields["isError"] = true
	}
	return res
}

func (t bashTool) background(c *Call, a bashArgs, spec proc.Spec) Result {
	if t.deps.Tasks == nil {
		return Failure(errs.New(errs.ToolFailed, "background tasks are not available in this host"))
	}
	res, err := t.deps.Tasks.Reserve(c.SessionID, c.Env.SessionExists)
	if err != nil {
		return Failure(err)
	}
	spec.Stdout, spec.Stderr = res.Stdout(), res.Stderr()
	// The task outlives the turn: it is not tied to the call's context.
	p, err := t.deps.Spare.Start(context.Background(), spec)
	if err != nil {
		res.Cancel()
		return startFailure(err)
	}
	task, err := res.Start(a.Command, p)
	if err != nil {
		_ = p.Kill()
		return Failure(err)
	}
	return Result{OK: true, Content: fmt.Sprintf("started background task %s: %s\n"+
		"Read its status and latest output with BashOutput {\"taskId\": %q} and stop it with BashStop {\"taskId\": %q}; "+
		"if those tools are not loaded yet, call ToolSearch with \"select:BashOutput,BashStop\" first.", task.ID, a.Command, task.ID, task.ID),
		Fields: map[string]any{"backgroundTaskId": task.ID}}
}

// waitBounded waits for the command's tree. Once the call is stopped or
// timed out the tree is being killed; if that takes longer than abortGrace
// the call returns with the output collected so far (the kill goes on).
func waitBounded(ctx, runCtx context.Context, p *proc.Process) (int, error) {
	type exit struct {
		code int
		err  error
	}
	done := make(chan exit, 1)
	go func() {
		code, err := p.Wait()
		done <- exit{code, err}
	}()
	select {
	case e := <-done:
		return e.code, e.err
	case <-runCtx.Done():
	}
	select {
	case e := <-done:
		return e.code, e.err
	case <-time.After(abortGrace):
		_ = p.Kill()
		return -1, fmt.Errorf("%w: the process tree did not end within %s", proc.ErrKilled, abortGrace)
	}
}

// startFailure is the result of a command that could not be spawned.
func startFailure(err error) Result {
	if errors.Is(err, proc.ErrResourceExhausted) {
		return Failure(errs.Wrap(err, errs.ProcessResourceExhausted, "the system is out of process resources; wait a moment and retry").With("retriable", true))
	}
	return Failure(errs.Wrap(err, errs.ToolFailed, "the command could not start: %v", err))
}

func (e CallEnv) nextSpill() int64 {
	if e.SpillSeq == nil {
		return 0
	}
	return e.SpillSeq.Add(1)
}
