package skills_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/skills"
)

// tree holds one test's source folders.
type tree struct {
	data, home, project string
}

func newTree(t *testing.T) tree {
	t.Helper()
	base := t.TempDir()
	tr := tree{data: filepath.Join(base, "data"), home: filepath.Join(base, "home"), project: filepath.Join(base, "proj")}
	for _, d := range []string{tr.data, tr.home, tr.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func (tr tree) sources(viz bool) skills.Sources {
	return skills.Sources{DataDir: tr.data, Home: tr.home, ProjectRoot: tr.project, Visualize: viz}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func skillMD(name, desc string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\nBody of %s.\n", name, desc, name)
}

func load(t *testing.T, src skills.Sources) skills.Set {
	t.Helper()
	set, err := skills.Load(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func names(set skills.Set) []string {
	var out []string
	for _, k := range set.Skills {
		out = append(out, string(k.Source)+":"+k.Name)
	}
	return out
}

func problem(set skills.Set, suffix string) (skills.Problem, bool) {
	i := slices.IndexFunc(set.Problems, func(p skills.Problem) bool { return strings.HasSuffix(filepath.ToSlash(p.Path), suffix) })
	if i < 0 {
		return skills.Problem{}, false
	}
	return set.Problems[i], true
}

func TestLoadSourcesAndPrecedence(t *testing.T) {
	tr := newTree(t)
	write(t, filepath.Join(tr.data, "skills", "shared", "SKILL.md"), skillMD("shared", "from the app's folder"))
	write(t, filepath.Join(tr.home, ".agents", "skills", "shared", "SKILL.md"), skillMD("shared", "from ~/.agents"))
	write(t, filepath.Join(tr.home, ".agents", "skills", "agents-only", "SKILL.md"), skillMD("agents-only", "d"))
	write(t, filepath.Join(tr.home, ".claude", "skills", "claude-only.md"), skillMD("claude-only", "a single file"))
	write(t, filepath.Join(tr.project, ".agents", "skills", "proj", "SKILL.md"), skillMD("proj", "project skill"))
	write(t, filepath.Join(tr.project, ".agents", "skills", "agents-only", "SKILL.md"), skillMD("agents-only", "project tries to replace a user skill"))
	write(t, filepath.Join(tr.project, ".claude", "skills", "proj", "SKILL.md"), skillMD("proj", "loses to .agents"))
	write(t, filepath.Join(tr.project, ".claude", "skills", "visualize", "SKILL.md"), skillMD("visualize", "not the builtin"))

	set := load(t, tr.sources(true))
	want := []string{"builtin:pi-desktop/visualize", "user:shared", "user:agents-only", "user:claude-only", "project:proj", "project:visualize"}
	if got := names(set); !slices.Equal(got, want) {
		t.Fatalf("skills = %v, want %v", got, want)
	}
	if k, _ := set.Lookup("shared"); k.Description != "from the app's folder" {
		t.Errorf("shared = %+v: the app's folder must win", k)
	}
	if k, _ := set.Lookup("claude-only"); k.Dir != "" || !strings.HasSuffix(k.Path, "claude-only.md") {
		t.Errorf("a single-file skill has no folder: %+v", k)
	}
	if k, _ := set.Lookup("proj"); k.Dir == "" || filepath.Base(k.Dir) != "proj" || k.Body != "Body of proj." {
		t.Errorf("proj = %+v", k)
	}
	for _, suffix := range []string{".agents/skills/shared/SKILL.md", "proj/.agents/skills/agents-only/SKILL.md", ".claude/skills/proj/SKILL.md"} {
		p, ok := problem(set, suffix)
		if !ok || p.Reason != skills.ReasonShadowed || !strings.Contains(p.Message, "takes precedence") {
			t.Errorf("%s: problem = %+v, %v; want shadowed", suffix, p, ok)
		}
	}
	if len(set.Problems) != 3 {
		t.Errorf("problems = %+v", set.Problems)
	}
}

func TestLoadVisualizeOnlyWhenOn(t *testing.T) {
	tr := newTree(t)
	for _, on := range []bool{false, true} {
		set := load(t, tr.sources(on))
		k, ok := set.Lookup(skills.VisualizeName)
		if ok != on {
			t.Fatalf("visualizations %v: builtin present = %v", on, ok)
		}
		if on && (k.Source != skills.SourceBuiltin || !strings.Contains(k.Body, "::visualize") || k.Description == "") {
			t.Fatalf("builtin = %+v", k)
		}
	}
}

func TestLoadProblems(t *testing.T) {
	tr := newTree(t)
	dir := filepath.Join(tr.project, ".agents", "skills")
	write(t, filepath.Join(dir, "good", "SKILL.md"), skillMD("good", "d"))
	write(t, filepath.Join(dir, "good", "scripts", "run.sh"), "echo")
	write(t, filepath.Join(dir, "empty-folder", "README.md"), "no SKILL.md here")
	write(t, filepath.Join(dir, "Bad_Name", "SKILL.md"), "---\ndescription: d\n---\n")
	write(t, filepath.Join(dir, "nodesc.md"), "---\nname: nodesc\n---\n")
	write(t, filepath.Join(dir, "notes.txt"), "hello")
	write(t, filepath.Join(dir, "big", "SKILL.md"), "---\nname: big\ndescription: d\n---\n"+strings.Repeat("x", skills.MaxFileSize))
	write(t, filepath.Join(dir, ".hidden", "SKILL.md"), "ignored")
	write(t, filepath.Join(dir, "dup.md"), skillMD("good", "same name as the folder skill"))

	set := load(t, skills.Sources{ProjectRoot: tr.project})
	if got := names(set); !slices.Equal(got, []string{"project:good"}) {
		t.Fatalf("skills = %v", got)
	}
	if k, _ := set.Lookup("good"); !strings.HasSuffix(k.Path, "dup.md") {
		t.Errorf("within a folder the first entry in name order wins: %+v", k)
	}
	want := map[string]skills.Reason{
		"empty-folder":      skills.ReasonNoSkillFile,
		"Bad_Name/SKILL.md": skills.ReasonName,
		"nodesc.md":         skills.ReasonDescription,
		"notes.txt":         skills.ReasonNotSkill,
		"big/SKILL.md":      skills.ReasonTooLarge,
		"good/SKILL.md":     skills.ReasonShadowed, // dup.md comes first in name order
	}
	for suffix, reason := range want {
		p, ok := problem(set, suffix)
		if !ok || p.Reason != reason || p.Message == "" || p.Source != skills.SourceProject {
			t.Errorf("%s: problem = %+v, %v; want %s", suffix, p, ok, reason)
		}
	}
	if len(set.Problems) != len(want) {
		t.Errorf("problems = %+v", set.Problems)
	}
}

func TestLoadLinks(t *testing.T) {
	tr := newTree(t)
	dir := filepath.Join(tr.home, ".agents", "skills")
	outside := filepath.Join(tr.home, "elsewhere")
	write(t, filepath.Join(outside, "stolen", "SKILL.md"), skillMD("stolen", "outside the source folder"))
	write(t, filepath.Join(outside, "secret.md"), skillMD("secret", "d"))
	write(t, filepath.Join(dir, "store", "real", "SKILL.md"), skillMD("real", "inside"))
	write(t, filepath.Join(dir, "linked-file", "placeholder"), "")
	links := map[string]string{
		filepath.Join(dir, "stolen"):                  filepath.Join(outside, "stolen"),
		filepath.Join(dir, "secret.md"):               filepath.Join(outside, "secret.md"),
		filepath.Join(dir, "alias"):                   filepath.Join(dir, "store", "real"),
		filepath.Join(dir, "linked-file", "SKILL.md"): filepath.Join(outside, "stolen", "SKILL.md"),
		filepath.Join(dir, "dangling"):                filepath.Join(dir, "missing"),
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Skip("symlinks unavailable:", err)
		}
	}
	set := load(t, skills.Sources{Home: tr.home})
	k, ok := set.Lookup("real")
	if !ok {
		t.Fatalf("a link inside the source folder is followed: %+v", set)
	}
	canonStore, _ := filepath.EvalSymlinks(filepath.Join(dir, "store", "real"))
	if k.Dir != canonStore {
		t.Errorf("Dir = %s, want the canonical %s", k.Dir, canonStore)
	}
	for _, suffix := range []string{"skills/stolen", "skills/secret.md", "linked-file/SKILL.md"} {
		p, ok := problem(set, suffix)
		if !ok || p.Reason != skills.ReasonLinkOutside {
			t.Errorf("%s: problem = %+v, %v; want %s", suffix, p, ok, skills.ReasonLinkOutside)
		}
	}
	if p, ok := problem(set, "skills/dangling"); !ok || p.Reason != skills.ReasonUnreadable {
		t.Errorf("dangling: %+v, %v", p, ok)
	}
	if _, ok := set.Lookup("stolen"); ok {
		t.Error("a skill behind a link out of its folder was loaded")
	}
	// "store" holds no SKILL.md itself, and "alias" reaches the same skill
	// a second time: both are listed, neither silently.
	if p, ok := problem(set, "skills/store"); !ok || p.Reason != skills.ReasonNoSkillFile {
		t.Errorf("store: %+v, %v", p, ok)
	}
}

func TestLoadLimit(t *testing.T) {
	tr := newTree(t)
	for i := range skills.MaxSkills + 3 {
		write(t, filepath.Join(tr.data, "skills", fmt.Sprintf("s%03d.md", i)), skillMD(fmt.Sprintf("s%03d", i), "d"))
	}
	set := load(t, skills.Sources{DataDir: tr.data, Visualize: true})
	if len(set.Skills) != skills.MaxSkills || set.Skills[0].Name != skills.VisualizeName {
		t.Fatalf("%d skills, first %q", len(set.Skills), set.Skills[0].Name)
	}
	over := 0
	for _, p := range set.Problems {
		if p.Reason == skills.ReasonOverLimit {
			over++
		}
	}
	if over != 4 { // 1 builtin + 67 files = 68, 64 kept
		t.Fatalf("over the limit: %d, problems %+v", over, set.Problems)
	}
}

func TestLoadMissingFoldersAreQuiet(t *testing.T) {
	set := load(t, skills.Sources{DataDir: t.TempDir(), Home: t.TempDir(), ProjectRoot: t.TempDir()})
	if len(set.Skills)+len(set.Problems) != 0 {
		t.Fatalf("set = %+v", set)
	}
}

func TestLoadCancelled(t *testing.T) {
	ctx, cancel := contextWithCancel(t)
	cancel()
	if _, err := skills.Load(ctx, skills.Sources{DataDir: t.TempDir()}); err == nil {
		t.Fatal("a cancelled Load succeeded")
	}
}

func TestLoadPluginSkillsComeLastAndNeverReplace(t *testing.T) {
	tr := newTree(t)
	plugA, plugB := filepath.Join(tr.data, "plugins", "dev.a", "1.0.0"), filepath.Join(tr.data, "plugins", "dev.b", "1.0.0")
	write(t, filepath.Join(tr.home, ".agents", "skills", "review", "SKILL.md"), skillMD("review", "the user's"))
	write(t, filepath.Join(tr.project, ".agents", "skills", "deploy", "SKILL.md"), skillMD("deploy", "the project's"))
	write(t, filepath.Join(plugA, "skills", "review", "SKILL.md"), skillMD("review", "plugin a tries to replace the user's"))
	write(t, filepath.Join(plugA, "skills", "deploy", "SKILL.md"), skillMD("deploy", "plugin a tries to replace the project's"))
	write(t, filepath.Join(plugA, "skills", "lint", "SKILL.md"), skillMD("lint", "plugin a's own"))
	write(t, filepath.Join(plugB, "skills", "lint", "SKILL.md"), skillMD("lint", "plugin b's, after a's"))
	src := tr.sources(false)
	src.Plugins = skills.PluginList([]string{plugA, plugB})

	set := load(t, src)
	want := []string{"user:review", "project:deploy", "plugin:lint"}
	if got := names(set); !slices.Equal(got, want) {
		t.Fatalf("skills = %v, want %v", got, want)
	}
	if k, _ := set.Lookup("lint"); k.Description != "plugin a's own" || !strings.HasPrefix(k.Dir, plugA) {
		t.Errorf("lint = %+v: the first plugin's must win", k)
	}
	for _, suffix := range []string{"dev.a/1.0.0/skills/review/SKILL.md", "dev.a/1.0.0/skills/deploy/SKILL.md"} {
		p, ok := problem(set, suffix)
		if !ok || p.Reason != skills.ReasonShadowed || p.Source != skills.SourcePlugin || !strings.Contains(p.Message, "a plugin never replaces") {
			t.Errorf("%s: problem = %+v, %v; want a shadowed plugin skill saying a plugin never replaces", suffix, p, ok)
		}
	}
	if p, ok := problem(set, "dev.b/1.0.0/skills/lint/SKILL.md"); !ok || p.Reason != skills.ReasonShadowed {
		t.Errorf("plugin b's lint: %+v, %v; want shadowed by plugin a's", p, ok)
	}
	// The plugin's skill folder is a read-only root tools may read.
	if !slices.ContainsFunc(set.Folders(), func(d string) bool { return strings.HasPrefix(d, filepath.Join(plugA, "skills")) }) {
		t.Errorf("folders = %v, want plugin a's lint folder", set.Folders())
	}

	// Without the plugin (disabled, removed), its skills are gone.
	if got := names(load(t, tr.sources(false))); slices.Contains(got, "plugin:lint") {
		t.Errorf("without the plugin: %v", got)
	}
}
