package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/bgtask"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

func TestTailWindow(t *testing.T) {
	tests := []struct {
		name            string
		in              string
		maxBytes, lines int
		want            string
		wantCut         bool
	}{
		{"fits", "a\nb\n", 100, 10, "a\nb\n", false},
		{"line cap keeps the last lines", "1\n2\n3\n4\n", 100, 2, "3\n4\n", true},
		{"line cap without final newline", "1\n2\n3", 100, 2, "2\n3", true},
		{"byte cap starts at a line", "aaaa\nbbbb\ncc\n", 7, 10, "cc\n", true},
		{"one long line is cut inside", "xxxxxxxxxx", 4, 10, "xxxx", true},
		{"never splits a character", "ééééé", 5, 10, "éé", true},
	}
	for _, tt := range tests {
		got, cut := tailWindow(tt.in, tt.maxBytes, tt.lines)
		if got != tt.want || cut != tt.wantCut {
			t.Errorf("%s: tailWindow(%q, %d, %d) = %q, %v; want %q, %v", tt.name, tt.in, tt.maxBytes, tt.lines, got, cut, tt.want, tt.wantCut)
		}
		if !utf8.ValidString(got) {
			t.Errorf("%s: invalid UTF-8 %q", tt.name, got)
		}
	}
}

// doneProc is a process that already ended with code.
type doneProc struct{ code int }

func (p doneProc) Wait() (int, error) { return p.code, nil }
func (p doneProc) Kill() error        { return nil }

func TestBashOutputBoundsEachStream(t *testing.T) {
	reg := bgtask.NewRegistry(bgtask.Options{})
	res, err := reg.Reserve("s1", func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&out, "line %d ✓\n", i)
	}
	_, _ = res.Stdout().Write([]byte(out.String()))
	_, _ = res.Stderr().Write([]byte("warning: x\n"))
	task, err := res.Start("gen", doneProc{code: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Wait(t.Context(), "s1", task.ID); err != nil {
		t.Fatal(err)
	}
	tool := bashOutputTool{deps: BashDeps{Tasks: reg, Now: time.Now}}
	run := func(session string, args map[string]any) Result {
		raw, _ := json.Marshal(args)
		return tool.Run(t.Context(), &Call{SessionID: session, Args: raw})
	}

	r := run("s1", map[string]any{"taskId": task.ID})
	stdout, _ := r.Fields["stdout"].(string)
	if !r.OK || r.Fields["exitCode"] != 2 || r.Fields["state"] != "failed" || !strings.Contains(r.Content, "failed: exited with code 2") {
		t.Fatalf("BashOutput = %+v", r)
	}
	if !strings.HasSuffix(stdout, "line 4999 ✓\n") || strings.Count(stdout, "\n") > taskTailLines || len(stdout) > taskTailBytes ||
		!strings.HasPrefix(stdout, "line ") || r.Fields["stdoutTruncated"] != true {
		t.Errorf("stdout tail: %d bytes, %d lines, starts %q", len(stdout), strings.Count(stdout, "\n"), stdout[:20])
	}
	if !strings.Contains(r.Content, "[truncated: kept the last") || !strings.Contains(r.Content, "warning: x") {
		t.Errorf("content lacks the marker or stderr:\n%.300s", r.Content)
	}
	if len(r.Content) > ResultMaxBytes || strings.Count(r.Content, "\n") >= ResultMaxLines {
		t.Errorf("the result (%d bytes) would be cut by the pipeline", len(r.Content))
	}

	one := run("s1", map[string]any{"taskId": task.ID, "stream": "stdout"})
	if s, _ := one.Fields["stdout"].(string); len(s) <= len(stdout) || one.Fields["stderr"] != nil || strings.Contains(one.Content, "warning") {
		t.Errorf("one stream should get the whole budget: %d vs %d bytes", len(s), len(stdout))
	}
	if r := run("intruder", map[string]any{"taskId": task.ID}); r.OK || r.Code != errs.NotFound {
		t.Errorf("another session read the task: %+v", r)
	}
	stop := bashStopTool{deps: BashDeps{Tasks: reg}}
	raw, _ := json.Marshal(map[string]any{"taskId": task.ID})
	if r := stop.Run(t.Context(), &Call{SessionID: "s1", Args: raw}); r.OK || r.Code != errs.BackgroundTaskNotRunning || !strings.Contains(r.Message, "BashOutput") {
		t.Errorf("BashStop of an ended task = %+v", r)
	}
}
