package slashcmd_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/slashcmd"
)

// write creates files (slash paths under root) with their text.
func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type sources struct{ home, data, project string }

func newSources(t *testing.T) sources {
	d := t.TempDir()
	return sources{home: filepath.Join(d, "home"), data: filepath.Join(d, "data"), project: filepath.Join(d, "project")}
}

func (s sources) load(t *testing.T) slashcmd.Catalog {
	t.Helper()
	cat, err := slashcmd.Load(t.Context(), slashcmd.Sources{Home: s.home, DataDir: s.data, ProjectRoot: s.project})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// rowsNamed are the rows with that name, in override order.
func rowsNamed(cat slashcmd.Catalog, name string) []slashcmd.Row {
	var out []slashcmd.Row
	for _, r := range cat.Rows {
		if r.Name == name {
			out = append(out, r)
		}
	}
	return out
}

func TestLoadPrecedence(t *testing.T) {
	s := newSources(t)
	// "review" is in every source; the last in override order wins.
	write(t, s.home, map[string]string{
		".claude/commands/review.md": "claude user",
		".claude/commands/only-c.md": "from ~/.claude",
		".agents/commands/review.md": "agents user",
		".agents/commands/only-a.md": "from ~/.agents",
	})
	write(t, s.data, map[string]string{"commands/review.md": "data dir", "commands/only-d.md": "from data"})
	write(t, s.project, map[string]string{
		".claude/commands/review.md": "claude project",
		".agents/commands/review.md": "---\ndescription: Review the diff\nargument-hint: \"[files]\"\n---\nagents project $ARGUMENTS",
		".claude/commands/only-p.md": "from project",
	})
	cat := s.load(t)

	var names []string
	for _, c := range cat.Commands {
		names = append(names, c.Name)
	}
	if want := []string{"only-a", "only-c", "only-d", "only-p", "review"}; !slices.Equal(names, want) {
		t.Fatalf("commands = %q, want %q", names, want)
	}
	review, ok := cat.Lookup("review")
	if !ok || review.Template != "agents project $ARGUMENTS" || review.Source != slashcmd.SourceProject ||
		review.Description != "Review the diff" || review.ArgumentHint != "[files]" {
		t.Fatalf("review = %+v, %v", review, ok)
	}
	rows := rowsNamed(cat, "review")
	wantPaths := []string{
		filepath.Join(s.home, ".claude", "commands", "review.md"),
		filepath.Join(s.home, ".agents", "commands", "review.md"),
		filepath.Join(s.data, "commands", "review.md"),
		filepath.Join(s.project, ".claude", "commands", "review.md"),
		filepath.Join(s.project, ".agents", "commands", "review.md"),
	}
	if len(rows) != len(wantPaths) {
		t.Fatalf("review rows = %+v", rows)
	}
	for i, r := range rows {
		last := i == len(rows)-1
		if r.Path != wantPaths[i] {
			t.Errorf("row %d path = %s, want %s", i, r.Path, wantPaths[i])
		}
		if last {
			if r.State != slashcmd.StateEffective || len(r.Problems) != 0 {
				t.Errorf("winner = %+v", r)
			}
			continue
		}
		// Each replaced row names the file that replaced it: the collision is listed.
		if r.State != slashcmd.StateOverridden || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], wantPaths[i+1]) {
			t.Errorf("row %d = %+v, want overridden by %s", i, r, wantPaths[i+1])
		}
	}
	if _, ok := cat.Lookup("missing"); ok {
		t.Error("Lookup found a command that does not exist")
	}
}

func TestLoadNoFolders(t *testing.T) {
	s := newSources(t)
	cat := s.load(t)
	if len(cat.Rows) != 0 || len(cat.Commands) != 0 {
		t.Fatalf("catalog of missing folders = %+v", cat)
	}
	cat, err := slashcmd.Load(t.Context(), slashcmd.Sources{})
	if err != nil || len(cat.Rows) != 0 {
		t.Fatalf("empty sources: %+v, %v", cat, err)
	}
}

func TestLoadSubfolderNames(t *testing.T) {
	s := newSources(t)
	write(t, s.project, map[string]string{
		".agents/commands/git/commit.md":       "commit",
		".agents/commands/a/b/c/deep.md":       "three deep",
		".agents/commands/a/b/c/d/too-deep.md": "four deep",
		".agents/commands/.hidden/x.md":        "hidden folder",
		".agents/commands/.draft.md":           "hidden file",
		".agents/commands/notes.txt":           "not markdown",
	})
	cat := s.load(t)
	for _, name := range []string{"git:commit", "a:b:c:deep"} {
		if _, ok := cat.Lookup(name); !ok {
			t.Errorf("%s not found in %+v", name, cat.Commands)
		}
	}
	if len(cat.Commands) != 2 {
		t.Errorf("commands = %+v", cat.Commands)
	}
	errRows := 0
	for _, r := range cat.Rows {
		if r.State == slashcmd.StateError {
			errRows++
			if !strings.Contains(r.Problems[0], "folders deep") || !strings.HasSuffix(r.Path, filepath.Join("a", "b", "c", "d")) {
				t.Errorf("error row = %+v", r)
			}
		}
	}
	if errRows != 1 {
		t.Errorf("want one row for the folder too deep, got %d: %+v", errRows, cat.Rows)
	}
}

func TestLoadBadFiles(t *testing.T) {
	s := newSources(t)
	write(t, s.project, map[string]string{
		".agents/commands/unclosed.md":    "---\ndescription: x\nno end",
		".agents/commands/badyaml.md":     "---\ndescription: [\n---\nbody",
		".agents/commands/empty.md":       "---\ndescription: nothing\n---\n  \n",
		".agents/commands/new.md":         "a built-in's name",
		".agents/commands/skill/x.md":     "the skill: prefix",
		".agents/commands/has space.md":   "untypable",
		".agents/commands/latin1.md":      "caf\xe9",
		".agents/commands/big.md":         strings.Repeat("x", slashcmd.MaxSize+1),
		".agents/commands/claude-keys.md": "---\ndescription: 1.5\nallowed-tools: Bash(git:*)\nmodel: opus\n---\nRun !`git status` then $ARGUMENTS",
		".agents/commands/listdesc.md":    "---\ndescription: [a, b]\n---\nok",
	})
	cat := s.load(t)
	want := map[string]string{ // name → part of the reason
		"unclosed":  "no closing ---",
		"badyaml":   "not valid YAML",
		"empty":     "template is empty",
		"new":       "built-in command",
		"skill:x":   "built-in command",
		"has space": "cannot be typed",
		"latin1":    "UTF-8",
		"big":       "the limit is 65536",
	}
	for name, why := range want {
		rows := rowsNamed(cat, name)
		if len(rows) != 1 || rows[0].State != slashcmd.StateError || !strings.Contains(rows[0].Problems[0], why) {
			t.Errorf("%s: rows %+v, want an error with %q", name, rows, why)
		}
		if _, ok := cat.Lookup(name); ok {
			t.Errorf("%s is offered", name)
		}
	}
	// Usable, with what was ignored listed.
	ck, ok := cat.Lookup("claude-keys")
	rows := rowsNamed(cat, "claude-keys")
	if !ok || ck.Description != "1.5" || len(rows) != 1 {
		t.Fatalf("claude-keys = %+v, %v", ck, ok)
	}
	for _, p := range []string{`"allowed-tools"`, `"model"`, "!`command`"} {
		if !slices.ContainsFunc(rows[0].Problems, func(s string) bool { return strings.Contains(s, p) }) {
			t.Errorf("claude-keys problems %q lack %s", rows[0].Problems, p)
		}
	}
	ld := rowsNamed(cat, "listdesc")
	if len(ld) != 1 || ld[0].State != slashcmd.StateEffective || ld[0].Description != "" || !strings.Contains(strings.Join(ld[0].Problems, ";"), "description is not text") {
		t.Errorf("listdesc = %+v", ld)
	}
}

func TestLoadFileLimit(t *testing.T) {
	s := newSources(t)
	files := map[string]string{}
	for i := range slashcmd.MaxFiles + 3 {
		files[fmt.Sprintf(".agents/commands/c%03d.md", i)] = "x"
	}
	write(t, s.project, files)
	cat := s.load(t)
	if len(cat.Commands) != slashcmd.MaxFiles {
		t.Errorf("%d commands, want the limit %d", len(cat.Commands), slashcmd.MaxFiles)
	}
	over := slices.IndexFunc(cat.Rows, func(r slashcmd.Row) bool {
		return r.State == slashcmd.StateError && strings.Contains(r.Problems[0], fmt.Sprintf("more than %d command files", slashcmd.MaxFiles))
	})
	if over < 0 {
		t.Error("no row says files were left out")
	}
}

func TestLoadProjectLinkOut(t *testing.T) {
	s := newSources(t)
	outside := filepath.Join(filepath.Dir(s.project), "outside.md")
	write(t, filepath.Dir(s.project), map[string]string{"outside.md": "secret prompt"})
	write(t, s.project, map[string]string{".agents/commands/in.md": "inside"})
	if err := os.Symlink(outside, filepath.Join(s.project, ".agents", "commands", "out.md")); err != nil {
		t.Fatal(err)
	}
	cat := s.load(t)
	rows := rowsNamed(cat, "out")
	if len(rows) != 1 || rows[0].State != slashcmd.StateError || !strings.Contains(rows[0].Problems[0], "leads out of the project") {
		t.Fatalf("out rows = %+v", rows)
	}
	if _, ok := cat.Lookup("in"); !ok {
		t.Error("the file inside is not offered")
	}
}

func TestLoadCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := slashcmd.Load(ctx, slashcmd.Sources{ProjectRoot: t.TempDir()}); err == nil {
		t.Fatal("a cancelled load succeeded")
	}
}

func TestBuiltin(t *testing.T) {
	for name, want := range map[string]bool{"new": true, "Mode": true, "skill:x": true, "compact": true, "review": false, "news": false, "git:new": false} {
		if got := slashcmd.Builtin(name); got != want {
			t.Errorf("Builtin(%q) = %v", name, got)
		}
	}
}

func TestLoadPluginCommandsComeLastAndNeverReplace(t *testing.T) {
	s := newSources(t)
	plugins := t.TempDir()
	plugA, plugB := filepath.Join(plugins, "dev.a"), filepath.Join(plugins, "dev.b")
	write(t, s.home, map[string]string{".agents/commands/review.md": "the user's review"})
	write(t, s.project, map[string]string{".agents/commands/ship.md": "the project's ship"})
	write(t, plugA, map[string]string{"commands/review.md": "plugin a's review", "commands/ship.md": "plugin a's ship", "commands/lint.md": "plugin a's lint"})
	write(t, plugB, map[string]string{"commands/lint.md": "plugin b's lint"})
	src := slashcmd.Sources{Home: s.home, DataDir: s.data, ProjectRoot: s.project, Plugins: []string{plugA, plugB}}
	cat, err := slashcmd.Load(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"review": "the user's review", "ship": "the project's ship", "lint": "plugin a's lint"} {
		if c, ok := cat.Lookup(name); !ok || c.Template != want {
			t.Errorf("/%s = %+v, %v; want %q", name, c, ok, want)
		}
	}
	if c, _ := cat.Lookup("lint"); c.Source != slashcmd.SourcePlugin {
		t.Errorf("lint source = %s", c.Source)
	}
	for _, name := range []string{"review", "ship", "lint"} {
		for _, r := range rowsNamed(cat, name) {
			if r.Source != slashcmd.SourcePlugin || r.State == slashcmd.StateEffective {
				continue
			}
			if r.State != slashcmd.StateOverridden || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "a plugin never replaces") {
				t.Errorf("%s: %+v; want a left-out plugin row saying why", r.Path, r)
			}
		}
	}
	// The user's row is still the effective one: not marked overridden.
	for _, r := range rowsNamed(cat, "review") {
		if r.Source == slashcmd.SourceUser && r.State != slashcmd.StateEffective {
			t.Errorf("user review = %+v", r)
		}
	}

	src.Plugins = nil // disabled or removed
	if cat, err = slashcmd.Load(t.Context(), src); err != nil {
		t.Fatal(err)
	}
	if _, ok := cat.Lookup("lint"); ok {
		t.Error("/lint still listed without its plugin")
	}
}
