package history_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/migrations"
)

// openDB opens a real database file with every migration applied.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "pi.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st.DB()
}

// migrationsBefore is the embedded migrations older than version.
func migrationsBefore(t testing.TB, version int) fs.FS {
	t.Helper()
	all, err := store.LoadMigrations(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	out := fstest.MapFS{}
	for _, m := range all {
		if m.Version < version {
			out[fmt.Sprintf("%04d_%s.sql", m.Version, m.Name)] = &fstest.MapFile{Data: []byte(m.SQL)}
		}
	}
	return out
}

// migrationNamed is the version of the embedded migration called name.
func migrationNamed(t testing.TB, name string) int {
	t.Helper()
	all, err := store.LoadMigrations(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		if m.Name == name {
			return m.Version
		}
	}
	t.Fatalf("no migration named %q", name)
	return 0
}

// transcript writes rows the way the agent's store does.
type transcript struct {
	t   testing.TB
	db  *sql.DB
	now int64
}

func (tr *transcript) exec(q string, args ...any) {
	tr.t.Helper()
	if _, err := tr.db.Exec(q, args...); err != nil {
		tr.t.Fatalf("%s: %v", q, err)
	}
}

func (tr *transcript) tick() int64 { tr.now += 1000; return tr.now }

func (tr *transcript) project(id, name, path string) {
	tr.exec(`INSERT INTO projects (id, name, path, created_at, updated_at) VALUES (?, ?, ?, 1, 1)`, id, name, path)
}

func (tr *transcript) session(id, projectID, title string) {
	tr.exec(`INSERT INTO sessions (id, project_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		id, projectID, title, tr.tick(), tr.now)
}

func (tr *transcript) turn(id, sessionID, prompt string) {
	tr.exec(`INSERT INTO agent_turns (id, session_id, prompt, state, created_at, updated_at) VALUES (?, ?, ?, 'done', ?, ?)`,
		id, sessionID, prompt, tr.tick(), tr.now)
}

func blocks(texts ...string) string {
	var bs []map[string]any
	for _, s := range texts {
		bs = append(bs, map[string]any{"type": "text", "text": s})
	}
	b, _ := json.Marshal(bs)
	return string(b)
}

func (tr *transcript) prompt(id, sessionID, turnID, text string) {
	tr.exec(`INSERT INTO agent_messages (id, session_id, turn_id, role, kind, content, created_at, updated_at)
		VALUES (?, ?, ?, 'user', 'prompt', ?, ?, ?)`, id, sessionID, turnID, blocks(text), tr.tick(), tr.now)
}

// answer streams an assistant message in parts, then finishes it.
func (tr *transcript) answer(id, sessionID, turnID string, parts ...string) {
	tr.exec(`INSERT INTO agent_messages (id, session_id, turn_id, role, kind, content, created_at, updated_at)
		VALUES (?, ?, ?, 'assistant', 'model', '[]', ?, ?)`, id, sessionID, turnID, tr.tick(), tr.now)
	text := ""
	for _, p := range parts {
		text += p
		tr.exec(`UPDATE agent_messages SET content = ?, updated_at = ? WHERE id = ?`, blocks(text), tr.tick(), id)
	}
	tr.exec(`UPDATE agent_messages SET stop_reason = 'end_turn', input_tokens = 1200, output_tokens = 80,
		cache_read_tokens = 1000, cost = 4200000000 WHERE id = ?`, id)
}

// call records a tool call as pending, running, then finished.
func (tr *transcript) call(id, sessionID, turnID, messageID string, position int, tool, args, result, modelText string) {
	tr.exec(`INSERT INTO agent_tool_calls (id, session_id, turn_id, message_id, tool_use_id, position, tool, args, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, sessionID, turnID, messageID, "tu_"+id, position, tool, args, tr.tick())
	tr.exec(`UPDATE agent_tool_calls SET state = 'running', started_at = ? WHERE id = ?`, tr.tick(), id)
	tr.exec(`UPDATE agent_tool_calls SET state = 'done', result = ?, model_text = ?, finished_at = ? WHERE id = ?`,
		result, modelText, tr.tick(), id)
}

func (tr *transcript) count(q string, args ...any) int {
	tr.t.Helper()
	var n int
	if err := tr.db.QueryRow(q, args...).Scan(&n); err != nil {
		tr.t.Fatal(err)
	}
	return n
}
