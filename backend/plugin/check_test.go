package plugin_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/plugin"
)

// noTools drops the agent tools: a folder whose check starts nothing.
func noTools(m map[string]any) {
	m["contributes"] = map[string]any{}
	delete(m, "command")
	delete(m, "args")
}

// put writes body at rel inside dir, making its folders.
func put(t *testing.T, dir, rel, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, at string) {
	t.Helper()
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

// want is one expected problem: its place (Problem.Where) and a part of
// its message.
type want struct{ where, msg string }

// Check reports every problem of a folder, not the first: its entries, the
// manifest (mcpServers included), and the skills, subagents and commands
// the app would not use, each with its place, in a stable order.
func TestCheckReportsEveryProblem(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(m map[string]any)
		setup func(t *testing.T, dir string)
		want  []want
		held  bool
	}{
		{name: "clean", edit: noTools},
		{name: "links and a pipe, in path order", edit: noTools, setup: func(t *testing.T, dir string) {
			link(t, "/etc/passwd", filepath.Join(dir, "skills", "b-link"))
			link(t, "..", filepath.Join(dir, "a-up"))
			if runtime.GOOS != "windows" {
				mkfifo(t, filepath.Join(dir, "bin", "fifo"))
			}
		}, want: []want{
			{"a-up", "a symbolic link"},
			{"bin/fifo", "not a regular file"},
			{"skills/b-link", "a symbolic link"},
		}},
		{name: "names that collide", edit: noTools, setup: func(t *testing.T, dir string) {
			put(t, dir, "docs/Read.txt", "1")
			put(t, dir, "docs/read.txt", "2")
			put(t, dir, "docs/x\x01y", "3")
		}, want: []want{
			{"docs/read.txt", "name the same file (duplicates, or names differing only in case); rename or remove one"},
			{`docs/x\x01y`, "control character in its name; rename it"},
		}},
		{name: "every bad MCP server, by id and key", edit: func(m map[string]any) {
			noTools(m)
			m["contributes"] = map[string]any{"mcpServers": map[string]any{
				"a": map[string]any{"type": "ftp", "command": "x"},
				"b": nil,
				"c": map[string]any{"command": "ok"},
				"d": map[string]any{"url": "https://example.com"},
			}}
		}, want: []want{
			{"plugin.json contributes.mcpServers.a.type", `unknown type "ftp"`},
			{"plugin.json contributes.mcpServers.b", "is null"},
			{"plugin.json contributes.mcpServers.d.type", `add "type": "http"`},
		}, held: true},
		{name: "manifest and folder problems together", edit: func(m map[string]any) {
			m["version"] = "1"
			m["permissions"] = []any{"fs.write", "agent.tool.register", "net"}
		}, setup: func(t *testing.T, dir string) {
			link(t, "/", filepath.Join(dir, "root"))
		}, want: []want{
			{"root", "a symbolic link"},
			{"plugin.json version", "not a semantic version"},
			{"plugin.json permissions[0]", `unknown permission "fs.write"`},
			{"plugin.json permissions[2]", `unknown permission "net"`},
		}, held: true},
		{name: "skills, subagents and commands the app would not use", edit: noTools, setup: func(t *testing.T, dir string) {
			put(t, dir, "skills/empty/notes.txt", "no SKILL.md")
			put(t, dir, "skills/nodesc/SKILL.md", "---\nname: nodesc\n---\nbody\n")
			put(t, dir, "skills/stray.txt", "x")
			put(t, dir, "subagents/broken.md", "no front matter\n")
			put(t, dir, "subagents/general.md", "---\nname: general\ndescription: mine\n---\nprompt\n")
			put(t, dir, "commands/model.md", "---\ndescription: x\n---\nbody\n")
			put(t, dir, "commands/ok.md", "---\ndescription: fine\n---\nbody\n")
		}, want: []want{
			{"skills/empty", "without SKILL.md"},
			{"skills/nodesc/SKILL.md", "description"},
			{"skills/stray.txt", "not a skill"},
			{"subagents/broken.md", "no front matter"},
			{"subagents/general.md", "a plugin never replaces the builtin definition \"general\" (builtin:general); give it another name"},
			{"commands/model.md", "built-in command"},
		}},
		{name: "no manifest", setup: func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, plugin.ManifestName)); err != nil {
				t.Fatal(err)
			}
		}, want: []want{{"plugin.json", "has no plugin.json"}}, held: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "links and a pipe, in path order" && runtime.GOOS == "windows" {
				c.want = append(c.want[:1], c.want[2:]...)
			}
			dir := folderOf(t, c.edit)
			if c.setup != nil {
				c.setup(t, dir)
			}
			rep, err := plugin.Check(t.Context(), dir, plugin.RuntimeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Problems) != len(c.want) {
				t.Fatalf("problems = %+v, want %d", rep.Problems, len(c.want))
			}
			for i, w := range c.want {
				p := rep.Problems[i]
				if p.Where() != w.where || !strings.Contains(p.Message, w.msg) || p.Code == "" {
					t.Errorf("problem %d = %+v (at %q), want at %q a message with %q", i, p, p.Where(), w.where, w.msg)
				}
				if strings.Contains(p.Message, "nothing was installed") {
					t.Errorf("problem %d says %q, but a check installs nothing", i, p.Message)
				}
			}
			if rep.Held != c.held || rep.Started {
				t.Errorf("held = %v, started = %v; want held %v and nothing started", rep.Held, rep.Started, c.held)
			}
			// A second check lists the same problems in the same order.
			again, err := plugin.Check(t.Context(), dir, plugin.RuntimeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i := range again.Problems {
				if again.Problems[i] != rep.Problems[i] {
					t.Errorf("problem %d changed between checks: %+v, then %+v", i, rep.Problems[i], again.Problems[i])
				}
			}
		})
	}
}

// Install refuses a folder or an archive with every problem in the error:
// the first in its message with their count, all of them in its details.
func TestStageListsEveryProblem(t *testing.T) {
	cases := []struct {
		name   string
		src    func(t *testing.T) string
		code   errs.Code
		places []string
	}{
		{"folder with two links and a bad manifest", func(t *testing.T) string {
			dir := folderOf(t, func(m map[string]any) { m["version"] = "x" })
			link(t, "/etc/passwd", filepath.Join(dir, "a"))
			link(t, "/etc/passwd", filepath.Join(dir, "skills", "z"))
			return dir
		}, errs.PluginArchiveRefused, []string{"a", "skills/z"}},
		{"manifest with two problems", func(t *testing.T) string {
			return folderOf(t, func(m map[string]any) { m["version"], m["id"] = "x", "Bad Id" })
		}, errs.PluginInvalid, []string{"plugin.json id", "plugin.json version"}},
		{"archive with three bad entries", func(t *testing.T) string {
			return writeZip(t, append(validEntries(t),
				entry{name: "../up.txt", body: []byte("x")},
				entry{name: "l", body: []byte("/etc"), mode: os.ModeSymlink | 0o777},
				entry{name: "/abs.txt", body: []byte("x")}))
		}, errs.PluginArchiveRefused, []string{"../up.txt", "l", "/abs.txt"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pluginsDir := filepath.Join(t.TempDir(), "plugins")
			_, err := plugin.Stage(c.src(t), pluginsDir)
			if !errs.Is(err, c.code) {
				t.Fatalf("Stage = %v, want %s", err, c.code)
			}
			assertNothingWritten(t, pluginsDir)
			p := errs.ToPayload(err)
			list, _ := p.Details["problems"].([]plugin.Problem)
			var places []string
			for _, pr := range list {
				places = append(places, pr.Where())
			}
			if strings.Join(places, "|") != strings.Join(c.places, "|") {
				t.Errorf("problems at %q, want %q", places, c.places)
			}
			if !strings.Contains(p.Message, c.places[0]+": ") || !strings.Contains(p.Message, "problems, the first") ||
				!strings.HasSuffix(p.Message, "; nothing was installed") && c.code == errs.PluginArchiveRefused {
				t.Errorf("message = %q, want the count, the first problem at %q and that nothing was installed", p.Message, c.places[0])
			}
		})
	}
}

// A plugin with files the app would not use still stages (the rest of it
// works), and its consent card names each of them; a clean one names none.
func TestStagedSummaryNamesUnusableFiles(t *testing.T) {
	dir := folderOf(t, noTools)
	put(t, dir, "skills/nodesc/SKILL.md", "---\nname: nodesc\n---\nbody\n")
	put(t, dir, "commands/ok.md", "---\ndescription: fine\n---\nbody\n")
	put(t, dir, "subagents/broken.md", "no front matter\n")
	s, err := plugin.Stage(dir, filepath.Join(t.TempDir(), "plugins"))
	if err != nil {
		t.Fatalf("Stage = %v", err)
	}
	defer s.Discard()
	if got := s.Summary().Warnings; len(got) != 0 {
		t.Errorf("warnings before CheckContent = %q", got)
	}
	if err := s.CheckContent(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := s.Summary().Warnings
	if len(got) != 2 || !strings.HasPrefix(got[0], "skills/nodesc/SKILL.md: ") || !strings.Contains(got[0], "description") ||
		!strings.HasPrefix(got[1], "subagents/broken.md: ") {
		t.Fatalf("warnings = %q, want the skill without a description, then the subagent without front matter", got)
	}
	for _, w := range got {
		if !strings.HasSuffix(w, "; the app will not use this file") {
			t.Errorf("warning %q does not say the file goes unused", w)
		}
	}

	clean, err := plugin.Stage(folderOf(t, noTools), filepath.Join(t.TempDir(), "plugins"))
	if err != nil {
		t.Fatal(err)
	}
	defer clean.Discard()
	if err := clean.CheckContent(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := clean.Summary().Warnings; len(got) != 0 {
		t.Errorf("a clean plugin's warnings = %q", got)
	}
}
