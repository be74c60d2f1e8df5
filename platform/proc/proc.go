package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// RunnerArg is the hidden argv[1] that makes the host binary act as a
// runner. main.go dispatches it before anything else:
//
//	if len(os.Args) > 1 && os.Args[1] == proc.RunnerArg {
//		os.Exit(proc.RunnerMain(os.Args[2:]))
//	}
const RunnerArg = "__pi_runner"

// runnerChildEnv marks the environment of a runner process (never of the
// command: the runner starts that with Spec.Env).
const runnerChildEnv = "PI_DESKTOP_PROC_RUNNER"

// DefaultKillGrace is how long the tree gets between the polite signal
// (SIGTERM) and SIGKILL when Spec.KillGrace is zero.
const DefaultKillGrace = 2 * time.Second

// drainBound bounds how long Wait waits for the output pipes to reach EOF
// once the tree is gone. Only a process that escaped the tree (impossible on
// Linux, best effort on macOS) can hold them open that long.
const drainBound = 5 * time.Second

// hardKillLimit bounds the runner's SIGKILL phase; a process stuck in the
// kernel (state D) can outlive it, and is then reported as a survivor.
const hardKillLimit = 10 * time.Second

var (
	// ErrResourceExhausted matches (errors.Is) a spawn that failed because
	// the OS ran out of processes, threads, memory or handles. It is
	// retriable.
	ErrResourceExhausted = errors.New("proc: the OS is out of process resources")
	// ErrKilled matches the error Wait returns when the tree was terminated
	// by Kill or by the cancellation of Start's context (the context's cause
	// is wrapped too, e.g. context.DeadlineExceeded).
	ErrKilled = errors.New("proc: process tree killed")
	// ErrNotDispatched is returned by Start in a process that was started
	// as a runner but whose main did not dispatch RunnerArg (a test binary
	// without the TestMain hook, say): without it every runner it starts
	// would run the binary again, without end.
	ErrNotDispatched = errors.New("proc: this binary was started as a process-tree runner but its main (or TestMain) does not dispatch proc.RunnerArg; call proc.RunnerMain first")
	// ErrSurvivors matches the error Wait returns when processes of the
	// tree could not be killed (stuck in the kernel, or escaped on macOS).
	ErrSurvivors = errors.New("proc: processes of the tree could not be killed")
	// ErrUnsupported is returned by Start on an OS without a tree owner.
	ErrUnsupported = errors.New("proc: owned process trees are not supported on this OS")
)

// Spec describes one command.
type Spec struct {
	// Path is the executable; a bare name is looked up in the host's PATH.
	Path string
	// Args are the arguments after argv[0] (argv[0] is Path).
	Args []string
	// CmdLine, on Windows only, replaces the command line built from Path
	// and Args (cmd.exe's /s /c quoting needs it). Ignored elsewhere.
	CmdLine string
	// Dir is the working directory ("" = the host's).
	Dir string
	// Env is the complete environment of the command (nil = the host's).
	Env []string
	// Stdout and Stderr receive the command's output (nil = discarded). They
	// are written from two goroutines: when they are the same writer it
	// must be safe for concurrent use. A writer error does not stop the
	// command; the output is drained and the first error returned by Wait.
	Stdout, Stderr io.Writer
	// RunnerExe is the binary that dispatches RunnerArg ("" = DefaultRunner()).
	RunnerExe string
	// KillGrace is the pause between SIGTERM and SIGKILL (0 = DefaultKillGrace).
	// Windows terminates the job at once.
	KillGrace time.Duration
	// StdinPipe gives the command a pipe as its stdin, written through
	// Process.Stdin (a server speaking a protocol on stdin/stdout, say).
	// Without it the command's stdin is the null device.
	StdinPipe bool

	// noCgroup keeps the tree out of a cgroup leaf (tests of the subreaper
	// fallback).
	noCgroup bool
	// onEnd, when set, runs once the tree is gone, before Wait returns.
	onEnd func()
}

// header is what the host sends the runner on its stdin, as one frame
// (wire.go). Every later byte on stdin, or its EOF, is a kill request.
type header struct {
	Path    string
	Args    []string
	CmdLine string
	Dir     string
	Env     []string
	GraceMs int64
	// Cgroup is the empty cgroup v2 leaf the shell is started in (Linux,
	// "" = none).
	Cgroup string
}

// status is one frame the runner writes on its status pipe: first either Pid
// or SpawnErr, and last (just before it exits) Exit.
type status struct {
	Pid      int
	SpawnErr string
	Errno    uint64
	Exit     *int
	Signal   int
	// Killed: the shell ended because of a kill request.
	Killed bool
	// Survivors counts processes the runner could not kill before giving up.
	Survivors int
}

// Process is a command running in a process tree owned by a runner.
type Process struct {
	cmd   *exec.Cmd
	pid   int
	grace time.Duration
	plat  *platState
	onEnd func() // Spec.onEnd

	ctlMu sync.Mutex
	ctl   *os.File // write end of the runner's stdin; nil once closed
	stdin *os.File // write end of the command's stdin (Spec.StdinPipe)

	killOnce  sync.Once
	killMu    sync.Mutex
	killCause error

	pumps  sync.WaitGroup
	outR   *os.File
	errR   *os.File
	pumpMu sync.Mutex
	outErr error

	stR  *bufio.Reader
	stF  *os.File
	done chan struct{}
	code int
	err  error
}

// Start starts s in a new process tree. Cancelling ctx kills the tree (Wait
// then reports ErrKilled and the context's cause). A spawn that fails for
// lack of OS resources returns an error matching ErrResourceExhausted.
func Start(ctx context.Context, s Spec) (*Process, error) {
	path, runner, grace, err := resolve(ctx, s)
	if err != nil {
		return nil, err
	}
	return startResolved(ctx, s, path, runner, grace)
}

// startResolved is Start once resolve has checked s.
func startResolved(ctx context.Context, s Spec, path, runner string, grace time.Duration) (*Process, error) {
	r, err := spawnRunner(runner, s.StdinPipe, s.noCgroup)
	if err != nil {
		return nil, err
	}
	return r.run(ctx, s, path, grace)
}

// resolve checks s and returns the command's path, the runner binary and
// the kill grace.
func resolve(ctx context.Context, s Spec) (path, runner string, grace time.Duration, err error) {
	if err := context.Cause(ctx); err != nil {
		return "", "", 0, err
	}
	if os.Getenv(runnerChildEnv) != "" {
		// Started as a runner, yet here: main did not dispatch RunnerArg.
		// Starting another runner would re-run this binary again and again.
		return "", "", 0, ErrNotDispatched
	}
	if s.Path == "" {
		return "", "", 0, errors.New("proc: empty Path")
	}
	path = s.Path
	if filepath.Base(path) == path {
		lp, err := exec.LookPath(path)
		if err != nil {
			return "", "", 0, fmt.Errorf("proc: %w", err)
		}
		path = lp
	}
	runner = s.RunnerExe
	if runner == "" {
		if runner, err = DefaultRunner(); err != nil {
			return "", "", 0, err
		}
	}
	grace = s.KillGrace
	if grace <= 0 {
		grace = DefaultKillGrace
	}
	return path, runner, grace, nil
}

// runnerProc is a runner that has started and waits for its command on
// its stdin (the ctl pipe).
type runnerProc struct {
	cmd   *exec.Cmd
	plat  *platState
	ctl   *os.File // write end of the runner's stdin
	stdin *os.File // write end of the command's stdin, nil without Spec.StdinPipe
	outR  *os.File
	errR  *os.File
	stR   *os.File
}

// spawnRunner starts a runner, which then waits for its command.
func spawnRunner(runner string, stdinPipe, noCgroup bool) (*runnerProc, error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			_ = f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	ctlR, ctlW, err1 := pipe()
	outR, outW, err2 := pipe()
	errR, errW, err3 := pipe()
	stR, stW, err4 := pipe()
	var inR, inW *os.File
	var err5 error
	if stdinPipe {
		inR, inW, err5 = pipe()
	}
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		closeAll()
		return nil, classifySpawnError(fmt.Errorf("proc: pipes: %w", err))
	}

	cmd := exec.Command(runner, RunnerArg)
	// One P: the runner mostly waits, and every extra P costs it memory and
	// threads. The command gets Spec.Env, never this environment.
	cmd.Env = append(os.Environ(), runnerChildEnv+"=1", "GOMAXPROCS=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ctlR, outW, errW
	plat, err := prepare(cmd, noCgroup)
	if err != nil {
		closeAll()
		return nil, err
	}
	cmd.Args = append(cmd.Args, attachFile(cmd, stW))
	if inR != nil {
		// The runner's second argument names the command's stdin.
		cmd.Args = append(cmd.Args, attachFile(cmd, inR))
	}
	if err := cmd.Start(); err != nil {
		plat.close()
		closeAll()
		return nil, classifySpawnError(fmt.Errorf("proc: start the runner: %w", err))
	}
	// The child's ends now live in the runner.
	_ = ctlR.Close()
	_ = outW.Close()
	_ = errW.Close()
	_ = stW.Close()
	if inR != nil {
		_ = inR.Close()
	}
	r := &runnerProc{cmd: cmd, plat: plat, ctl: ctlW, stdin: inW, outR: outR, errR: errR, stR: stR}
	if err := plat.started(cmd); err != nil {
		r.discard(true)
		return nil, err
	}
	return r, nil
}

// discard ends a runner that will not run a command: EOF on its stdin
// makes a waiting runner exit; kill stops it at once.
func (r *runnerProc) discard(kill bool) {
	if kill {
		_ = r.cmd.Process.Kill()
	}
	_ = r.ctl.Close()
	if r.stdin != nil {
		_ = r.stdin.Close()
	}
	_ = r.cmd.Wait()
	r.plat.afterExit(0, false)
	_ = r.outR.Close()
	_ = r.errR.Close()
	_ = r.stR.Close()
	r.plat.close()
}

// run hands s to the runner and returns once the runner reports the
// command started (or why it could not).
func (r *runnerProc) run(ctx context.Context, s Spec, path string, grace time.Duration) (*Process, error) {
	env := s.Env
	if env == nil {
		env = os.Environ()
	}
	hdr := header{Path: path, Args: s.Args, CmdLine: s.CmdLine, Dir: s.Dir, Env: env,
		GraceMs: grace.Milliseconds(), Cgroup: r.plat.leafDir()}.encode()
	cmd := r.cmd
	p := &Process{cmd: cmd, grace: grace, plat: r.plat, ctl: r.ctl, stdin: r.stdin, outR: r.outR, errR: r.errR,
		stR: bufio.NewReader(r.stR), stF: r.stR, done: make(chan struct{}), onEnd: s.onEnd}
	p.pumps.Add(2)
	go p.pump(s.Stdout, r.outR)
	go p.pump(s.Stderr, r.errR)

	// teardown releases a runner that will not run the command; a runner
	// that reported a spawn error exits by itself, others are killed.
	teardown := func(kill bool, err error) (*Process, error) {
		if kill {
			_ = cmd.Process.Kill()
		}
		_ = cmd.Wait()
		p.plat.afterExit(0, false)
		p.closeCtl()
		p.closeStdin()
		p.finishPumps()
		_ = r.stR.Close()
		p.plat.close()
		return nil, err
	}
	if _, err := r.ctl.Write(hdr); err != nil {
		return teardown(true, errRunnerGone{fmt.Errorf("proc: send the command to the runner: %w", err)})
	}
	first, err := p.readStatus()
	if err != nil {
		return teardown(true, fmt.Errorf("proc: runner did not report a start: %w", err))
	}
	if first.SpawnErr != "" {
		return teardown(false, classifySpawnError(&os.PathError{Op: "start", Path: path, Err: spawnErrno(first)}))
	}
	p.pid = first.Pid
	go p.supervise()
	if ctx.Done() != nil {
		go func() {
			select {
			case <-ctx.Done():
				p.kill(fmt.Errorf("%w: %w", ErrKilled, context.Cause(ctx)))
			case <-p.done:
			}
		}()
	}
	return p, nil
}

// errRunnerGone: the runner could not be handed its command, which so
// never started (a spare runner that died while it waited, say).
type errRunnerGone struct{ error }

func (e errRunnerGone) Unwrap() error { return e.error }

// Pid is the process id of the command (the shell), not of the runner.
func (p *Process) Pid() int { return p.pid }

// Stdin is the write end of the command's stdin when Spec.StdinPipe was
// set, nil otherwise. Closing it is the command's EOF; it is closed for the
// caller once the tree is gone.
func (p *Process) Stdin() io.WriteCloser {
	if p.stdin == nil {
		return nil
	}
	return p.stdin
}

// Kill terminates the whole tree: SIGTERM, then SIGKILL after the grace
// period (Windows: the job is terminated at once). It does not wait; Wait
// returns once the tree is gone. Kill is idempotent and safe after exit.
func (p *Process) Kill() error {
	p.kill(ErrKilled)
	return nil
}

// Wait returns the command's exit status once the whole tree is gone and the
// output writers have received everything. A shell killed by a signal
// reports 128+signal, as shells do. err matches ErrKilled when Kill or the
// context ended the command, and reports host faults (runner crash, writer
// errors, a pipe held open by a process outside the tree).
func (p *Process) Wait() (exitCode int, err error) {
	<-p.done
	return p.code, p.err
}

func (p *Process) kill(cause error) {
	p.killOnce.Do(func() {
		p.killMu.Lock()
		p.killCause = cause
		p.killMu.Unlock()
		p.ctlMu.Lock()
		if p.ctl != nil {
			_, _ = p.ctl.Write([]byte{'K'})
		}
		p.ctlMu.Unlock()
		p.plat.kill()
		// Backstop: a runner that does not finish in time is killed by the
		// host. It waits out the runner's own kill phase first: killing the
		// runner early would orphan descendants it was still reaping.
		go func() {
			t := time.NewTimer(p.grace + hardKillLimit + 2*time.Second)
			defer t.Stop()
			select {
			case <-p.done:
			case <-t.C:
				_ = p.cmd.Process.Kill()
			}
		}()
	})
}

func (p *Process) killRequested() error {
	p.killMu.Lock()
	defer p.killMu.Unlock()
	return p.killCause
}

func (p *Process) closeStdin() {
	if p.stdin != nil {
		_ = p.stdin.Close()
	}
}

func (p *Process) closeCtl() {
	p.ctlMu.Lock()
	if p.ctl != nil {
		_ = p.ctl.Close()
		p.ctl = nil
	}
	p.ctlMu.Unlock()
}

func (p *Process) readStatus() (status, error) {
	return readStatusFrame(p.stR)
}

func (p *Process) supervise() {
	defer close(p.done)
	if p.onEnd != nil {
		defer p.onEnd() // runs first: before Wait can return
	}
	werr := p.cmd.Wait()
	last, serr := p.readStatus()
	clean := serr == nil && last.Exit != nil && last.Survivors == 0
	p.plat.afterExit(p.pid, clean)
	p.closeCtl()
	p.closeStdin()
	_ = p.stF.Close()
	drainErr := p.finishPumps()
	p.plat.close()

	switch {
	case serr == nil && last.Exit != nil:
		p.code = *last.Exit
		if last.Signal != 0 {
			p.code = 128 + last.Signal
		}
	default:
		p.code = -1
	}
	var errs []error
	cause := p.killRequested()
	if cause != nil && (last.Exit == nil || last.Killed) {
		errs = append(errs, cause)
	} else if serr != nil || last.Exit == nil {
		// A killed runner (Windows terminates the job, runner included)
		// has no last word; anything else without one is a fault.
		errs = append(errs, fmt.Errorf("proc: runner ended without a status (%v)", werr))
	}
	if last.Survivors > 0 {
		errs = append(errs, fmt.Errorf("%w (%d)", ErrSurvivors, last.Survivors))
	}
	if drainErr != nil {
		errs = append(errs, drainErr)
	}
	p.err = errors.Join(errs...)
	if len(errs) == 1 {
		p.err = errs[0]
	}
}

// finishPumps waits for both output pipes to reach EOF, forcing them closed
// after drainBound.
func (p *Process) finishPumps() error {
	ch := make(chan struct{})
	go func() { p.pumps.Wait(); close(ch) }()
	var err error
	select {
	case <-ch:
	case <-time.After(drainBound):
		err = errors.New("proc: output pipes still open after the tree ended (a process escaped it); output may be incomplete")
		_ = p.outR.Close()
		_ = p.errR.Close()
		<-ch
	}
	_ = p.outR.Close()
	_ = p.errR.Close()
	p.pumpMu.Lock()
	defer p.pumpMu.Unlock()
	return errors.Join(err, p.outErr)
}

func (p *Process) pump(dst io.Writer, src *os.File) {
	defer p.pumps.Done()
	buf := make([]byte, 32*1024)
	var werr error
	for {
		n, err := src.Read(buf)
		if n > 0 && dst != nil && werr == nil {
			if _, werr = dst.Write(buf[:n]); werr != nil {
				p.pumpMu.Lock()
				if p.outErr == nil {
					p.outErr = fmt.Errorf("proc: output writer: %w", werr)
				}
				p.pumpMu.Unlock()
			}
		}
		if err != nil {
			return
		}
	}
}

// statusWriter writes status frames; safe for concurrent use.
type statusWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *statusWriter) send(st status) {
	b := st.encode()
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = s.w.Write(b)
}
