package hostcore_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func byName(list api.SubagentList, name, source string) (api.Subagent, bool) {
	i := slices.IndexFunc(list.Subagents, func(s api.Subagent) bool { return s.Name == name && s.Source == source })
	if i < 0 {
		return api.Subagent{}, false
	}
	return list.Subagents[i], true
}

// Settings → Subagents: the builtins, the user's own (data folder and
// ~/.agents), the project's files with their warnings; saving validates and
// resolves the model against the saved providers; deleting removes only
// the app's own.
func TestSubagentsThroughTheHost(t *testing.T) {
	data, home, proj := t.TempDir(), t.TempDir(), t.TempDir()
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: data, Home: home, RgPath: "-", Keychain: providertest.NewKeychain()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	prof, err := core.SaveProvider(t.Context(), providers.Profile{Name: "Claude", API: "anthropic", Model: "claude-sonnet-4-5"}, "sk-x")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".agents", "subagents", "homey.md"), "---\ndescription: from home\nmodel: sonnet\n---\nHi.\n")
	writeFile(t, filepath.Join(proj, ".agents", "subagents", "fixer.md"), "---\nname: fixer\ndescription: the repo's\ntools: [Read, Edit]\npermission: auto\n---\nFix.\n")
	writeFile(t, filepath.Join(proj, ".claude", "agents", "broken.md"), "---\nname: broken\n---\nNo description.\n")
	p, err := core.AddProject(t.Context(), proj)
	if err != nil {
		t.Fatal(err)
	}

	list, err := core.ListSubagents(t.Context(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if list.Limit != 16 || list.ProjectRoot != p.Path || list.UserDir != filepath.Join(data, "subagents") || len(list.WorkingTools) != 7 {
		t.Errorf("list header: %+v", list)
	}
	if s, ok := byName(list, "explore", "builtin"); !ok || s.State != api.SubagentStateEffective || !slices.Equal(s.Tools, []string{"Read", "Glob", "Grep"}) || s.Editable {
		t.Errorf("explore: %+v", s)
	}
	if s, ok := byName(list, "homey", "user"); !ok || s.ModelProfileID != prof.ID || s.ModelProfileName != "Claude" || s.Editable || len(s.Warnings) != 1 {
		t.Errorf("homey: %+v", s)
	}
	if s, ok := byName(list, "fixer", "project"); !ok || s.Permission != "inherit" || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "permission auto dropped") {
		t.Errorf("fixer: %+v", s)
	}
	if s, ok := byName(list, "broken", "project"); !ok || s.State != api.SubagentStateError || !strings.Contains(s.Error, "no description") {
		t.Errorf("broken: %+v", s)
	}

	// Without a project only the builtin and user ones.
	appOnly, err := core.ListSubagents(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := byName(appOnly, "fixer", "project"); ok || len(appOnly.Subagents) != 3 {
		t.Errorf("without a project: %+v", appOnly.Subagents)
	}

	// Saving: invalid input fails with the reason; a valid one is listed
	// as the app's own and replaces the builtin of its name.
	_, err = core.SaveSubagent(t.Context(), api.SubagentInput{Name: "explore", Description: "mine", Tools: []string{"Read", "WebFetch"}, Prompt: "p"})
	if !errs.Is(err, errs.SubagentInvalid) || !strings.Contains(err.Error(), "WebFetch") {
		t.Fatalf("saving an unknown tool: %v", err)
	}
	saved, err := core.SaveSubagent(t.Context(), api.SubagentInput{Name: "explore", Description: "mine", Tools: []string{"*"}, Model: "Claude", Permission: "accept-edits", Prompt: "Look."})
	if err != nil {
		t.Fatal(err)
	}
	if !saved.Editable || saved.ModelProfileID != prof.ID || saved.Permission != "accept-edits" || len(saved.Tools) != 7 {
		t.Errorf("saved: %+v", saved)
	}
	list, err = core.ListSubagents(t.Context(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	mine, _ := byName(list, "explore", "user")
	builtin, _ := byName(list, "explore", "builtin")
	if mine.State != api.SubagentStateEffective || mine.Overrides != "builtin:explore" || !mine.Editable || builtin.State != api.SubagentStateOverridden {
		t.Errorf("after saving: mine %+v, builtin %+v", mine, builtin)
	}
	cat, err := core.SubagentCatalog(t.Context(), p.Path)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := cat.Lookup("explore"); !ok || d.Source != "user" || d.Permission != "accept-edits" {
		t.Errorf("the runtime's catalog: %+v", d)
	}

	if err := core.DeleteSubagent(t.Context(), "fixer"); !errs.Is(err, errs.NotFound) {
		t.Errorf("deleting a project's definition: %v", err)
	}
	if _, err := os.Stat(filepath.Join(proj, ".agents", "subagents", "fixer.md")); err != nil {
		t.Errorf("the project's file: %v", err)
	}
	if err := core.DeleteSubagent(t.Context(), "explore"); err != nil {
		t.Fatal(err)
	}
	list, _ = core.ListSubagents(t.Context(), p.ID)
	if s, _ := byName(list, "explore", "builtin"); s.State != api.SubagentStateEffective {
		t.Errorf("the builtin after deleting mine: %+v", s)
	}
}

// Listing a folder does not make it a project.
func TestListSubagentsInRegistersNothing(t *testing.T) {
	core, _ := providerHost(t, providertest.NewKeychain())
	proj := t.TempDir()
	writeFile(t, filepath.Join(proj, ".agents", "subagents", "x.md"), "---\nname: x\ndescription: d\n---\nP\n")
	list, err := core.ListSubagentsIn(t.Context(), proj)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := byName(list, "x", "project"); !ok {
		t.Errorf("x not listed: %+v", list.Subagents)
	}
	if projects, err := core.ListProjects(t.Context()); err != nil || len(projects) != 0 {
		t.Errorf("projects after listing: %+v, %v", projects, err)
	}
}
