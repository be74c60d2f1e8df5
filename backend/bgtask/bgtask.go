// Package bgtask is the registry of background Bash tasks (spec §5,
// runInBackground): who owns a task, how many may run, what each stream
// printed last, and the lifecycle running → stopping → exited | failed |
// stopped.
//
// It never starts a process. The caller reserves a slot (limits and the
// session are checked before anything is spawned), hands the reservation's
// sinks to the process layer, and registers the started process, which
// only has to satisfy Proc. No output is lost between spawn and
// registration because the sinks exist before the spawn.
//
// Locks: the registry lock guards task state; each stream has its own
// output lock. No path holds both. Stop, StopSession and Shutdown take
// only the registry lock and call Proc.Kill with no lock held, so a
// stream stuck in a slow writer can never delay a stop.
package bgtask

import (
	"context"
	"crypto/rand"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/bash"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Proc is a started process tree as the process layer hands it over.
type Proc interface {
	// Wait blocks until the tree has ended AND everything it printed has
	// been written to the sinks (os/exec's Cmd.Wait gives this for
	// non-file writers). It returns the exit code; err when no exit status
	// could be obtained.
	Wait() (exitCode int, err error)
	// Kill terminates the whole tree. It may be called more than once and
	// concurrently with Wait; it should return promptly.
	Kill() error
}

// State is a task's lifecycle state.
type State string

const (
	Running  State = "running"
	Stopping State = "stopping" // stop signalled; still live until the supervisor settles it
	Exited   State = "exited"   // ended on its own with exit code 0
	Failed   State = "failed"   // ended on its own with a non-zero code, or no exit status
	Stopped  State = "stopped"  // ended after a stop signal (sent, or on its way)
)

// Terminal reports whether s is a final state.
func (s State) Terminal() bool { return s == Exited || s == Failed || s == Stopped }

// Event names passed to Options.Emit.
const (
	EventStarted = "task:started" // payload Task
	EventOutput  = "task:output"  // payload OutputEvent; a late one after EventExited can be ignored
	EventExited  = "task:exited"  // payload Task (terminal, all output drained)
)

// Defaults.
const (
	DefaultPerSession     = 10
	DefaultGlobal         = 64
	DefaultRingBytes      = 256 << 10
	DefaultKeepTerminal   = 50
	DefaultOutputInterval = 250 * time.Millisecond
	PreviewStdoutChars    = 8000
	PreviewStderrChars    = 4000
)

// Options configure a Registry; zero values mean the defaults.
type Options struct {
	PerSession int // concurrent tasks per session (spec: 10)
	Global     int // process-wide ceiling
	RingBytes  int // kept per stream (decisions.md: 256 KB)
	// KeepTerminal is how many finished tasks a session keeps readable
	// (removed or not) before the oldest are dropped.
	KeepTerminal int
	Now          func() time.Time
	// Emit receives EventStarted, EventOutput and EventExited. It is called
	// with no lock held, and from the output path for EventOutput: it must
	// not block.
	Emit func(event string, payload any)
	// OutputInterval throttles EventOutput per task (a trailing event
	// follows a burst); negative emits on every write.
	OutputInterval time.Duration
}

// Task is a snapshot of one background task.
type Task struct {
	ID        string    `json:"id"`
	SessionID string    `json:"sessionId"`
	Command   string    `json:"command"`
	State     State     `json:"state"`
	ExitCode  *int      `json:"exitCode,omitempty"`
	Error     string    `json:"error,omitempty"` // why no exit status was obtained (failed)
	StartedAt time.Time `json:"startedAt" ts_type:"string"`
	EndedAt   time.Time `json:"endedAt,omitzero" ts_type:"string"`
	Removed   bool      `json:"removed,omitempty"`
}

// OutputEvent is EventOutput's payload: the task printed more. Read it with
// Registry.Output.
type OutputEvent struct {
	SessionID   string `json:"sessionId"`
	TaskID      string `json:"taskId"`
	StdoutBytes int64  `json:"stdoutBytes"`
	StderrBytes int64  `json:"stderrBytes"`
}

// TaskOutput is a bounded read of a task's output, from the tail.
type TaskOutput struct {
	Task   Task         `json:"task"`
	Stdout StreamOutput `json:"stdout"`
	Stderr StreamOutput `json:"stderr"`
}

// StreamOutput is the tail of one stream.
type StreamOutput struct {
	Text       string `json:"text"`       // valid UTF-8, at most the requested characters
	Truncated  bool   `json:"truncated"`  // Text is not everything the stream printed
	TotalBytes int64  `json:"totalBytes"` // everything the stream printed
}

// Registry holds the background tasks of all sessions.
type Registry struct {
	opts Options

	mu       sync.Mutex
	tasks    map[string]*task
	sessions map[string]*session
	live     map[*task]struct{} // started, EventExited not yet delivered
	active   int                // reserved + running + stopping, all sessions
	closed   bool
}

type session struct {
	active  int      // reserved + running + stopping
	order   []string // started tasks, oldest first
	deleted bool
}

type task struct {
	r       *Registry
	id      string
	session string
	stdout  *stream
	stderr  *stream
	done    chan struct{}

	// Guarded by r.mu.
	command   string
	proc      Proc
	started   bool
	state     State
	exitCode  *int
	errMsg    string
	startedAt time.Time
	endedAt   time.Time
	removed   bool
	killing   int  // Kill calls in flight
	killedOK  bool // a Kill succeeded
	released  bool // reservation slot given back (Cancel or terminal)

	announced atomic.Bool // EventStarted sent: EventOutput may follow
	nmu       sync.Mutex  // output-event throttle
	lastEmit  time.Time
	timerSet  bool
}

// NewRegistry returns an empty registry.
func NewRegistry(opts Options) *Registry {
	if opts.PerSession <= 0 {
		opts.PerSession = DefaultPerSession
	}
	if opts.Global <= 0 {
		opts.Global = DefaultGlobal
	}
	if opts.RingBytes <= 0 {
		opts.RingBytes = DefaultRingBytes
	}
	if opts.KeepTerminal <= 0 {
		opts.KeepTerminal = DefaultKeepTerminal
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.OutputInterval == 0 {
		opts.OutputInterval = DefaultOutputInterval
	}
	return &Registry{opts: opts, tasks: map[string]*task{}, sessions: map[string]*session{}, live: map[*task]struct{}{}}
}

// Reservation is a slot for one task, taken before its process is spawned.
// Spawn with its sinks, then Start; if the spawn fails, Cancel. Until one
// of them is called the slot counts against the limits.
type Reservation struct{ t *task }

// ID is the id the task will have.
func (res *Reservation) ID() string { return res.t.id }

// Stdout is the sink for the process's stdout; give it to the spawn.
func (res *Reservation) Stdout() io.Writer { return res.t.stdout }

// Stderr is the sink for the process's stderr.
func (res *Reservation) Stderr() io.Writer { return res.t.stderr }

// Reserve takes a slot for a new task of sessionID. sessionExists is asked
// first: a session that no longer exists (or was deleted through
// StopSession) is refused with SESSION_NOT_FOUND. The per-session limit is
// BACKGROUND_TASK_LIMIT, the process-wide ceiling BACKGROUND_TASK_HOST_LIMIT.
func (r *Registry) Reserve(sessionID string, sessionExists func() bool) (*Reservation, error) {
	if sessionID == "" {
		return nil, errs.New(errs.InvalidArgument, "a background task needs a session").With("field", "sessionId")
	}
	if sessionExists == nil || !sessionExists() {
		return nil, errs.New(errs.SessionNotFound, "the session no longer exists; a background task cannot start in it")
	}
	id := "bg-" + rand.Text()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, errs.New(errs.Conflict, "the host is shutting down; background tasks cannot start")
	}
	s := r.sessions[sessionID]
	if s != nil && s.deleted {
		return nil, errs.New(errs.SessionNotFound, "the session no longer exists; a background task cannot start in it")
	}
	if s != nil && s.active >= r.opts.PerSession {
		return nil, errs.New(errs.BackgroundTaskLimit,
			"this session already runs %d background tasks, the per-session limit of %d; stop one (or wait for one to end) before starting another",
			s.active, r.opts.PerSession).With("limit", r.opts.PerSession).With("scope", "session")
	}
	if r.active >= r.opts.Global {
		return nil, errs.New(errs.BackgroundTaskHostLimit,
			"the host already runs %d background tasks across all sessions, its ceiling of %d; stop tasks in any session before starting another",
			r.active, r.opts.Global).With("limit", r.opts.Global).With("scope", "host")
	}
	if s == nil {
		s = &session{}
		r.sessions[sessionID] = s
	}
	s.active++
	r.active++
	t := &task{r: r, id: id, session: sessionID, done: make(chan struct{})}
	t.stdout = &stream{t: t, ring: bash.NewRing(r.opts.RingBytes)}
	t.stderr = &stream{t: t, ring: bash.NewRing(r.opts.RingBytes)}
	r.tasks[id] = t
	return &Reservation{t: t}, nil
}

// Cancel gives the slot back after a failed spawn. It is a no-op after
// Start or a previous Cancel.
func (res *Reservation) Cancel() {
	t := res.t
	r := t.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if t.started || t.released {
		return
	}
	t.released = true
	r.releaseLocked(t)
	delete(r.tasks, t.id)
	r.retainLocked(t.session)
}

// Start registers the spawned process and returns the running task. The
// task belongs to the reserved session forever. If that session was
// deleted or the host began shutting down since Reserve, the task is
// stopped at once. A reservation starts once; a second Start or a Start
// after Cancel is CONFLICT.
func (res *Reservation) Start(command string, p Proc) (Task, error) {
	t := res.t
	r := t.r
	if p == nil {
		return Task{}, errs.New(errs.InvalidArgument, "no process to register")
	}
	r.mu.Lock()
	if t.started || t.released {
		r.mu.Unlock()
		return Task{}, errs.New(errs.Conflict, "reservation %s was already used", t.id)
	}
	s := r.sessions[t.session]
	t.started, t.command, t.proc = true, command, p
	t.state, t.startedAt = Running, r.opts.Now()
	s.order = append(s.order, t.id)
	r.live[t] = struct{}{}
	kill := s.deleted || r.closed
	if kill {
		t.state = Stopping
		t.killing++
	}
	snap := t.snapshotLocked()
	r.mu.Unlock()

	r.emit(EventStarted, snap)
	t.announced.Store(true)
	if t.stdout.total.Load()+t.stderr.total.Load() > 0 {
		t.notifyOutput() // what it printed before registration
	}
	go t.supervise()
	if kill {
		go t.kill()
	}
	return snap, nil
}

// supervise waits for the process, seals the streams (all output is in),
// then publishes the terminal state.
func (t *task) supervise() {
	code, err := t.proc.Wait()
	t.stdout.seal()
	t.stderr.seal()
	r := t.r
	r.mu.Lock()
	t.endedAt = r.opts.Now()
	switch {
	// Stopping too: the process can end from the signal before kill()
	// gets the lock to record that the signal went through.
	case t.killedOK || t.state == Stopping:
		t.state = Stopped
	case err != nil:
		t.state = Failed
	case code == 0:
		t.state = Exited
	default:
		t.state = Failed
	}
	if err != nil {
		t.errMsg = err.Error()
	} else {
		t.exitCode = &code
	}
	t.released = true
	r.releaseLocked(t)
	snap := t.snapshotLocked()
	r.retainLocked(t.session)
	r.mu.Unlock()
	r.emit(EventExited, snap)
	r.mu.Lock()
	delete(r.live, t) // after the event: WaitIdle returning means it was delivered
	r.mu.Unlock()
	close(t.done)
}

// releaseLocked gives t's slot back.
func (r *Registry) releaseLocked(t *task) {
	r.active--
	if s := r.sessions[t.session]; s != nil {
		s.active--
	}
}

// retainLocked drops the oldest finished tasks of a session beyond
// KeepTerminal, and all of a deleted session's tasks once none is live.
func (r *Registry) retainLocked(sessionID string) {
	s := r.sessions[sessionID]
	if s == nil {
		return
	}
	if s.deleted && s.active == 0 {
		for _, id := range s.order {
			delete(r.tasks, id)
		}
		s.order = nil
		return
	}
	terminal := 0
	for _, id := range s.order {
		if r.tasks[id].state.Terminal() {
			terminal++
		}
	}
	if terminal <= r.opts.KeepTerminal {
		return
	}
	drop := terminal - r.opts.KeepTerminal
	s.order = slices.DeleteFunc(s.order, func(id string) bool {
		if drop > 0 && r.tasks[id].state.Terminal() {
			drop--
			delete(r.tasks, id)
			return true
		}
		return false
	})
}

func (t *task) snapshotLocked() Task {
	return Task{
		ID: t.id, SessionID: t.session, Command: t.command, State: t.state,
		ExitCode: t.exitCode, Error: t.errMsg, StartedAt: t.startedAt, EndedAt: t.endedAt,
		Removed: t.removed,
	}
}

func (r *Registry) emit(event string, payload any) {
	if r.opts.Emit != nil {
		r.opts.Emit(event, payload)
	}
}

// lookupLocked finds a started task of sessionID. A task of another
// session, or of a deleted one, is NOT_FOUND: ids never leak across
// sessions.
func (r *Registry) lookupLocked(sessionID, taskID string) (*task, error) {
	t := r.tasks[taskID]
	if t == nil || !t.started || t.session != sessionID || r.sessions[sessionID].deleted {
		return nil, errs.New(errs.NotFound, "background task %q not found in this session", taskID).With("taskId", taskID)
	}
	return t, nil
}

// List returns sessionID's tasks, oldest first, without removed ones. A
// deleted session has none.
func (r *Registry) List(sessionID string) []Task {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.sessions[sessionID]
	if s == nil || s.deleted {
		return nil
	}
	out := make([]Task, 0, len(s.order))
	for _, id := range s.order {
		if t := r.tasks[id]; !t.removed {
			out = append(out, t.snapshotLocked())
		}
	}
	return out
}

// Get returns one task by id, removed or not.
func (r *Registry) Get(sessionID, taskID string) (Task, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, err := r.lookupLocked(sessionID, taskID)
	if err != nil {
		return Task{}, err
	}
	return t.snapshotLocked(), nil
}

// Output reads the tail of a task's streams: at most maxStdout and
// maxStderr characters (≤ 0 means the preview bounds, 8,000 and 4,000).
// The state is read first: a task seen terminal has all its output in.
func (r *Registry) Output(sessionID, taskID string, maxStdout, maxStderr int) (TaskOutput, error) {
	if maxStdout <= 0 {
		maxStdout = PreviewStdoutChars
	}
	if maxStderr <= 0 {
		maxStderr = PreviewStderrChars
	}
	r.mu.Lock()
	t, err := r.lookupLocked(sessionID, taskID)
	var snap Task
	if err == nil {
		snap = t.snapshotLocked()
	}
	r.mu.Unlock()
	if err != nil {
		return TaskOutput{}, err
	}
	return TaskOutput{Task: snap, Stdout: t.stdout.tail(maxStdout), Stderr: t.stderr.tail(maxStderr)}, nil
}

// Wait blocks until a task of sessionID has ended and all its output is in
// (or ctx ends: then it returns the state at that moment with ctx's
// error). An unknown id, or another session's, is NOT_FOUND.
func (r *Registry) Wait(ctx context.Context, sessionID, taskID string) (Task, error) {
	r.mu.Lock()
	t, err := r.lookupLocked(sessionID, taskID)
	r.mu.Unlock()
	if err != nil {
		return Task{}, err
	}
	var werr error
	select {
	case <-t.done:
	case <-ctx.Done():
		werr = ctx.Err()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return t.snapshotLocked(), werr
}

// Stop signals a task to stop. The task stays live (stopping) until its
// process has ended and its output is drained; then it is stopped. A
// failed signal is BACKGROUND_TASK_STOP_FAILED and may be retried; a
// finished task is a no-op.
func (r *Registry) Stop(sessionID, taskID string) error {
	r.mu.Lock()
	t, err := r.lookupLocked(sessionID, taskID)
	if err != nil {
		r.mu.Unlock()
		return err
	}
	if t.state.Terminal() {
		r.mu.Unlock()
		return nil
	}
	t.state = Stopping
	t.killing++
	r.mu.Unlock()
	if err := t.kill(); err != nil {
		return errs.Wrap(err, errs.BackgroundTaskStopFailed, "could not stop background task %q; try again", taskID).With("taskId", taskID)
	}
	return nil
}

// kill sends Kill with no lock held; the caller has counted it in killing.
func (t *task) kill() error {
	err := t.proc.Kill()
	r := t.r
	r.mu.Lock()
	defer r.mu.Unlock()
	t.killing--
	if err == nil {
		t.killedOK = true
	} else if t.killing == 0 && !t.killedOK && t.state == Stopping {
		t.state = Running // no signal got through: it is not being stopped
	}
	return err
}

// Remove hides a finished task from List. Only a terminal task can be
// removed: running or stopping is BACKGROUND_TASK_RUNNING. The task, its
// output and its id stay readable (Get, Output) until retention drops it.
func (r *Registry) Remove(sessionID, taskID string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, err := r.lookupLocked(sessionID, taskID)
	if err != nil {
		return err
	}
	if !t.state.Terminal() {
		return errs.New(errs.BackgroundTaskRunning,
			"background task %q is %s; only a finished task can be removed, stop it first", taskID, t.state).
			With("taskId", taskID).With("state", string(t.state))
	}
	t.removed = true
	return nil
}

// StopSession is for session deletion: it marks the session gone (no new
// task can start in it, none of its tasks is listed or readable), signals
// every live task to stop and returns without waiting. Kill errors are
// ignored: deletion never fails because a task could not be killed.
func (r *Registry) StopSession(sessionID string) {
	r.mu.Lock()
	s := r.sessions[sessionID]
	if s == nil {
		s = &session{}
		r.sessions[sessionID] = s
	}
	s.deleted = true
	live := r.stopAllLocked(func(t *task) bool { return t.session == sessionID })
	r.retainLocked(sessionID)
	r.mu.Unlock()
	for _, t := range live {
		go t.kill()
	}
}

// stopAllLocked marks the matching live tasks stopping and counts the
// Kill each is about to get.
func (r *Registry) stopAllLocked(match func(*task) bool) []*task {
	var live []*task
	for _, t := range r.tasks {
		if t.started && !t.state.Terminal() && match(t) {
			t.state = Stopping
			t.killing++
			live = append(live, t)
		}
	}
	return live
}

// Shutdown refuses new tasks and signals every live task to stop. It
// returns once each Kill call has returned; it does not wait for the
// processes to end or their output to drain (WaitIdle does) and takes no
// output lock.
func (r *Registry) Shutdown() {
	r.mu.Lock()
	r.closed = true
	live := r.stopAllLocked(func(*task) bool { return true })
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, t := range live {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.kill()
		}()
	}
	wg.Wait()
}

// WaitIdle waits until every started task has ended and its EventExited
// was delivered, or ctx ends.
func (r *Registry) WaitIdle(ctx context.Context) error {
	for {
		r.mu.Lock()
		var pending []chan struct{}
		for t := range r.live {
			pending = append(pending, t.done)
		}
		r.mu.Unlock()
		if len(pending) == 0 {
			return nil
		}
		for _, d := range pending {
			select {
			case <-d:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}
