// Package toolcli is `pi-desktop tool`: it drives hostcore.Execute from JSON
// lines or a single call, headless, so users can script and debug the host
// and black-box tests can drive it exactly as the agent would.
package toolcli

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// SessionTitle marks the durable session the CLI reuses for a workspace.
const SessionTitle = "pi-desktop tool"

// Usage is printed for --help and on usage errors.
const Usage = `Usage:
  pi-desktop tool --workspace DIR [options] --script FILE|-
  pi-desktop tool NAME --args JSON --workspace DIR [options] [--approve once|session|deny]

Runs tool calls through the same host pipeline the agent uses, in one durable
session bound to DIR (created on first use, reused after). A script has one
JSON object per line:
  {"tool":"Read","args":{"path":"main.go"},"approve":"once|session|deny"}
  {"op":"rollback","changeId":"<review snapshotId>"}   {"op":"reviews","messageId":"<optional>"}
  {"op":"checkpoints"}   {"op":"restore","checkpointId":"<id>","preview":true}
  {"op":"restore","checkpointId":"<id>","overwrite":true|["conflicting/path",...]}
One script run is one turn: its first call that may write takes a checkpoint
of the workspace, each Bash call another, and the end of the script a last.
Each result is printed as one JSON line as soon as it completes. A call that
needs approval and has no "approve" is denied.

Exit status: 0 when every line was read and every call succeeded; 1 when a
call failed or was denied, or the host could not start; 2 for a usage error
or a script that could not be read to its end.

Options:
  --workspace DIR        the project folder (required)
  --data-dir DIR         data directory (default: the app's; env PI_DESKTOP_DATA_DIR)
  --mode MODE            permission mode for this run: ask, accept-edits or auto
                         (default: the app's default permission mode)
  --operating-mode MODE  agent, plan or goal
  --script FILE|-        JSON-lines script ("-" reads standard input)
  --args JSON            arguments of a single call
  --approve ANSWER       answer for a single call's approval card
`

// Line is one script line: a tool call, or {"op":"rollback","changeId":…}
// to roll back a review record.
type Line struct {
	Tool    string          `json:"tool"`
	Args    json.RawMessage `json:"args"`
	Approve string          `json:"approve"`
	// Prompt scopes the edit loop guard; lines without one share the run's.
	Prompt    string `json:"prompt"`
	Op        string `json:"op"`
	ChangeID  string `json:"changeId"`
	MessageID string `json:"messageId"` // reviews: only this message's records
	// restore: the checkpoint, whether only to preview, which conflicts
	// (files someone else changed since) to overwrite: true for every one,
	// or a list of their paths.
	CheckpointID string               `json:"checkpointId"`
	Preview      bool                 `json:"preview"`
	Overwrite    checkpoint.Overwrite `json:"overwrite"`
}

// Env is what Run needs from the process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	ResolveDataDir func(flagValue string) (string, error)
	Version        string
	// MaxScriptLine is the longest script line read, in bytes
	// (0 = DefaultMaxScriptLine; tests lower it).
	MaxScriptLine int
}

// Run executes `pi-desktop tool` with args (after the word "tool") and
// returns the exit code: 0 when every line was read and every call
// succeeded, 1 when a call failed or was denied or the host could not
// start, 2 on usage errors or a script not read to its end.
func Run(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("pi-desktop tool", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	workspace := fs.String("workspace", "", "")
	dataDir := fs.String("data-dir", "", "")
	mode := fs.String("mode", "", "")
	opMode := fs.String("operating-mode", "", "")
	script := fs.String("script", "", "")
	argsJSON := fs.String("args", "", "")
	approve := fs.String("approve", "", "")
	var single string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		single, args = args[0], args[1:]
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "pi-desktop tool: "+format+"\n\n%s", append(a, Usage)...)
		return 2
	}
	if err := ParseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(env.Stdout, Usage)
			return 0
		}
		return usageErr("%v", err)
	}
	switch {
	case fs.NArg() > 0:
		return usageErr("unexpected argument %q", fs.Arg(0))
	case *workspace == "":
		return usageErr("--workspace is required")
	case single == "" && *script == "":
		return usageErr("give a tool NAME with --args, or --script FILE")
	case single != "" && *script != "":
		return usageErr("give either a tool NAME or --script, not both")
	case *mode != "" && *mode != api.PermissionAsk && *mode != api.PermissionAcceptEdits && *mode != api.PermissionAuto:
		return usageErr("--mode must be ask, accept-edits or auto")
	case *opMode != "" && *opMode != api.ModeAgent && *opMode != api.ModePlan && *opMode != api.ModeGoal:
		return usageErr("--operating-mode must be agent, plan or goal")
	case *approve != "" && answer(*approve) == "":
		return usageErr("--approve must be once, session or deny")
	}
	var input io.Reader
	switch {
	case single != "":
		a := *argsJSON
		if a == "" {
			a = "{}"
		}
		var probe any
		if err := json.Unmarshal([]byte(a), &probe); err != nil {
			return usageErr("--args is not valid JSON: %s", jsonError(a, err))
		}
		line, _ := json.Marshal(Line{Tool: single, Args: json.RawMessage(a), Approve: *approve})
		input = strings.NewReader(string(line))
	case *script == "-":
		input = env.Stdin
	default:
		f, err := os.Open(*script)
		if err != nil {
			return usageErr("cannot open the script: %v", err)
		}
		defer f.Close()
		input = f
	}

	dir, err := env.ResolveDataDir(*dataDir)
	if err != nil {
		fmt.Fprintf(env.Stderr, "pi-desktop tool: %v\n", err)
		return 1
	}
	d := &driver{single: single != ""}
	core, err := hostcore.New(ctx, hostcore.Config{DataDir: dir, Version: env.Version, Sink: d})
	if err != nil {
		fmt.Fprintf(env.Stderr, "pi-desktop tool: %s\n", errs.ToPayload(err).Message)
		return 1
	}
	defer core.Close()
	d.core = core
	sessionID, err := bindSession(ctx, core, *workspace, *opMode)
	if err != nil {
		fmt.Fprintf(env.Stderr, "pi-desktop tool: %s\n", errs.ToPayload(err).Message)
		return 1
	}
	failed, err := d.run(ctx, sessionID, *mode, newLineReader(input, env.MaxScriptLine), env.Stdout)
	switch {
	case err != nil:
		fmt.Fprintf(env.Stderr, "pi-desktop tool: %v; reading stopped there, and that line and any after it were not run\n", err)
		return 2
	case failed:
		return 1
	}
	return 0
}

// bindSession finds or creates the CLI's durable session for workspace and
// sets its operating mode for this run (agent unless given). The permission
// mode is not stored: it rides on each request as an override, so one run's
// --mode auto never loosens a later run.
func bindSession(ctx context.Context, core *hostcore.Core, workspace, opMode string) (string, error) {
	p, err := core.AddProject(ctx, workspace)
	if err != nil {
		return "", err
	}
	list, err := core.ListSessions(ctx, p.ID, false)
	if err != nil {
		return "", err
	}
	var s api.Session
	for _, cand := range list {
		if cand.Title == SessionTitle {
			s = cand
			break
		}
	}
	if s.ID == "" {
		if s, err = core.CreateSession(ctx, api.CreateSessionInput{ProjectID: p.ID, Title: SessionTitle}); err != nil {
			return "", err
		}
	}
	if opMode == "" {
		opMode = api.ModeAgent
	}
	if _, err := core.ConfigureSession(ctx, s.ID, api.SessionConfig{OperatingMode: opMode, PermissionMode: api.PermissionInherit}); err != nil {
		return "", err
	}
	return s.ID, nil
}

func answer(s string) permission.Outcome {
	switch s {
	case "once":
		return permission.AllowOnce
	case "session":
		return permission.AllowSession
	case "deny":
		return permission.Denied
	}
	return ""
}

// driver runs script lines and answers approval cards from them. It is the
// core's event sink, so the cards go through the real broker.
type driver struct {
	core   *hostcore.Core
	single bool // one call from the command line, not a script

	mu      sync.Mutex
	pending permission.Outcome // the answer for the line being run
	denied  bool               // a card of this line was denied for want of an answer
}

// Emit answers an approval card with the current line's answer; a line
// without one is denied (fail closed).
func (d *driver) Emit(event string, payload any) {
	if event != permission.EventRequest {
		return
	}
	req, ok := payload.(permission.Request)
	if !ok {
		return
	}
	d.mu.Lock()
	out := d.pending
	d.mu.Unlock()
	if out == "" {
		out = permission.Denied
		d.mu.Lock()
		d.denied = true
		d.mu.Unlock()
	}
	_ = d.core.ResolveApproval(req.SessionID, req.ID, out)
}

// run runs the script's lines in order. It reports whether any line
// failed, and why reading stopped before the end of the input, if it did.
func (d *driver) run(ctx context.Context, sessionID, mode string, lines *lineReader, stdout io.Writer) (failed bool, readErr error) {
	w := bufio.NewWriter(stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	turn := fmt.Sprintf("cli-%d", time.Now().UnixNano())
	defer d.core.EndTurn(ctx, sessionID, turn) // the script is one turn, however it ends
	n := 0
	for {
		b, err := lines.next()
		if errors.Is(err, io.EOF) {
			return failed, nil
		}
		if err != nil {
			// Said on standard output too, for a driver reading results.
			_ = enc.Encode(tools.Failure(errs.Wrap(err, errs.InvalidArgument, "reading the script stopped: %v", err)))
			_ = w.Flush()
			return true, err
		}
		raw := bytes.TrimSpace(b)
		if len(raw) == 0 || raw[0] == '#' {
			continue
		}
		n++
		res := d.line(ctx, sessionID, mode, turn, raw, n)
		failed = failed || !res.OK
		_ = enc.Encode(res)
		_ = w.Flush() // a driver may choose its next line from this result
	}
}

// line runs one script line (the n-th call).
func (d *driver) line(ctx context.Context, sessionID, mode, turn string, raw []byte, n int) tools.Result {
	var line Line
	if err := json.Unmarshal(raw, &line); err != nil {
		return tools.Failure(errs.New(errs.InvalidArgument, "script line %d is not a JSON object like {\"tool\":\"Read\",\"args\":{…}}: %s", n, jsonError(string(raw), err)))
	}
	if line.Approve != "" && answer(line.Approve) == "" {
		return tools.Failure(errs.New(errs.InvalidArgument, "script line %d: approve must be once, session or deny", n).With("field", "approve"))
	}
	if line.Op != "" {
		return d.op(ctx, sessionID, line, n)
	}
	d.mu.Lock()
	d.pending, d.denied = answer(line.Approve), false
	d.mu.Unlock()
	res := d.core.Execute(ctx, hostcore.ToolRequest{
		SessionID: sessionID, TurnID: turn, ToolCallID: fmt.Sprintf("%s-%d", turn, n),
		Tool: line.Tool, Args: line.Args, PermissionOverride: mode, PromptID: cmp.Or(line.Prompt, turn),
	})
	d.mu.Lock()
	denied := d.denied
	d.mu.Unlock()
	if denied && res.Code == errs.ToolDenied {
		// No person was asked: say what the line lacks, not "user denied".
		res.Message = `needs approval: add "approve":"once" to this line, or use --mode`
		if d.single {
			res.Message = "needs approval: add --approve once, or use --mode"
		}
	}
	return res
}

// op runs a non-tool script line.
func (d *driver) op(ctx context.Context, sessionID string, line Line, n int) tools.Result {
	switch line.Op {
	case "rollback":
		if line.ChangeID == "" {
			return tools.Failure(errs.New(errs.InvalidArgument, "script line %d: rollback needs changeId (a review record's snapshotId)", n).With("field", "changeId"))
		}
		changes, err := d.core.Rollback(ctx, sessionID, line.ChangeID)
		if err != nil {
			return tools.Failure(err)
		}
		return tools.Result{OK: true, Message: fmt.Sprintf("rolled back %d change(s)", len(changes)), Fields: map[string]any{"changes": changes}}
	case "reviews":
		changes, err := d.core.ReviewChanges(ctx, sessionID, line.MessageID)
		if err != nil {
			return tools.Failure(err)
		}
		return tools.Result{OK: true, Fields: map[string]any{"changes": changes}}
	case "checkpoints":
		list, err := d.core.Checkpoints(ctx, sessionID)
		if err != nil {
			return tools.Failure(err)
		}
		return tools.Result{OK: true, Message: fmt.Sprintf("%d checkpoint(s), newest first", len(list)), Fields: map[string]any{"checkpoints": list}}
	case "restore":
		return d.restore(ctx, sessionID, line, n)
	}
	return tools.Failure(errs.New(errs.InvalidArgument, "script line %d: unknown op %q; use rollback, reviews, checkpoints or restore", n, line.Op).With("field", "op"))
}
