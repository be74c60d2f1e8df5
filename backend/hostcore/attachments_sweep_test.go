package hostcore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// recordImages writes a finished tool call of session sid that refers to
// the stored images shas, as the agent's store does.
func recordImages(t *testing.T, c *Core, sid, id string, shas ...string) {
	t.Helper()
	var refs []tools.ImageRef
	for _, sha := range shas {
		refs = append(refs, tools.ImageRef{SHA256: sha, MediaType: "image/png", Width: 1, Height: 1, Bytes: 1})
	}
	col, err := json.Marshal(refs)
	if err != nil {
		t.Fatal(err)
	}
	db := c.store.DB()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO agent_turns (id, session_id, prompt, state, created_at, updated_at) VALUES (?, ?, 'p', 'done', 1, 1)`, []any{"turn-" + id, sid}},
		{`INSERT INTO agent_messages (id, session_id, turn_id, role, kind, created_at, updated_at) VALUES (?, ?, ?, 'assistant', 'model', 1, 1)`, []any{"msg-" + id, sid, "turn-" + id}},
		{`INSERT INTO agent_tool_calls (id, session_id, turn_id, message_id, tool_use_id, position, tool, args, state, images, created_at)
		  VALUES (?, ?, ?, ?, ?, 0, 'Shot', '{}', 'done', ?, 1)`, []any{id, sid, "turn-" + id, "msg-" + id, "tu-" + id, string(col)}},
	} {
		if _, err := db.ExecContext(t.Context(), q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
}

// storeOld stores data and makes the file an hour old: past the grace.
func storeOld(t *testing.T, c *Core, data string) (sha, path string) {
	t.Helper()
	sha, err := c.attachments.Put([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(c.AttachmentsDir(), sha)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return sha, path
}

func present(path string) bool { _, err := os.Lstat(path); return err == nil }

// Images go with the last session that refers to them: deleting a session
// removes its own old images, keeps one another session shares, and keeps
// a young one whose row may not be written yet; deleting the project
// removes the rest.
func TestDeletingSessionsSweepsTheirImages(t *testing.T) {
	c, a := newPipelineCore(t, nil)
	<-c.startupSwept
	b, err := c.sessions.Create(t.Context(), api.CreateSessionInput{ProjectID: a.ProjectID})
	if err != nil {
		t.Fatal(err)
	}
	own, ownPath := storeOld(t, c, "only a's")
	shared, sharedPath := storeOld(t, c, "a's and b's")
	_, strayPath := storeOld(t, c, "nobody's")
	youngSHA, err := c.attachments.Put([]byte("being stored"))
	if err != nil {
		t.Fatal(err)
	}
	youngPath := filepath.Join(c.AttachmentsDir(), youngSHA)
	recordImages(t, c, a.ID, "call-a", own, shared)
	recordImages(t, c, b.ID, "call-b", shared)

	if err := c.DeleteSession(t.Context(), a.ID); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{ownPath: false, strayPath: false, sharedPath: true, youngPath: true} {
		if present(path) != want {
			t.Errorf("after deleting a: %s present = %v, want %v", filepath.Base(path), !want, want)
		}
	}
	if err := c.RemoveProject(t.Context(), a.ProjectID); err != nil {
		t.Fatal(err)
	}
	if present(sharedPath) || !present(youngPath) {
		t.Errorf("after removing the project: shared present = %v, young present = %v", present(sharedPath), present(youngPath))
	}
}

// At startup the sweep runs in the background (New does not wait for
// it): an old image no row refers to is gone, a young one stays.
func TestStartupSweepsUnreferencedImages(t *testing.T) {
	c, s := newPipelineCore(t, nil)
	<-c.startupSwept
	kept, keptPath := storeOld(t, c, "referenced")
	recordImages(t, c, s.ID, "call-1", kept)
	_, stray := storeOld(t, c, "stray")
	youngSHA, err := c.attachments.Put([]byte("young"))
	if err != nil {
		t.Fatal(err)
	}
	young := filepath.Join(c.AttachmentsDir(), youngSHA)
	dataDir := c.cfg.DataDir
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := New(t.Context(), Config{DataDir: dataDir, RgPath: "-"})
	if err != nil {
		t.Fatal(err)
	}
	<-again.startupSwept
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	if present(stray) || !present(keptPath) || !present(young) {
		t.Errorf("after a start: stray %v (want gone), referenced %v, young %v", present(stray), present(keptPath), present(young))
	}
}
