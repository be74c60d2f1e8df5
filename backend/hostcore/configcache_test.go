package hostcore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/platform/paths"
)

// writers change a session's modes and the settings the three ways a
// running app can see them change: through its own services, through
// another process on the same data directory (`pi-desktop tool`/`run`), and
// by a hand edit of the database.
type configWriter struct {
	name     string
	session  func(e *env, mode, perm string)
	settings func(e *env, defaultPerm string)
	remove   func(e *env)
}

func configWriters() []configWriter {
	other := func(e *env) *hostcore.Core {
		e.t.Helper()
		c, err := hostcore.New(e.t.Context(), hostcore.Config{DataDir: e.core.Info().DataDir, RgPath: "-"})
		if err != nil {
			e.t.Fatal(err)
		}
		e.t.Cleanup(func() { c.Close() })
		return c
	}
	settingsVia := func(e *env, c *hostcore.Core, perm string) {
		e.t.Helper()
		s, err := c.Settings(e.t.Context())
		if err != nil {
			e.t.Fatal(err)
		}
		s.DefaultPermissionMode = perm
		if _, err := c.UpdateSettings(e.t.Context(), s); err != nil {
			e.t.Fatal(err)
		}
	}
	sqlExec := func(e *env, q string, args ...any) {
		e.t.Helper()
		st, err := store.Open(e.t.Context(), paths.Layout{Root: e.core.Info().DataDir}.Database(), store.Options{})
		if err != nil {
			e.t.Fatal(err)
		}
		defer st.Close()
		if _, err := st.DB().ExecContext(e.t.Context(), q, args...); err != nil {
			e.t.Fatal(err)
		}
	}
	return []configWriter{
		{
			name:     "own services",
			session:  func(e *env, mode, perm string) { e.configure(mode, perm) },
			settings: func(e *env, perm string) { settingsVia(e, e.core, perm) },
			remove: func(e *env) {
				if err := e.core.DeleteSession(e.t.Context(), e.session.ID); err != nil {
					e.t.Fatal(err)
				}
			},
		},
		{
			name: "another process",
			session: func(e *env, mode, perm string) {
				if _, err := other(e).ConfigureSession(e.t.Context(), e.session.ID, api.SessionConfig{OperatingMode: mode, PermissionMode: perm}); err != nil {
					e.t.Fatal(err)
				}
			},
			settings: func(e *env, perm string) { settingsVia(e, other(e), perm) },
			remove: func(e *env) {
				if err := other(e).DeleteSession(e.t.Context(), e.session.ID); err != nil {
					e.t.Fatal(err)
				}
			},
		},
		{
			name: "hand edit",
			session: func(e *env, mode, perm string) {
				if mode == "" {
					sqlExec(e, "UPDATE sessions SET permission_mode = ? WHERE id = ?", perm, e.session.ID)
					return
				}
				sqlExec(e, "UPDATE sessions SET operating_mode = ?, permission_mode = ? WHERE id = ?", mode, perm, e.session.ID)
			},
			settings: func(e *env, perm string) {
				sqlExec(e, "INSERT INTO settings (key, value) VALUES ('app', json_object('defaultPermissionMode', ?)) ON CONFLICT (key) DO UPDATE SET value = excluded.value", perm)
			},
			remove: func(e *env) { sqlExec(e, "DELETE FROM sessions WHERE id = ?", e.session.ID) },
		},
	}
}

// warm makes two allowed Writes, so the binding and settings are cached.
func (e *env) warm() {
	e.t.Helper()
	for range 2 {
		if res := e.call(e.session.ID, "Write", map[string]any{"path": fmt.Sprintf("warm-%d.txt", e.n), "content": "x"}); !res.OK {
			e.t.Fatalf("warm-up Write = %+v", res)
		}
	}
	e.noCard()
}

func TestSessionModeChangeIsSeenByTheVeryNextCall(t *testing.T) {
	for _, w := range configWriters() {
		t.Run(w.name, func(t *testing.T) {
			e := newEnv(t)
			e.configure("agent", "auto")
			e.warm()

			w.session(e, "plan", "auto")
			if res := e.call(e.session.ID, "Write", map[string]any{"path": "x.txt", "content": "x"}); res.Code != errs.WriteDisabledInPlan {
				t.Fatalf("Write right after switching to plan = %+v", res)
			}

			w.session(e, "agent", "auto")
			e.warm()
			w.session(e, "", "ask")
			res, req := e.callAnswering(e.session.ID, "Write", map[string]any{"path": "x.txt", "content": "x"}, permission.Denied)
			if res.OK || req.Tool != "Write" {
				t.Fatalf("Write right after switching to ask = %+v (card %+v)", res, req)
			}
		})
	}
}

func TestDefaultPermissionChangeIsSeenByTheVeryNextCall(t *testing.T) {
	for _, w := range configWriters() {
		t.Run(w.name, func(t *testing.T) {
			e := newEnv(t)
			e.configure("agent", "inherit")
			w.settings(e, "auto")
			e.warm()

			w.settings(e, "ask")
			res, req := e.callAnswering(e.session.ID, "Write", map[string]any{"path": "x.txt", "content": "x"}, permission.Denied)
			if res.OK || req.Tool != "Write" {
				t.Fatalf("Write right after the default became ask = %+v (card %+v)", res, req)
			}
		})
	}
}

func TestDeletedSessionFailsTheVeryNextCall(t *testing.T) {
	for _, w := range configWriters() {
		t.Run(w.name, func(t *testing.T) {
			e := newEnv(t)
			e.configure("agent", "auto")
			e.warm()

			w.remove(e)
			if res := e.call(e.session.ID, "Write", map[string]any{"path": "x.txt", "content": "x"}); res.OK || res.Code != errs.SessionNotFound {
				t.Fatalf("Write right after the session was deleted = %+v", res)
			}
		})
	}
}

// A failed lookup is not cached: a session that appears later is found.
func TestUnknownSessionIsLookedUpAgain(t *testing.T) {
	e := newEnv(t)
	if res := e.call("not-yet", "Read", map[string]any{"path": "main.go"}); res.Code != errs.SessionNotFound {
		t.Fatalf("Read in an unknown session = %+v", res)
	}
	st, err := store.Open(context.Background(), paths.Layout{Root: e.core.Info().DataDir}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.DB().ExecContext(t.Context(),
		"INSERT INTO sessions (id, project_id, title, permission_mode, created_at, updated_at) VALUES ('not-yet', ?, 't', 'auto', 0, 0)", e.session.ProjectID); err != nil {
		t.Fatal(err)
	}
	if res := e.call("not-yet", "Read", map[string]any{"path": "main.go"}); !res.OK {
		t.Fatalf("Read once the session exists = %+v", res)
	}
}
