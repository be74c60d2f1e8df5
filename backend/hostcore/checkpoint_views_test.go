package hostcore_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// TestCommandChangesThroughExecute: a Bash call run through Execute shows
// up with the files it changed and the call that changed them; a Write
// never shows as a command; a session that does not exist is refused.
func TestCommandChangesThroughExecute(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	if res := e.call(e.session.ID, "Bash", map[string]any{"command": "echo changed > main.go; echo new > made.txt"}); !res.OK {
		t.Fatal(res)
	}
	if res := e.call(e.session.ID, "Write", map[string]any{"path": "w.txt", "content": "w\n"}); !res.OK {
		t.Fatal(res)
	}
	e.core.EndTurn(t.Context(), e.session.ID, "turn")
	got, err := e.core.CommandChanges(t.Context(), e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ToolCallID != "call-1" || len(got[0].Files) != 2 {
		t.Fatalf("command changes = %+v, want the one Bash call with its two files", got)
	}
	paths := map[string]string{}
	for _, f := range got[0].Files {
		paths[f.Path] = f.Status
	}
	if paths["main.go"] != "modified" || paths["made.txt"] != "added" {
		t.Errorf("files = %v", paths)
	}
	if _, err := e.core.CommandChanges(t.Context(), "no-such-session"); errs.CodeOf(err) != errs.SessionNotFound {
		t.Errorf("unknown session: %v", err)
	}
}

// TestCheckpointUsageAndClear: Settings' figures per project, and Clear
// checkpoints removes them from disk while the project's files stay.
func TestCheckpointUsageAndClear(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	usage, err := e.core.CheckpointUsage(t.Context())
	if err != nil || len(usage) != 1 || usage[0].Bytes != 0 {
		t.Fatalf("usage before = %+v, %v", usage, err)
	}
	if res := e.call(e.session.ID, "Bash", map[string]any{"command": "echo new > made.txt"}); !res.OK {
		t.Fatal(res)
	}
	usage, err = e.core.CheckpointUsage(t.Context())
	if err != nil || len(usage) != 1 || usage[0].Bytes <= 0 || usage[0].Checkpoints != 2 || usage[0].Shadows != 1 {
		t.Fatalf("usage after a Bash call = %+v, %v", usage, err)
	}
	freed, err := e.core.ClearCheckpoints(t.Context(), usage[0].ProjectID)
	if err != nil || freed != usage[0] {
		t.Fatalf("freed = %+v, %v; want %+v", freed, err, usage[0])
	}
	if shadows, _ := filepath.Glob(filepath.Join(e.core.Info().DataDir, "checkpoints", "*")); len(shadows) != 0 {
		t.Errorf("shadows left on disk: %v", shadows)
	}
	if list, _ := e.core.Checkpoints(t.Context(), e.session.ID); len(list) != 0 {
		t.Errorf("checkpoints left: %v", list)
	}
	if b, err := os.ReadFile(filepath.Join(e.project, "made.txt")); err != nil || string(b) != "new\n" {
		t.Errorf("made.txt = %q, %v: clearing must not touch the project's files", b, err)
	}
	if _, err := e.core.ClearCheckpoints(t.Context(), "no-such-project"); errs.CodeOf(err) != errs.ProjectNotFound {
		t.Errorf("unknown project: %v", err)
	}
}
