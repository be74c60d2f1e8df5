package shells

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/pi-desktop/pi-desktop/platform/proc"
)

// probeKillGrace is the pause between SIGTERM and SIGKILL for a probe's
// tree: long enough for startup files' exit traps to release their locks
// (pyenv rehash), short against the probe's bound.
const probeKillGrace = 500 * time.Millisecond

// probeInTree runs the probe in a process tree owned by the runner: the
// runner kills whatever the startup files left behind once the shell has
// answered, the whole tree when ctx ends, and everything when the host dies.
func probeInTree(ctx context.Context, runner, shell string, env []string, out io.Writer) error {
	p, err := proc.Start(ctx, proc.Spec{Path: shell, Args: []string{"-lic", probeCmd}, Env: env,
		Stdout: out, RunnerExe: runner, KillGrace: probeKillGrace})
	if err != nil {
		return err
	}
	code, err := p.Wait()
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if err != nil {
		return err
	}
	if code != 0 {
		return fmt.Errorf("exit status %d", code)
	}
	return nil
}
