package hostcore_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/review"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

func (e *env) artifactPaths(sessionID string) []string {
	e.t.Helper()
	got, err := e.core.Artifacts(e.t.Context(), sessionID)
	if err != nil {
		e.t.Fatal(err)
	}
	out := []string{}
	for _, a := range got {
		out = append(out, a.Path)
	}
	return out
}

// Spec §4b: only workspace deliverables are artifacts. Each case writes one
// file in auto mode (no cards) and says whether the session lists it.
func TestArtifactsRecordWorkspaceWritesOnly(t *testing.T) {
	cases := []struct {
		name     string
		path     func(e *env) string
		root     string
		delegate bool
		want     []string
	}{
		{name: "workspace", path: func(*env) string { return "docs/out.md" }, root: "workspace", want: []string{"docs/out.md"}},
		{name: "workspace by absolute path", path: func(e *env) string { return filepath.Join(e.project, "abs.txt") }, root: "workspace", want: []string{"abs.txt"}},
		{name: "scratch", path: func(e *env) string {
			return filepath.Join(e.core.Info().DataDir, "scratch", e.session.ID, "draft.txt")
		}, root: "scratch", want: []string{}},
		{name: "visualization", path: func(e *env) string {
			e.setViz(true)
			return filepath.Join(e.core.Info().DataDir, "visualizations", e.session.ID, "chart.html")
		}, root: "visualization", want: []string{}},
		{name: "external", path: func(e *env) string { return filepath.Join(e.outside, "notes.txt") }, root: "external", want: []string{}},
		{name: "a delegate's workspace write counts for its session", path: func(*env) string { return "from-delegate.txt" },
			root: "workspace", delegate: true, want: []string{"from-delegate.txt"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.configure("", "auto")
			req := hostcore.ToolRequest{SessionID: e.session.ID, TurnID: "turn", ToolCallID: "call-1", MessageID: "msg-1", Tool: "Write"}
			req.Args, _ = json.Marshal(map[string]any{"path": c.path(e), "content": "hello\n"})
			if c.delegate {
				req.Delegate, req.DelegationID, req.AllowedTools = "worker", "deleg-1", []string{"Write"}
			}
			res := e.core.Execute(t.Context(), req)
			if !res.OK || res.Root != c.root {
				t.Fatalf("Write = %+v; want ok in %s", res, c.root)
			}
			if got := e.artifactPaths(e.session.ID); !slices.Equal(got, c.want) {
				t.Errorf("artifacts = %v; want %v", got, c.want)
			}
		})
	}
}

// A temporary session's workspace is its scratch folder: its writes are
// scratch writes, never artifacts, but the Files pane browses them.
func TestTemporarySessionWritesAreNotArtifacts(t *testing.T) {
	e := newEnv(t)
	tmp, err := e.core.CreateSession(t.Context(), api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.core.ConfigureSession(t.Context(), tmp.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		t.Fatal(err)
	}
	if res := e.call(tmp.ID, "Write", map[string]any{"path": "note.txt", "content": "x\n"}); !res.OK {
		t.Fatalf("Write = %+v", res)
	}
	if got := e.artifactPaths(tmp.ID); len(got) != 0 {
		t.Errorf("artifacts = %v; want none", got)
	}
	l, err := e.core.ListFolder(t.Context(), tmp.ID, "")
	if err != nil || len(l.Entries) != 1 || l.Entries[0].Path != "note.txt" {
		t.Errorf("ListFolder = %+v, %v; want note.txt", l, err)
	}
}

func writeResult(t *testing.T, res tools.Result) review.Change {
	t.Helper()
	chs, ok := res.Fields["review"].([]review.Change)
	if !res.OK || !ok || len(chs) != 1 {
		t.Fatalf("result = %+v", res)
	}
	return chs[0]
}

// Rewrites move the last writer; a rollback rehashes the file, or drops it
// when the rollback removed it; an Edit that deletes the file drops it too.
func TestArtifactsFollowRewritesAndRollbacks(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	first := writeResult(t, e.call(e.session.ID, "Write", map[string]any{"path": "a.txt", "content": "one\n"}))
	e.call(e.session.ID, "Read", map[string]any{"path": "a.txt"})
	tag := ""
	if res := e.call(e.session.ID, "Read", map[string]any{"path": "a.txt"}); res.OK {
		tag, _ = res.Fields["tag"].(string)
	}
	second := writeResult(t, e.call(e.session.ID, "Write", map[string]any{"path": "a.txt", "content": "two\n", "tag": tag}))
	got, _ := e.core.Artifacts(t.Context(), e.session.ID)
	if len(got) != 1 || got[0].FirstMessageID != first.MessageID || got[0].LastMessageID != second.MessageID || !got[0].Exists {
		t.Fatalf("after two writes = %+v; want first %s, last %s", got, first.MessageID, second.MessageID)
	}
	if _, err := e.core.Rollback(t.Context(), e.session.ID, second.SnapshotID); err != nil {
		t.Fatal(err)
	}
	if got := e.artifactPaths(e.session.ID); !slices.Equal(got, []string{"a.txt"}) {
		t.Fatalf("after rolling back the rewrite = %v; want a.txt kept", got)
	}
	if _, err := e.core.Rollback(t.Context(), e.session.ID, first.SnapshotID); err != nil {
		t.Fatal(err)
	}
	if got := e.artifactPaths(e.session.ID); len(got) != 0 {
		t.Fatalf("after rolling back the creation = %v; want none", got)
	}
	if _, err := os.Stat(filepath.Join(e.project, "a.txt")); !os.IsNotExist(err) {
		t.Fatalf("a.txt still exists: %v", err)
	}
	// A file changed outside the agent is listed as missing once deleted.
	writeResult(t, e.call(e.session.ID, "Write", map[string]any{"path": "b.txt", "content": "b\n"}))
	if err := os.Remove(filepath.Join(e.project, "b.txt")); err != nil {
		t.Fatal(err)
	}
	got, _ = e.core.Artifacts(t.Context(), e.session.ID)
	if len(got) != 1 || got[0].Path != "b.txt" || got[0].Exists {
		t.Errorf("after the user deleted b.txt = %+v; want it listed as missing", got)
	}
	if err := e.core.DeleteSession(t.Context(), e.session.ID); err != nil {
		t.Fatal(err)
	}
}

// A checkpoint restore that removes a file the session created drops it
// from the session's files, as rolling back its creation does.
func TestArtifactsFollowACheckpointRestore(t *testing.T) {
	e := newEnv(t)
	e.configure("", "auto")
	writeResult(t, e.call(e.session.ID, "Write", map[string]any{"path": "made.txt", "content": "one\n"}))
	e.core.EndTurn(t.Context(), e.session.ID, "turn")
	if got := e.artifactPaths(e.session.ID); !slices.Equal(got, []string{"made.txt"}) {
		t.Fatalf("after the write = %v; want made.txt", got)
	}
	list, err := e.core.Checkpoints(t.Context(), e.session.ID)
	if err != nil || len(list) == 0 {
		t.Fatalf("checkpoints = %v, %v", list, err)
	}
	before := list[len(list)-1] // the oldest: before the turn's first write
	if _, err := e.core.RestoreCheckpoint(t.Context(), e.session.ID, before.ID, checkpoint.Overwrite{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.project, "made.txt")); !os.IsNotExist(err) {
		t.Fatalf("made.txt still exists: %v", err)
	}
	if got := e.artifactPaths(e.session.ID); len(got) != 0 {
		t.Fatalf("after the restore = %v; want none", got)
	}
}
