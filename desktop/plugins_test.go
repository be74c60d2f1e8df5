package desktop

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

const skillPlugin = "dev.acme.skills"

// pluginsEnv is Settings → Plugins over a real core with two projects and
// a plugin that contributes one skill, installed with consent.
func pluginsEnv(t *testing.T) (*Plugins, []api.Project) {
	t.Helper()
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: t.TempDir(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	var projects []api.Project
	for _, name := range []string{"alpha", "beta"} {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p, err := core.AddProject(t.Context(), dir)
		if err != nil {
			t.Fatal(err)
		}
		projects = append(projects, p)
	}
	src := t.TempDir()
	manifest := `{"id": "` + skillPlugin + `", "name": "Acme skills", "version": "1.0.0", "permissions": ["agent.tool.register"]}`
	if err := os.WriteFile(filepath.Join(src, "plugin.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(src, "skills", "hello"), 0o755); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: hello\ndescription: Say hello.\n---\nSay hello.\n"
	if err := os.WriteFile(filepath.Join(src, "skills", "hello", "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := core.StagePlugin(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := core.InstallPlugin(t.Context(), s, true); err != nil {
		t.Fatal(err)
	}
	return &Plugins{h: &testApp{core: core}}, projects
}

func listed(t *testing.T, p *Plugins) api.Plugin {
	t.Helper()
	list, err := p.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	return list[0]
}

// SetProjectEnabled turns a plugin on or off in one project whatever the
// app-wide switch says, or makes the project follow that switch again; List
// shows each project's own choice.
func TestPluginsSetProjectEnabled(t *testing.T) {
	type set struct {
		project int // into the projects
		state   string
	}
	tests := []struct {
		name  string
		appOn bool
		sets  []set
	}{
		{"off in one project", true, []set{{0, "off"}}},
		{"on in one project while off app-wide", false, []set{{1, "on"}}},
		{"on again after off", true, []set{{0, "off"}, {0, "on"}}},
		{"both, then one follows the app again", true, []set{{0, "off"}, {1, "on"}, {0, "app"}}},
		{"following the app when it already did", true, []set{{1, "app"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, projects := pluginsEnv(t)
			if err := p.SetEnabled(skillPlugin, tt.appOn); err != nil {
				t.Fatal(err)
			}
			want := map[string]bool{}
			for _, s := range tt.sets {
				id := projects[s.project].ID
				if err := p.SetProjectEnabled(skillPlugin, id, s.state); err != nil {
					t.Fatalf("SetProjectEnabled(%s, %s) = %v", id, s.state, err)
				}
				if s.state == api.PluginProjectApp {
					delete(want, id)
				} else {
					want[id] = s.state == api.PluginProjectOn
				}
			}
			got := listed(t, p)
			if got.Enabled != tt.appOn {
				t.Errorf("enabled = %v, want %v", got.Enabled, tt.appOn)
			}
			var wantList []api.PluginProject
			for _, pr := range projects {
				if on, ok := want[pr.ID]; ok {
					wantList = append(wantList, api.PluginProject{ProjectID: pr.ID, Enabled: on})
				}
			}
			slices.SortFunc(wantList, func(a, b api.PluginProject) int { return strings.Compare(a.ProjectID, b.ProjectID) })
			if !slices.Equal(got.Projects, wantList) && !(len(got.Projects) == 0 && len(wantList) == 0) {
				t.Errorf("projects = %+v, want %+v", got.Projects, wantList)
			}
			if got.Projects == nil {
				t.Error("projects is nil: the window would read null")
			}
		})
	}
}

// Bad input is refused with a stable code and the field, and changes nothing.
func TestPluginsSetProjectEnabledRefuses(t *testing.T) {
	p, projects := pluginsEnv(t)
	alpha := projects[0].ID
	tests := []struct {
		id, project, state string
		code               errs.Code
		field              string
	}{
		{skillPlugin, "", "on", errs.InvalidArgument, "projectId"},
		{skillPlugin, alpha, "", errs.InvalidArgument, "state"},
		{skillPlugin, alpha, "true", errs.InvalidArgument, "state"},
		{skillPlugin, alpha, "On", errs.InvalidArgument, "state"},
		{skillPlugin, "no-such-project", "off", errs.ProjectNotFound, ""},
		{skillPlugin, "no-such-project", "app", errs.ProjectNotFound, ""},
		{"dev.acme.gone", alpha, "off", errs.PluginNotFound, ""},
		{"dev.acme.gone", alpha, "app", errs.PluginNotFound, ""},
	}
	for _, tt := range tests {
		err := p.SetProjectEnabled(tt.id, tt.project, tt.state)
		if !errs.Is(err, tt.code) {
			t.Errorf("SetProjectEnabled(%q, %q, %q) = %v, want %s", tt.id, tt.project, tt.state, err, tt.code)
			continue
		}
		if tt.field != "" {
			if e := errs.As(err); e.Details["field"] != tt.field {
				t.Errorf("SetProjectEnabled(%q, %q, %q) names field %v, want %s", tt.id, tt.project, tt.state, e.Details["field"], tt.field)
			}
		}
	}
	if got := listed(t, p); !got.Enabled || len(got.Projects) != 0 {
		t.Errorf("refused calls changed the plugin: %+v", got)
	}
}
