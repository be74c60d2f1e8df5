package hostcore

import (
	"context"
	"errors"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/bash"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/redact"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
	"github.com/pi-desktop/pi-desktop/platform/proc"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// EventWorktreeSetup reports a worktree's setup command: state running,
// then done or failed with its exit code and bounded output.
const EventWorktreeSetup = "worktree:setup"

// setupTimeout bounds a worktree setup command (dependency installs can be
// slow, but not endless).
const setupTimeout = 30 * time.Minute

// SetupResult is the outcome of a worktree setup command.
type SetupResult struct {
	SessionID string `json:"sessionId"`
	State     string `json:"state"` // running | done | failed
	Command   string `json:"command"`
	ExitCode  int    `json:"exitCode"`
	Output    string `json:"output,omitempty"`
	Message   string `json:"message,omitempty"`
}

// runSetup runs the project's setup command once in a new worktree, in the
// user's default command shell as written (no dialect translation), with
// PI_PORT, PI_PROJECT_ROOT and PI_WORKTREE_ROOT. Its failure is reported;
// the session stays usable.
func (c *Core) runSetup(ctx context.Context, sessionID, command string, wt worktree.Worktree) SetupResult {
	res := SetupResult{SessionID: sessionID, Command: command, State: "running"}
	c.emit(EventWorktreeSetup, res)
	fail := func(err error) SetupResult {
		res.State, res.Message = "failed", errs.ToPayload(err).Message
		if errs.As(err) == nil {
			res.Message = err.Error()
		}
		c.emit(EventWorktreeSetup, res)
		return res
	}
	port, err := c.worktrees.Ports().Block(sessionID)
	if err != nil {
		return fail(err)
	}
	setup, ok, err := worktree.SetupFor(wt, port, command)
	if err != nil || !ok {
		return fail(errors.Join(err, errors.New("no setup command")))
	}
	settings, err := c.settings.Get(ctx)
	if err != nil {
		return fail(err)
	}
	sh, err := shells.Resolve(shells.Effective(settings.DefaultCommandShell, c.cfg.Shells).ID, c.cfg.Shells)
	if err != nil {
		return fail(err)
	}
	inv, err := sh.Invocation(setup.Command)
	if err != nil {
		return fail(err)
	}
	out := bash.NewCapture(bash.Stdout, bash.CaptureOptions{})
	errOut := bash.NewCapture(bash.Stderr, bash.CaptureOptions{})
	runCtx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	p, err := proc.Start(runCtx, proc.Spec{Path: inv.Path, Args: inv.Args, CmdLine: inv.CmdLine, Dir: setup.Dir,
		Env: append(c.commandEnviron(settings), setup.Env...), Stdout: out, Stderr: errOut, RunnerExe: c.cfg.RunnerExe})
	if err != nil {
		return fail(err)
	}
	code, werr := p.Wait()
	out.Close()
	errOut.Close()
	// Shown in the window: secrets redacted (spec §8).
	res.ExitCode, res.Output = code, redact.String(bash.Format(out.Result(), errOut.Result(), code))
	switch {
	case werr != nil:
		return fail(werr)
	case code != 0:
		res.State, res.Message = "failed", "the setup command failed; the session is usable, but check its output"
	default:
		res.State = "done"
	}
	c.emit(EventWorktreeSetup, res)
	return res
}
