package plugin_test

import (
	"maps"
	"path/filepath"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
	"github.com/pi-desktop/pi-desktop/backend/store"
)

// storeEnv is a plugin store over a real database with projects p1 and p2
// and the plugin dev.acme.one installed.
func storeEnv(t *testing.T) *plugin.Store {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "pi.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, id := range []string{"p1", "p2"} {
		if _, err := st.DB().ExecContext(t.Context(), "INSERT INTO projects (id, name, path, created_at, updated_at) VALUES (?, ?, ?, 0, 0)", id, id, "/p/"+id); err != nil {
			t.Fatal(err)
		}
	}
	ps := plugin.NewStore(st.DB(), func() time.Time { return time.UnixMilli(1_700_000_000_000) })
	s := &plugin.Staged{Manifest: plugin.Manifest{ID: "dev.acme.one", Name: "One", Version: "1.0.0"},
		ManifestBytes: []byte(`{"id":"dev.acme.one","name":"One","version":"1.0.0"}`), Hash: "sha256:one"}
	if err := ps.Put(t.Context(), s, "/data/plugins/dev.acme.one/1.0.0", true); err != nil {
		t.Fatal(err)
	}
	return ps
}

type step struct {
	project string
	set     string // "on", "off" or "clear"
}

// A project's own choice wins over the app-wide switch either way, and
// clearing it makes the project follow the app-wide switch again.
func TestStoreProjectChoices(t *testing.T) {
	tests := []struct {
		name    string
		appOn   bool
		steps   []step
		choices map[string]bool
		in      map[string]bool // EnabledIn by project ("" = a session without one)
	}{
		{"no choices follow the app", true, nil, map[string]bool{}, map[string]bool{"": true, "p1": true, "p2": true}},
		{"app off, no choices", false, nil, map[string]bool{}, map[string]bool{"": false, "p1": false, "p2": false}},
		{"off in one project", true, []step{{"p1", "off"}}, map[string]bool{"p1": false}, map[string]bool{"": true, "p1": false, "p2": true}},
		{"on in one project while off app-wide", false, []step{{"p2", "on"}}, map[string]bool{"p2": true}, map[string]bool{"": false, "p1": false, "p2": true}},
		{"a later choice replaces one", true, []step{{"p1", "off"}, {"p1", "on"}}, map[string]bool{"p1": true}, map[string]bool{"": true, "p1": true, "p2": true}},
		{"clear goes back to the app", false, []step{{"p1", "on"}, {"p2", "on"}, {"p1", "clear"}}, map[string]bool{"p2": true}, map[string]bool{"": false, "p1": false, "p2": true}},
		{"clear without a choice changes nothing", true, []step{{"p1", "clear"}}, map[string]bool{}, map[string]bool{"": true, "p1": true, "p2": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := storeEnv(t)
			ctx := t.Context()
			if err := ps.SetEnabled(ctx, "dev.acme.one", "", tt.appOn); err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.steps {
				var err error
				if s.set == "clear" {
					err = ps.ClearProject(ctx, "dev.acme.one", s.project)
				} else {
					err = ps.SetEnabled(ctx, "dev.acme.one", s.project, s.set == "on")
				}
				if err != nil {
					t.Fatalf("%+v: %v", s, err)
				}
			}
			r, err := ps.Get(ctx, "dev.acme.one")
			if err != nil {
				t.Fatal(err)
			}
			if r.Enabled != tt.appOn || !maps.Equal(r.Projects, tt.choices) {
				t.Errorf("enabled %v, projects %v; want %v, %v", r.Enabled, r.Projects, tt.appOn, tt.choices)
			}
			for project, want := range tt.in {
				if got := r.EnabledIn(project); got != want {
					t.Errorf("EnabledIn(%q) = %v, want %v", project, got, want)
				}
			}
		})
	}
}

func TestStoreClearProjectOfAMissingPlugin(t *testing.T) {
	ps := storeEnv(t)
	if err := ps.ClearProject(t.Context(), "dev.acme.gone", "p1"); !errs.Is(err, errs.PluginNotFound) {
		t.Errorf("ClearProject of a plugin not installed = %v, want PLUGIN_NOT_FOUND", err)
	}
	// Removing the plugin takes its project choices with it.
	if err := ps.SetEnabled(t.Context(), "dev.acme.one", "p1", false); err != nil {
		t.Fatal(err)
	}
	if err := ps.Remove(t.Context(), "dev.acme.one"); err != nil {
		t.Fatal(err)
	}
	if err := ps.ClearProject(t.Context(), "dev.acme.one", "p1"); !errs.Is(err, errs.PluginNotFound) {
		t.Errorf("ClearProject after removal = %v, want PLUGIN_NOT_FOUND", err)
	}
}
