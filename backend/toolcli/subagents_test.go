package toolcli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

func (f fixture) subagents(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := toolcli.Subagents(t.Context(), args, toolcli.Env{Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }})
	return code, out.String(), errOut.String()
}

type listedSubagent struct {
	Name          string   `json:"name"`
	Source        string   `json:"source"`
	State         string   `json:"state"`
	Path          string   `json:"path"`
	Tools         []string `json:"tools"`
	Inherit       bool     `json:"inherit"`
	ExcludedTools []string `json:"excludedTools"`
	Permission    string   `json:"permission"`
	Warnings      []string `json:"warnings"`
	Error         string   `json:"error"`
	OverriddenBy  string   `json:"overriddenBy"`
}

func put(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// subagents list --workspace DIR: every definition with its source, tools,
// permission and warnings, error rows too, as JSON and as a table; DIR is
// not added to the app's projects.
func TestSubagentsList(t *testing.T) {
	f := newFixture(t)
	put(t, filepath.Join(f.data, "subagents", "mine.md"), "---\nname: mine\ndescription: d\ntools: [inherit, Bash]\npermission: accept-edits\n---\nP\n")
	put(t, filepath.Join(f.workspace, ".agents", "subagents", "repo.md"), "---\nname: repo\ndescription: d\ntools: Read, A2A\npermission: auto\n---\nP\n")
	put(t, filepath.Join(f.workspace, ".claude", "agents", "general.md"), "---\nname: general\ndescription: d\ntools: '*'\ndisallowedTools: Bash\n---\nP\n")
	put(t, filepath.Join(f.workspace, ".agents", "subagents", "bad.md"), "---\nname: Bad\ndescription: d\n---\nP\n")

	code, out, errOut := f.subagents(t, "list", "--workspace", f.workspace, "--json")
	if code != 0 {
		t.Fatalf("list --json: %d %s", code, errOut)
	}
	var list []listedSubagent
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	got := map[string]listedSubagent{}
	for _, s := range list {
		got[s.Name+"/"+s.Source] = s
	}
	checks := map[string]func(s listedSubagent) bool{
		"explore/builtin": func(s listedSubagent) bool {
			return s.State == "effective" && slices.Equal(s.Tools, []string{"Read", "Glob", "Grep"}) && s.Permission == "inherit"
		},
		"general/builtin": func(s listedSubagent) bool {
			return s.State == "overridden" && strings.HasSuffix(s.OverriddenBy, "general.md")
		},
		"general/project": func(s listedSubagent) bool {
			return s.State == "effective" && !slices.Contains(s.Tools, "Bash") && len(s.Tools) == 6 && slices.Equal(s.ExcludedTools, []string{"Bash"})
		},
		"mine/user": func(s listedSubagent) bool {
			return s.Inherit && slices.Equal(s.Tools, []string{"Bash"}) && s.Permission == "accept-edits" && len(s.Warnings) == 0
		},
		"repo/project": func(s listedSubagent) bool {
			return s.Permission == "inherit" && slices.Equal(s.Tools, []string{"Read"}) && len(s.Warnings) == 2 &&
				strings.Contains(s.Warnings[0], "A2A") && strings.Contains(s.Warnings[1], "permission auto dropped")
		},
		"bad/project": func(s listedSubagent) bool {
			return s.State == "error" && strings.Contains(s.Error, `name "Bad" is not valid`)
		},
	}
	for key, ok := range checks {
		if s, found := got[key]; !found || !ok(s) {
			t.Errorf("%s: %+v (found %v)", key, s, found)
		}
	}
	if len(list) != len(checks) {
		t.Errorf("%d rows, want %d: %+v", len(list), len(checks), list)
	}

	code, out, errOut = f.subagents(t, "list", "--workspace", f.workspace)
	if code != 0 {
		t.Fatalf("list: %d %s", code, errOut)
	}
	for _, want := range []string{
		"NAME", "explore", "inherit + Bash", "accept-edits",
		"Read, Glob, Grep, BrowserPreview, Edit, Write (not Bash)",
		`error: name "Bad" is not valid`, "warning: permission auto dropped", "replaced by",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}

	// Listing registered no project.
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: f.data})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	if projects, err := core.ListProjects(t.Context()); err != nil || len(projects) != 0 {
		t.Errorf("projects after list: %+v %v", projects, err)
	}
}

// Without --workspace only the builtin and user definitions are listed.
func TestSubagentsListWithoutWorkspace(t *testing.T) {
	f := newFixture(t)
	put(t, filepath.Join(f.workspace, ".agents", "subagents", "repo.md"), "---\nname: repo\ndescription: d\n---\nP\n")
	code, out, errOut := f.subagents(t, "list", "--json")
	if code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	var list []listedSubagent
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"explore", "general"}) {
		t.Errorf("listed %q", names)
	}
}

func TestSubagentsUsage(t *testing.T) {
	f := newFixture(t)
	for _, args := range [][]string{{}, {"remove"}, {"list", "extra"}, {"list", "--bogus"}} {
		if code, _, errOut := f.subagents(t, args...); code != 2 || !strings.Contains(errOut, "Usage:") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, out, _ := f.subagents(t, "--help"); code != 0 || !strings.Contains(out, "pi-desktop subagents list") {
		t.Errorf("--help: %d %q", code, out)
	}
}
