package hostcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

func TestBashRunsInTheWorkspace(t *testing.T) {
	e := newEnv(t)
	res, card := e.callAnswering(e.session.ID, "Bash", map[string]any{"command": "pwd; echo \"$PI_SCRATCH_DIR\"; echo oops >&2"}, permission.AllowOnce)
	if !res.OK || card.Risk != permission.High || !strings.Contains(card.Preview, "pwd") {
		t.Fatalf("Bash = %+v card=%+v", res, card)
	}
	canon, _ := filepath.EvalSymlinks(e.project)
	scratch := filepath.Join(e.core.Info().DataDir, "scratch", e.session.ID)
	if !strings.Contains(res.Content, canon) || !strings.Contains(res.Content, scratch) || !strings.Contains(res.Content, "oops") {
		t.Errorf("content = %q", res.Content)
	}
	if fi, err := os.Stat(scratch); err != nil || !fi.IsDir() {
		t.Error("PI_SCRATCH_DIR was not created")
	}
}

func TestBashResults(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	res := e.call(e.session.ID, "Bash", map[string]any{"command": "echo partial; exit 3"})
	if res.OK || res.Code != errs.ToolFailed || res.Fields["exitCode"] != 3 || !strings.Contains(res.Content, "partial") {
		t.Errorf("exit 3 = %+v", res)
	}
	start := time.Now()
	// 3 s, not 1: on a loaded machine starting bash alone can take a second,
	// and the output before the timeout is what this checks is kept.
	res = e.call(e.session.ID, "Bash", map[string]any{"command": "echo before; sleep 30", "timeout": 3})
	if res.Code != errs.ToolTimeout || res.Details["timeoutMs"] != int64(3000) || !strings.Contains(res.Content, "before") {
		t.Errorf("timeout = %+v", res)
	}
	if time.Since(start) > 20*time.Second {
		t.Error("the timed-out tree was not stopped")
	}
	res = e.call(e.session.ID, "Bash", map[string]any{"command": "seq 1 200000"})
	out, _ := res.Fields["stdout"].(string)
	spill, _ := res.Fields["spill"].(map[string]string)
	if !res.OK || len(out) > 100<<10 || !strings.HasPrefix(out, "1\n2\n") || spill["stdout"] == "" {
		t.Fatalf("big output: ok=%v len=%d spill=%v", res.OK, len(out), spill)
	}
	if !strings.Contains(out, "[truncated: kept the first") {
		t.Errorf("no truncation marker in %q", out[len(out)-300:])
	}
	if b, err := os.ReadFile(spill["stdout"]); err != nil || !strings.HasPrefix(string(b), "1\n2\n3\n") {
		t.Errorf("spill file: %v", err)
	}
}

func TestBashStopKillsTheTree(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	marker := fmt.Sprintf("pi-test-%d", time.Now().UnixNano())
	done := make(chan tools.Result, 1)
	ready := filepath.Join(e.project, "ready")
	go func() {
		done <- e.call(e.session.ID, "Bash", map[string]any{"command": "echo started; setsid sh -c 'sleep 1000; echo " + marker + "' & touch ready; sleep 1000"})
	}()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
	}
	e.core.StopSession(e.session.ID)
	select {
	case res := <-done:
		if res.Code != errs.ToolAborted || !strings.Contains(res.Content, "started") {
			t.Errorf("stopped Bash = %+v", res)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Stop did not end the command")
	}
	if survivors := processesWith(marker); len(survivors) > 0 {
		t.Errorf("processes survived the Stop: %v", survivors)
	}
}

// processesWith lists the pids whose command line contains marker (Linux).
func processesWith(marker string) []string {
	var out []string
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range dirs {
		if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), marker) {
			out = append(out, f)
		}
	}
	return out
}

func TestBashBackgroundTasks(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	marker := fmt.Sprintf("pi-bg-%d", time.Now().UnixNano())
	res := e.call(e.session.ID, "Bash", map[string]any{"command": "echo hello-from-bg; echo x > \"$PI_SCRATCH_DIR/busy\"; sh -c 'sleep 1000; echo " + marker + "'", "runInBackground": true})
	id, _ := res.Fields["backgroundTaskId"].(string)
	if !res.OK || id == "" {
		t.Fatalf("background = %+v", res)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, err := e.core.TaskOutput(e.session.ID, id)
		if err == nil && strings.Contains(out.Stdout.Text, "hello-from-bg") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no output: %+v %v", out, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	other, _ := e.core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.session.ProjectID})
	if _, err := e.core.TaskOutput(other.ID, id); err == nil {
		t.Error("another session read the task")
	}
	if err := e.core.RemoveTask(e.session.ID, id); err == nil {
		t.Error("a running task was removed")
	}
	if err := e.core.DeleteSession(t.Context(), e.session.ID); err != nil {
		t.Fatal(err)
	}
	// Deleting signals the task and returns; its whole tree ends soon after.
	deadline = time.Now().Add(15 * time.Second)
	for len(processesWith(marker)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("deleting the session left its task running: %v", processesWith(marker))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestBashShellPinAndPlan(t *testing.T) {
	e := newEnv(t)
	e.configure("plan", "auto")
	raw, _ := json.Marshal(map[string]any{"command": "echo ok"})
	res := e.core.Execute(t.Context(), hostcore.ToolRequest{SessionID: e.session.ID, ToolCallID: "pin", Tool: "Bash", Args: raw,
		Shell: tools.ShellPin{ID: "bash", Dialect: "powershell"}})
	if res.Code != errs.CommandShellChanged {
		t.Errorf("changed dialect = %+v", res)
	}
	res = e.core.Execute(context.Background(), hostcore.ToolRequest{SessionID: e.session.ID, ToolCallID: "plan", Tool: "Bash", Args: raw,
		Shell: tools.ShellPin{ID: "bash", Dialect: "posix"}})
	if !res.OK {
		t.Errorf("Bash in plan/auto = %+v", res)
	}
}
