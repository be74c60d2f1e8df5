package store_test

import (
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/store"
)

// Every write to projects, sessions or settings bumps the config generation
// in its own transaction (hostcore caches those rows on it); other tables
// leave it alone.
func TestConfigGenerationCountsEveryConfigWrite(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "pi.sqlite"), store.Options{})
	defer s.Close()
	gen := func() int64 {
		t.Helper()
		var n int64
		if err := s.DB().QueryRowContext(t.Context(), "SELECT n FROM config_generation WHERE id = 1").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	steps := []struct {
		sql  string
		bump bool
	}{
		{"INSERT INTO projects (id, name, path, created_at, updated_at) VALUES ('p', 'p', '/p', 0, 0)", true},
		{"UPDATE projects SET setup_command = 'make' WHERE id = 'p'", true},
		{"INSERT INTO sessions (id, project_id, title, created_at, updated_at) VALUES ('s', 'p', 't', 0, 0)", true},
		{"UPDATE sessions SET permission_mode = 'auto' WHERE id = 's'", true},
		{"UPDATE sessions SET operating_mode = 'plan' WHERE id = 's'", true},
		{"INSERT INTO settings (key, value) VALUES ('app', '{}')", true},
		{"UPDATE settings SET value = '{\"theme\":\"dark\"}' WHERE key = 'app'", true},
		{"INSERT INTO settings (key, value) VALUES ('app', '{}') ON CONFLICT (key) DO UPDATE SET value = excluded.value", true},
		{"DELETE FROM settings WHERE key = 'app'", true},
		{"DELETE FROM sessions WHERE id = 's'", true},
		{"DELETE FROM projects WHERE id = 'p'", true},
		{"UPDATE sessions SET title = 'x' WHERE id = 'gone'", false}, // no row changed
		{"INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'x', 0)", false},
	}
	for _, st := range steps {
		before := gen()
		if _, err := s.DB().ExecContext(t.Context(), st.sql); err != nil {
			t.Fatalf("%s: %v", st.sql, err)
		}
		if got := gen() - before; (got == 1) != st.bump || got > 1 {
			t.Errorf("%s: generation moved by %d; want a bump: %v", st.sql, got, st.bump)
		}
	}
}
