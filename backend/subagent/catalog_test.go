package subagent_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/subagent"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

var profiles = []subagent.ProfileRef{
	{ID: "p-gpt", Name: "Work GPT", API: "openai", Model: "gpt-5"},
	{ID: "p-claude", Name: "Claude", API: "anthropic", Model: "claude-sonnet-4-5"},
	{ID: "p-haiku", Name: "Fast", API: "anthropic", Model: "claude-haiku-4-5"},
}

// parentCatalog is an Agent-mode session's live catalog with an MCP tool
// and the delegation tools registered.
var parentCatalog = []string{"Read", "Glob", "Grep", "Write", "Edit", "Bash", "TodoWrite", "asktool", "new_context",
	"EnterPlanMode", "EnterGoalMode", "ToolSearch", "Task", "TaskWait", "TaskList", "TaskStop", "mcp_github_create_issue"}

// copyTree copies testdata/sources into a temporary folder (so tests can add
// to it) and returns its Sources.
func copyTree(t *testing.T) subagent.Sources {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir("testdata/sources", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/sources", path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return subagent.Sources{DataDir: filepath.Join(dst, "data"), Home: filepath.Join(dst, "home"),
		ProjectRoot: filepath.Join(dst, "project"), Profiles: profiles}
}

// render writes every row as the golden file shows it, with the temporary
// folder replaced by <root>.
func render(cat subagent.Catalog, root string) string {
	var b strings.Builder
	rel := func(p string) string { return filepath.ToSlash(strings.ReplaceAll(p, root, "<root>")) }
	for _, r := range cat.Rows {
		fmt.Fprintf(&b, "%s  [%s, %s]  %s\n", r.Name, r.Source, r.State, rel(r.Path))
		if r.State == subagent.StateError {
			fmt.Fprintf(&b, "  error: %s\n", r.Error)
		} else {
			fmt.Fprintf(&b, "  description: %s\n", strings.ReplaceAll(r.Description, strings.Repeat("x", 50), "x…"))
			fmt.Fprintf(&b, "  tools: %s (written %q)\n", r.Tools, r.Tools.Written)
			fmt.Fprintf(&b, "  resolved: %s\n", strings.Join(r.Tools.Resolve(parentCatalog), ", "))
			fmt.Fprintf(&b, "  model: %q (written %q)\n", r.Model, r.ModelSpec)
			fmt.Fprintf(&b, "  permission: %s  maxTurns: %d\n", r.Permission, r.MaxTurns)
			fmt.Fprintf(&b, "  prompt: %q\n", r.Prompt)
		}
		if r.Overrides != "" {
			fmt.Fprintf(&b, "  overrides: %s\n", rel(r.Overrides))
		}
		if r.OverriddenBy != "" {
			fmt.Fprintf(&b, "  overridden by: %s\n", rel(r.OverriddenBy))
		}
		if r.Editable {
			b.WriteString("  editable\n")
		}
		for _, w := range r.Warnings {
			fmt.Fprintf(&b, "  warning: %s\n", w)
		}
	}
	b.WriteString("\nin effect:")
	for _, d := range cat.Definitions {
		fmt.Fprintf(&b, " %s(%s)", d.Name, d.Source)
	}
	b.WriteString("\n")
	return b.String()
}

// Every parse and override rule on one fixture set: the golden file is the
// reviewed list of what each file becomes.
func TestLoadFixtures(t *testing.T) {
	src := copyTree(t)
	cat, err := subagent.Load(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "testdata/catalog.golden", render(cat, filepath.Dir(src.DataDir)))
}

// Loading twice gives the same catalog: directory order, maps and the
// override bookkeeping leave no trace.
func TestLoadIsDeterministic(t *testing.T) {
	src := copyTree(t)
	first, err := subagent.Load(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := subagent.Load(t.Context(), src)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := render(first, ""), render(again, ""); a != b {
			t.Fatalf("a second load differs:\n%s\nvs\n%s", a, b)
		}
	}
}

func TestLoadWithoutFoldersHasTheBuiltins(t *testing.T) {
	empty := t.TempDir()
	cat, err := subagent.Load(t.Context(), subagent.Sources{DataDir: filepath.Join(empty, "data"), Home: filepath.Join(empty, "home"),
		ProjectRoot: filepath.Join(empty, "no-such-project")})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range cat.Definitions {
		names = append(names, fmt.Sprintf("%s:%s:%s", d.Name, d.Source, d.Tools))
	}
	want := "explore:builtin:Read, Glob, Grep general:builtin:Read, Glob, Grep, BrowserPreview, Bash, Edit, Write"
	if got := strings.Join(names, " "); got != want || len(cat.Rows) != 2 {
		t.Errorf("got %q (%d rows), want %q", got, len(cat.Rows), want)
	}
	for _, d := range cat.Definitions {
		if d.Permission != subagent.PermissionInherit || d.MaxTurns != subagent.DefaultMaxTurns || len(d.Warnings) > 0 || len(d.Prompt) < 200 {
			t.Errorf("builtin %s: %+v", d.Name, d)
		}
	}
	if _, ok := cat.Lookup("explore"); !ok {
		t.Error("Lookup(explore) found nothing")
	}
	if _, ok := cat.Lookup("nope"); ok {
		t.Error("Lookup(nope) found something")
	}
}

// At most 16 definitions are in effect; the rest are listed with a warning.
// The earlier sources keep their place: a project cannot push out the
// user's own definitions.
func TestLoadLimit(t *testing.T) {
	root := t.TempDir()
	src := subagent.Sources{DataDir: filepath.Join(root, "data"), ProjectRoot: filepath.Join(root, "project")}
	write := func(dir, name string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf("---\nname: %s\ndescription: number %s\n---\nGo.\n", name, name)
		if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 10 {
		write(subagent.UserDir(src.DataDir), fmt.Sprintf("user-%02d", i))
		write(filepath.Join(src.ProjectRoot, ".agents", "subagents"), fmt.Sprintf("proj-%02d", i))
	}
	cat, err := subagent.Load(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Definitions) != subagent.MaxInEffect {
		t.Fatalf("%d in effect, want %d", len(cat.Definitions), subagent.MaxInEffect)
	}
	over := map[string]bool{}
	for _, r := range cat.Rows {
		if r.State == subagent.StateOverLimit {
			over[r.Name] = true
			if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "over the limit of 16") {
				t.Errorf("%s: warnings %q", r.Name, r.Warnings)
			}
		}
	}
	// 2 builtins + 10 user + 4 project fit; the last 6 project ones do not.
	for i := range 10 {
		name := fmt.Sprintf("proj-%02d", i)
		if over[name] != (i >= 4) {
			t.Errorf("%s over the limit: %v", name, over[name])
		}
		if over[fmt.Sprintf("user-%02d", i)] {
			t.Errorf("user-%02d is over the limit", i)
		}
	}
	if len(cat.Rows) != 22 {
		t.Errorf("%d rows, want 22", len(cat.Rows))
	}
}

func TestLoadStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context_(t)
	cancel()
	if _, err := subagent.Load(ctx, copyTree(t)); err == nil {
		t.Fatal("a cancelled load succeeded")
	}
}

func TestLoadPluginDefinitionsComeLastAndNeverReplace(t *testing.T) {
	src := copyTree(t)
	base := t.TempDir()
	plugA, plugB := filepath.Join(base, "dev.a"), filepath.Join(base, "dev.b")
	def := func(name, desc string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\nDo " + name + ".\n"
	}
	for path, body := range map[string]string{
		filepath.Join(subagent.PluginDir(plugA), "explore.md"):                 def("explore", "plugin a tries to replace the builtin/user explore"),
		filepath.Join(subagent.PluginDir(plugA), "triager.md"):                 def("triager", "plugin a's own"),
		filepath.Join(subagent.PluginDir(plugB), "triager.md"):                 def("triager", "plugin b's, after a's"),
		filepath.Join(src.ProjectRoot, subagent.ProjectDir, "only-project.md"): def("only-project", "the project's"),
		filepath.Join(subagent.PluginDir(plugB), "only-project.md"):            def("only-project", "plugin b tries to replace the project's"),
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src.Plugins = []string{plugA, plugB}
	cat, err := subagent.Load(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := cat.Lookup("triager"); !ok || d.Source != subagent.SourcePlugin || d.Description != "plugin a's own" {
		t.Errorf("triager = %+v, %v; want plugin a's", d, ok)
	}
	for _, name := range []string{"explore", "only-project"} {
		if d, ok := cat.Lookup(name); !ok || d.Source == subagent.SourcePlugin {
			t.Errorf("%s = %+v, %v: a plugin must never replace it", name, d, ok)
		}
	}
	var refused int
	for _, r := range cat.Rows {
		if r.Source != subagent.SourcePlugin || r.State != subagent.StateOverridden {
			continue
		}
		refused++
		if r.Name != "triager" && !strings.Contains(strings.Join(r.Warnings, " "), "a plugin never replaces") {
			t.Errorf("%s (%s): warnings %v; want the reason", r.Name, r.Path, r.Warnings)
		}
	}
	if refused != 3 { // explore, only-project, plugin b's triager
		t.Errorf("%d plugin rows left out, want 3: %+v", refused, cat.Rows)
	}

	src.Plugins = nil // disabled or removed: gone at once
	cat, err = subagent.Load(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cat.Lookup("triager"); ok {
		t.Error("triager still listed without its plugin")
	}
}
