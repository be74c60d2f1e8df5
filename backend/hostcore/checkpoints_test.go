package hostcore_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

func kinds(list []checkpoint.Checkpoint) []checkpoint.Kind {
	var out []checkpoint.Kind
	for i := len(list) - 1; i >= 0; i-- { // oldest first
		out = append(out, list[i].Kind)
	}
	return out
}

func TestCheckpointsAroundATurnsWrites(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	if res := e.call(e.session.ID, "Read", map[string]any{"path": "main.go"}); !res.OK {
		t.Fatal(res)
	}
	list, err := e.core.Checkpoints(t.Context(), e.session.ID)
	if err != nil || len(list) != 0 {
		t.Fatalf("a Read took checkpoints: %v %v", list, err)
	}
	res := e.call(e.session.ID, "Bash", map[string]any{"command": "echo changed > main.go; echo new > new.txt; chmod +x new.txt"})
	if !res.OK {
		t.Fatal(res)
	}
	res = e.call(e.session.ID, "Bash", map[string]any{"command": "echo more >> new.txt"})
	if !res.OK {
		t.Fatal(res)
	}
	e.core.EndTurn(t.Context(), e.session.ID, "turn")
	list, err = e.core.Checkpoints(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []checkpoint.Kind{checkpoint.BeforeFirstMutation, checkpoint.AfterBash, checkpoint.AfterBash, checkpoint.EndOfTurn}
	if got := kinds(list); !equalKinds(got, want) {
		t.Fatalf("kinds = %v, want %v", got, want)
	}
	for _, cp := range list {
		if !cp.Captured || cp.TurnID != "turn" {
			t.Errorf("checkpoint %+v", cp)
		}
	}
	first := list[len(list)-1]

	plan, err := e.core.PreviewRestore(t.Context(), e.session.ID, first.ID)
	if err != nil || len(plan.Files) != 2 || plan.Conflicts != 0 {
		t.Fatalf("preview = %+v, %v", plan, err)
	}
	got, err := e.core.RestoreCheckpoint(t.Context(), e.session.ID, first.ID, checkpoint.Overwrite{})
	if err != nil || len(got.Restored) != 2 {
		t.Fatalf("restore = %+v, %v", got, err)
	}
	if b, _ := os.ReadFile(filepath.Join(e.project, "main.go")); string(b) != "package main\n\nfunc main() {}\n" {
		t.Errorf("main.go = %q", b)
	}
	if _, err := os.Lstat(filepath.Join(e.project, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("new.txt still there: %v", err)
	}

	// A new turn takes its own first checkpoint.
	e.core.EndTurn(t.Context(), e.session.ID, "")
	if res := e.call(e.session.ID, "Write", map[string]any{"path": "w.txt", "content": "w\n"}); !res.OK {
		t.Fatal(res)
	}
	list, _ = e.core.Checkpoints(t.Context(), e.session.ID)
	if list[0].Kind != checkpoint.BeforeFirstMutation {
		t.Errorf("newest after a Write = %s, want before-first-mutation", list[0].Kind)
	}

	data := e.core.Info().DataDir
	if err := e.core.DeleteSession(t.Context(), e.session.ID); err != nil {
		t.Fatal(err)
	}
	if refs, _ := filepath.Glob(filepath.Join(data, "checkpoints", "*", "git", "refs", "sessions", "*")); len(refs) != 0 {
		t.Errorf("refs left after the session was deleted: %v", refs)
	}
	if _, err := e.core.Checkpoints(t.Context(), e.session.ID); errs.CodeOf(err) != errs.SessionNotFound {
		t.Errorf("checkpoints of a deleted session: %v", err)
	}
}

// TestReadOnlyCommandTakesNoCheckpoint: a command that can change no file
// (ls, cat, grep… unredirected) is not snapshotted; the turn's first
// checkpoint comes with the first command that may write.
func TestReadOnlyCommandTakesNoCheckpoint(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	for _, cmd := range []string{"true", "ls -la | grep main", "cat main.go > /dev/null"} {
		if res := e.call(e.session.ID, "Bash", map[string]any{"command": cmd}); !res.OK {
			t.Fatal(cmd, res)
		}
	}
	if list, err := e.core.Checkpoints(t.Context(), e.session.ID); err != nil || len(list) != 0 {
		t.Fatalf("read-only commands took checkpoints: %v %v", kinds(list), err)
	}
	if res := e.call(e.session.ID, "Bash", map[string]any{"command": "cat main.go > copy.go"}); !res.OK {
		t.Fatal(res)
	}
	list, err := e.core.Checkpoints(t.Context(), e.session.ID)
	if want := []checkpoint.Kind{checkpoint.BeforeFirstMutation, checkpoint.AfterBash}; err != nil || !equalKinds(kinds(list), want) {
		t.Fatalf("kinds = %v (%v), want %v", kinds(list), err, want)
	}
	plan, err := e.core.PreviewRestore(t.Context(), e.session.ID, list[len(list)-1].ID)
	if err != nil || len(plan.Files) != 1 || plan.Files[0].Path != "copy.go" || plan.Conflicts != 0 {
		t.Fatalf("preview = %+v, %v", plan, err)
	}
}

func equalKinds(a, b []checkpoint.Kind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSlowCheckpointDoesNotDelayTheTool: snapshots that would take a
// minute each are abandoned at the cap; the Bash call itself succeeds, and
// its checkpoints say "not captured". The proof is not a stopwatch on a
// loaded machine: each snapshot's deadline is read where it runs, and a
// call that waited for the snapshots would take two minutes.
func TestSlowCheckpointDoesNotDelayTheTool(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	const capTime = 300 * time.Millisecond
	var mu sync.Mutex
	var deadlines []time.Duration
	slow := func(ctx context.Context) error {
		dl, ok := ctx.Deadline()
		mu.Lock()
		deadlines = append(deadlines, time.Until(dl))
		mu.Unlock()
		if !ok {
			t.Error("a snapshot ran without a deadline")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Minute):
			return nil
		}
	}
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: filepath.Join(root, "data"), Sink: &cards{reqs: make(chan permission.Request, 8)}, RgPath: "-",
		Checkpoints: checkpoint.Options{Cap: capTime, Slow: slow}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	p, err := core.AddProject(t.Context(), project)
	if err != nil {
		t.Fatal(err)
	}
	s, err := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, core: core, project: project, session: s}
	e.configure("", "auto")
	// The first command of a host warms the login-shell PATH probe (one
	// that writes: a read-only command takes no snapshot).
	if res := e.call(s.ID, "Bash", map[string]any{"command": "touch warm.txt"}); !res.OK {
		t.Fatal(res)
	}
	start := time.Now()
	res := core.Execute(t.Context(), hostcore.ToolRequest{SessionID: s.ID, TurnID: "turn-2", ToolCallID: "timed", Tool: "Bash",
		Args: []byte(`{"command":"echo hi > f.txt"}`)})
	took := time.Since(start)
	if !res.OK {
		t.Fatal(res)
	}
	if took > 30*time.Second {
		t.Errorf("Bash took %s: it waited for snapshots that take a minute", took)
	}
	mu.Lock()
	for _, d := range deadlines {
		if d > capTime {
			t.Errorf("a snapshot had %s left, more than the %s cap", d, capTime)
		}
	}
	if len(deadlines) != 4 {
		t.Errorf("%d snapshots ran, want 4 (before and after each command)", len(deadlines))
	}
	mu.Unlock()
	list, err := core.Checkpoints(t.Context(), s.ID)
	if err != nil || len(list) != 4 {
		t.Fatalf("checkpoints = %v, %v", list, err)
	}
	for _, cp := range list {
		if cp.Captured || cp.Reason == "" {
			t.Errorf("checkpoint %+v should be not captured with a reason", cp)
		}
	}
}

// TestUserEditBetweenCallsIsAConflict: through Execute, a user's edit made
// between two Bash calls of a turn is a conflict when the turn is undone,
// while what the commands and a Write changed comes back; the before-bash
// snapshot of the second command adds no checkpoint to the list.
func TestUserEditBetweenCallsIsAConflict(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	if res := e.call(e.session.ID, "Bash", map[string]any{"command": "echo one > one.txt"}); !res.OK {
		t.Fatal(res)
	}
	if err := os.WriteFile(filepath.Join(e.project, "mine.txt"), []byte("the user's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := e.call(e.session.ID, "Bash", map[string]any{"command": "echo two > two.txt"}); !res.OK {
		t.Fatal(res)
	}
	if res := e.call(e.session.ID, "Write", map[string]any{"path": "w.txt", "content": "w\n"}); !res.OK {
		t.Fatal(res)
	}
	e.core.EndTurn(t.Context(), e.session.ID, "turn")
	list, err := e.core.Checkpoints(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []checkpoint.Kind{checkpoint.BeforeFirstMutation, checkpoint.AfterBash, checkpoint.AfterBash, checkpoint.EndOfTurn}
	if got := kinds(list); !equalKinds(got, want) {
		t.Fatalf("kinds = %v, want %v", got, want)
	}
	first := list[len(list)-1]
	plan, err := e.core.PreviewRestore(t.Context(), e.session.ID, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	conflicts := map[string]bool{}
	for _, f := range plan.Files {
		if f.Conflict {
			conflicts[f.Path] = true
		}
	}
	if len(plan.Files) != 4 || plan.Conflicts != 1 || !conflicts["mine.txt"] {
		t.Fatalf("preview: %d files, conflicts %v; want one.txt, two.txt, w.txt and mine.txt, the user's alone a conflict: %+v", len(plan.Files), conflicts, plan.Files)
	}
	res, err := e.core.RestoreCheckpoint(t.Context(), e.session.ID, first.ID, checkpoint.Overwrite{})
	if err != nil || len(res.Restored) != 3 || len(res.Skipped) != 1 {
		t.Fatalf("restore = %+v, %v", res, err)
	}
	for _, name := range []string{"one.txt", "two.txt", "w.txt"} {
		if _, err := os.Lstat(filepath.Join(e.project, name)); !os.IsNotExist(err) {
			t.Errorf("%s the agent made is still there: %v", name, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(e.project, "mine.txt")); string(b) != "the user's\n" {
		t.Errorf("mine.txt = %q, the user's file was not kept", b)
	}
}
