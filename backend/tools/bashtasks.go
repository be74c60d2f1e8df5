package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/bgtask"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// BashOutput and BashStop are the model's handle on the background tasks
// Bash starts with runInBackground. Both are deferred (loaded through
// ToolSearch) and low risk: they only see tasks of the calling session (the
// registry answers NOT_FOUND for any other id), start nothing and name no
// path.

// Per-stream tail bounds of BashOutput: both streams together stay under
// the 48 KB / 2,000-line result limit, so the pipeline never cuts one.
const (
	taskTailBytes = 20 << 10
	taskTailLines = 800
	// stopWait is how long BashStop waits for the stopped tree to end.
	stopWait = 5 * time.Second
)

type taskArgs struct {
	TaskID string `json:"taskId"`
	Stream string `json:"stream"`
}

func decodeTaskArgs(tool string, raw json.RawMessage) (taskArgs, error) {
	var a taskArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, errs.Wrap(err, errs.InvalidArgument, "%s arguments do not decode", tool)
	}
	a.TaskID = strings.TrimSpace(a.TaskID)
	if a.TaskID == "" {
		return a, errs.New(errs.InvalidArgument, "%s needs taskId: the backgroundTaskId that Bash returned", tool).With("field", "taskId")
	}
	return a, nil
}

func noTasks() Result {
	return Failure(errs.New(errs.ToolFailed, "background tasks are not available in this host"))
}

type bashOutputTool struct{ deps BashDeps }

func (bashOutputTool) Spec() Spec {
	return Spec{
		Name: "BashOutput",
		Description: "Read a background Bash task (started with runInBackground): its state (running, stopping, exited, failed, stopped), " +
			"its exit code once it ended, and the latest output: the last 20 KB / 800 lines of stdout and of stderr, or 40 KB / 1,600 lines " +
			"when you ask for one stream. It returns at once and never waits for more output: call it again later to see newer lines. " +
			"Only tasks started in this session are visible.",
		Summary: "Read the state, exit code and latest output of a background Bash task (runInBackground).",
		Class:   permission.ClassTask, Risk: permission.Low, Shape: NoPath, Deferred: true,
		Timeout: 10 * time.Second,
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "taskId": {"type": "string", "minLength": 1, "description": "The backgroundTaskId Bash returned."},
    "stream": {"type": "string", "enum": ["stdout", "stderr", "both"], "description": "Which output to show (default both)."}
  },
  "required": ["taskId"],
  "additionalProperties": false
}`),
	}
}

func (t bashOutputTool) Run(ctx context.Context, c *Call) Result {
	a, err := decodeTaskArgs("BashOutput", c.Args)
	if err != nil {
		return Failure(err)
	}
	if t.deps.Tasks == nil {
		return noTasks()
	}
	if a.Stream == "" {
		a.Stream = "both"
	}
	streams := []string{"stdout", "stderr"}
	if a.Stream != "both" {
		streams = []string{a.Stream}
	}
	maxBytes, maxLines := taskTailBytes*2/len(streams), taskTailLines*2/len(streams)
	// maxBytes characters are at least maxBytes bytes: the window below
	// then cuts by bytes and lines.
	out, err := t.deps.Tasks.Output(c.SessionID, a.TaskID, maxBytes, maxBytes)
	if err != nil {
		return Failure(err)
	}
	task := out.Task
	var b strings.Builder
	fmt.Fprintf(&b, "Background task %s: %s\nCommand: %s\n", task.ID, taskStatus(task, clockNow(t.deps.Now)), task.Command)
	fields := map[string]any{"taskId": task.ID, "state": string(task.State), "command": task.Command}
	if task.ExitCode != nil {
		fields["exitCode"] = *task.ExitCode
	}
	for _, name := range streams {
		so := out.Stdout
		if name == "stderr" {
			so = out.Stderr
		}
		text, cut := tailWindow(so.Text, maxBytes, maxLines)
		truncated := cut || so.Truncated
		fields[name] = text
		fields[name+"Bytes"] = so.TotalBytes
		fields[name+"Truncated"] = truncated
		switch {
		case so.TotalBytes == 0 && !task.State.Terminal():
			fmt.Fprintf(&b, "\n--- %s: no output yet ---\n", name)
			continue
		case so.TotalBytes == 0:
			fmt.Fprintf(&b, "\n--- %s: no output ---\n", name)
			continue
		}
		fmt.Fprintf(&b, "\n--- %s ---\n", name)
		if truncated {
			fmt.Fprintf(&b, "[truncated: kept the last %d bytes of the %d the task printed; limit %d lines / %d KB per stream. "+
				"Ask for one stream to see more of it, or redirect the command's output to a file under $PI_SCRATCH_DIR and Read it.]\n",
				len(text), so.TotalBytes, maxLines, maxBytes>>10)
		}
		b.WriteString(text)
		if !strings.HasSuffix(text, "\n") {
			b.WriteString("\n")
		}
	}
	return Result{OK: true, Content: b.String(), Fields: fields}
}

// taskStatus says where a task is in its life, for the model.
func taskStatus(t bgtask.Task, now time.Time) string {
	switch t.State {
	case bgtask.Running:
		return fmt.Sprintf("running for %s (no exit code yet)", now.Sub(t.StartedAt).Round(time.Second))
	case bgtask.Stopping:
		return "stopping (a stop was requested; the process tree is ending)"
	case bgtask.Exited:
		return "exited with code 0"
	case bgtask.Stopped:
		return "stopped on request" + exitSuffix(t)
	default:
		if t.ExitCode != nil {
			return fmt.Sprintf("failed: exited with code %d", *t.ExitCode)
		}
		return "failed: " + t.Error
	}
}

func exitSuffix(t bgtask.Task) string {
	if t.ExitCode == nil {
		return ""
	}
	return fmt.Sprintf(" (exit code %d)", *t.ExitCode)
}

func clockNow(f func() time.Time) time.Time {
	if f == nil {
		return time.Now()
	}
	return f()
}

// tailWindow keeps the end of s: at most maxBytes bytes and maxLines lines,
// starting at a line start when the cut falls inside a line that is not
// the last one, and always at a character boundary. cut reports whether
// anything was dropped.
func tailWindow(s string, maxBytes, maxLines int) (string, bool) {
	start := 0
	if len(s) > maxBytes {
		start = len(s) - len(truncate.Tail(s, maxBytes))
		// Drop the partial first line, unless it is the only one.
		if k := strings.IndexByte(s[start:], '\n'); k >= 0 && start+k+1 < len(s) {
			start += k + 1
		}
	}
	// Count lines from the end; a final newline does not start a line.
	end := len(s)
	if strings.HasSuffix(s, "\n") {
		end--
	}
	lines := 1
	for i := end - 1; i >= start; i-- {
		if s[i] != '\n' {
			continue
		}
		if lines == maxLines {
			start = i + 1
			break
		}
		lines++
	}
	return s[start:], start > 0
}

type bashStopTool struct{ deps BashDeps }

func (bashStopTool) Spec() Spec {
	return Spec{
		Name: "BashStop",
		Description: "Stop a running background Bash task of this session (its whole process tree) and report how it ended. " +
			"A task that already ended cannot be stopped; read its final output with BashOutput instead.",
		Summary: "Stop a running background Bash task of this session.",
		Class:   permission.ClassTask, Risk: permission.Low, Shape: NoPath, Deferred: true,
		Timeout: 15 * time.Second,
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "taskId": {"type": "string", "minLength": 1, "description": "The backgroundTaskId Bash returned."}
  },
  "required": ["taskId"],
  "additionalProperties": false
}`),
	}
}

func (t bashStopTool) Run(ctx context.Context, c *Call) Result {
	a, err := decodeTaskArgs("BashStop", c.Args)
	if err != nil {
		return Failure(err)
	}
	tasks := t.deps.Tasks
	if tasks == nil {
		return noTasks()
	}
	task, err := tasks.Get(c.SessionID, a.TaskID)
	if err != nil {
		return Failure(err)
	}
	if task.State.Terminal() {
		return Failure(errs.New(errs.BackgroundTaskNotRunning,
			"background task %s already ended (%s); there is nothing to stop. Read its final output with BashOutput", task.ID, taskStatus(task, clockNow(t.deps.Now))).
			With("taskId", task.ID).With("state", string(task.State)))
	}
	if err := tasks.Stop(c.SessionID, a.TaskID); err != nil {
		return Failure(err)
	}
	wctx, cancel := context.WithTimeout(ctx, stopWait)
	defer cancel()
	task, werr := tasks.Wait(wctx, c.SessionID, a.TaskID)
	fields := map[string]any{"taskId": task.ID, "state": string(task.State)}
	if task.ExitCode != nil {
		fields["exitCode"] = *task.ExitCode
	}
	if werr != nil {
		return Result{OK: true, Fields: fields, Content: fmt.Sprintf("Stop requested for background task %s (%s); it is still ending after %s. "+
			"Check it with BashOutput.", task.ID, task.Command, stopWait)}
	}
	return Result{OK: true, Fields: fields, Content: fmt.Sprintf("Background task %s (%s) is %s. Its last output is still readable with BashOutput.",
		task.ID, task.Command, taskStatus(task, clockNow(t.deps.Now)))}
}
