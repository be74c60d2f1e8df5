package hostcore_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/skills"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// skillEnv is env with a home of its own holding skills, so nothing leaks
// into the test binary's shared HOME.
type skillEnv struct {
	*env
	home, userSkill, data string
}

func mkfile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, p, s)
}

func newSkillEnv(t *testing.T, prov func(string) (provider.Provider, error)) *skillEnv {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, cards: &cards{reqs: make(chan permission.Request, 64)},
		project: filepath.Join(root, "proj"), outside: filepath.Join(root, "outside")}
	se := &skillEnv{env: e, home: filepath.Join(root, "home"), data: filepath.Join(root, "data")}
	se.userSkill = filepath.Join(se.home, ".claude", "skills", "pdf")
	mkfile(t, filepath.Join(e.project, "main.go"), "package main\n")
	mkfile(t, filepath.Join(e.outside, "secret.txt"), "top secret\n")
	mkfile(t, filepath.Join(se.userSkill, "SKILL.md"), "---\nname: pdf\ndescription: Fill PDF forms.\n---\nRun scripts/fill.py on the form.\n")
	mkfile(t, filepath.Join(se.userSkill, "scripts", "fill.py"), "print('fill')\n")
	mkfile(t, filepath.Join(se.home, ".claude", "skills", "not-a-skill", "notes.txt"), "private\n")
	mkfile(t, filepath.Join(e.project, ".agents", "skills", "deploy", "SKILL.md"),
		"---\nname: deploy\ndescription: Deploy to production.\ndisable-model-invocation: true\n---\nDeploy with make ship.\n")
	mkfile(t, filepath.Join(se.data, "skills", "notes.md"), "---\ndescription: Keep notes.\n---\nWrite notes in scratch.\n")
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: se.data, Home: se.home, Sink: e.cards, RgPath: "-", Provider: prov})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	e.core = core
	p, err := core.AddProject(t.Context(), e.project)
	if err != nil {
		t.Fatal(err)
	}
	if e.session, err = core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID}); err != nil {
		t.Fatal(err)
	}
	return se
}

func TestSkillTool(t *testing.T) {
	e := newSkillEnv(t, nil)
	e.configure("", "ask")
	res := e.call(e.session.ID, tools.Skill, map[string]any{"name": "pdf"})
	if !res.OK || res.Root != "skill" || res.Path != e.userSkill || res.Decision != "allow" {
		t.Fatalf("Skill pdf = %+v", res)
	}
	if !strings.Contains(res.Content, "Run scripts/fill.py") || !strings.Contains(res.Content, "Folder: "+e.userSkill) {
		t.Fatalf("content = %q", res.Content)
	}
	e.noCard()
	if res := e.call(e.session.ID, tools.Skill, map[string]any{"name": "notes"}); !res.OK || res.Fields["file"] == nil || res.Root != "" {
		t.Fatalf("a single-file skill of the data folder = %+v", res)
	}
	if res := e.call(e.session.ID, tools.Skill, map[string]any{"name": "nope"}); res.OK || res.Code != errs.SkillNotFound || !strings.Contains(res.Message, "pdf") {
		t.Fatalf("unknown skill = %+v", res)
	}
	// Outside a turn nobody invoked it: a user-only skill is refused.
	if res := e.call(e.session.ID, tools.Skill, map[string]any{"name": "deploy"}); res.OK || res.Code != errs.SkillNotInvocable {
		t.Fatalf("disable-model-invocation skill = %+v", res)
	}
	rows, err := e.core.AuditRows(t.Context(), e.session.ID)
	if err != nil || len(rows) != 4 || rows[0].Tool != tools.Skill {
		t.Fatalf("audit = %+v, %v", rows, err)
	}
}

// A skill's folder is a read-only root: Read, Glob and Grep without a
// card (root "skill"), never a change, never a link out, and only the
// folders of loaded skills.
func TestSkillFolderIsReadOnlyRoot(t *testing.T) {
	e := newSkillEnv(t, nil)
	e.configure("", "ask")
	fill := filepath.Join(e.userSkill, "scripts", "fill.py")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"Read", map[string]any{"path": fill}},
		{"Glob", map[string]any{"path": e.userSkill, "pattern": "**/*.py"}},
		{"Grep", map[string]any{"path": e.userSkill, "pattern": "fill"}},
	} {
		res := e.call(e.session.ID, c.tool, c.args)
		if !res.OK || res.Root != "skill" {
			t.Fatalf("%s in a skill folder = %+v", c.tool, res)
		}
	}
	e.noCard()
	if res := e.call(e.session.ID, "Write", map[string]any{"path": fill, "content": "evil\n"}); res.OK || res.Code != errs.SkillReadOnly {
		t.Fatalf("Write in a skill folder = %+v", res)
	}
	e.configure("", "auto") // not even auto lifts it
	if res := e.call(e.session.ID, "Write", map[string]any{"path": filepath.Join(e.userSkill, "new.md"), "content": "x"}); res.OK || res.Code != errs.SkillReadOnly {
		t.Fatalf("Write of a new file in a skill folder under auto = %+v", res)
	}
	e.configure("", "ask")
	if data, _ := os.ReadFile(fill); string(data) != "print('fill')\n" {
		t.Fatalf("the skill file changed: %q", data)
	}
	if err := os.Symlink(filepath.Join(e.outside, "secret.txt"), filepath.Join(e.userSkill, "leak.txt")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if res := e.call(e.session.ID, "Read", map[string]any{"path": filepath.Join(e.userSkill, "leak.txt")}); res.OK || res.Code != errs.PathOutsideWorkspace {
		t.Fatalf("a link out of a skill folder = %+v", res)
	}
	e.noCard()
	// ".." out of the skill folder and a folder that is no loaded skill
	// are outside paths like any other: they need the user's approval.
	for _, p := range []string{
		e.userSkill + string(filepath.Separator) + ".." + string(filepath.Separator) + filepath.Join("not-a-skill", "notes.txt"),
		filepath.Join(e.home, ".claude", "skills", "not-a-skill", "notes.txt"),
	} {
		res, card := e.callAnswering(e.session.ID, "Read", map[string]any{"path": p}, permission.Denied)
		if res.OK || !card.External {
			t.Fatalf("Read %s = %+v, card %+v", p, res, card)
		}
	}
	// The rest of the data folder stays out of reach.
	if res := e.call(e.session.ID, "Read", map[string]any{"path": filepath.Join(e.data, "skills", "notes.md")}); res.OK || res.Code != errs.PathProtected {
		t.Fatalf("a single-file skill has no folder to read: %+v", res)
	}
}

// /skill:<name> against the scripted provider: the prompt carries the
// instruction, Skill is offered although the skill is user-only (and not
// in the model's catalog), the call runs, and its result reaches the next
// request.
func TestSkillSlashInvocation(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{ToolCalls: []providertest.Call{{Name: "Skill", Input: map[string]any{"name": "deploy"}}}, Stop: "tool_use"},
		providertest.Turn{Text: "Deployed.", Stop: "end_turn"},
	)
	e := newSkillEnv(t, func(string) (provider.Provider, error) {
		return provider.New(srv.Config(), provider.WithSleeper(providertest.NoSleep))
	})
	res, err := e.core.RunTurn(t.Context(), e.session.ID, "/skill:deploy to staging")
	if err != nil || res.State != "done" {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var first struct {
		System   json.RawMessage         `json:"system"`
		Tools    []struct{ Name string } `json:"tools"`
		Messages json.RawMessage         `json:"messages"`
	}
	if err := reqs[0].Decode(&first); err != nil {
		t.Fatal(err)
	}
	offered := false
	for _, tl := range first.Tools {
		offered = offered || tl.Name == tools.Skill
	}
	if !offered {
		t.Fatal("Skill is not offered in the first request")
	}
	if strings.Contains(string(first.System), "deploy") || !strings.Contains(string(first.System), "- pdf: Fill PDF forms.") {
		t.Fatalf("system prompt's catalog: %s", first.System)
	}
	if msgs := string(first.Messages); !strings.Contains(msgs, "to staging") || !strings.Contains(msgs, `call the Skill tool`) && !strings.Contains(msgs, `Call the Skill tool`) {
		t.Fatalf("the prompt lacks the instruction: %s", msgs)
	}
	if second := string(reqs[1].Body); !strings.Contains(second, "Deploy with make ship.") || !strings.Contains(second, "tool_result") {
		t.Fatalf("the skill's body did not reach the model: %.600s", second)
	}
	// The permission lasted one turn: the model alone cannot load it now.
	if r := e.call(e.session.ID, tools.Skill, map[string]any{"name": "deploy"}); r.Code != errs.SkillNotInvocable {
		t.Fatalf("after the turn = %+v", r)
	}
	// An unknown skill fails before anything is persisted.
	for _, prompt := range []string{"/skill:nope hi", "/skill: hi"} {
		if _, err := e.core.RunTurn(t.Context(), e.session.ID, prompt); errs.CodeOf(err) != errs.SkillNotFound {
			t.Fatalf("%q = %v, want SKILL_NOT_FOUND", prompt, err)
		}
	}
	if tr, err := e.core.Transcript(t.Context(), e.session.ID); err != nil || len(tr.Turns) != 1 {
		t.Fatalf("a refused /skill: persisted a turn: %+v, %v", tr.Turns, err)
	}
}

// Without skills the Skill tool is not offered, and with visualizations on
// the builtin skill makes the catalog.
func TestSkillCatalogFollowsVisualizations(t *testing.T) {
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{Text: "ok", Stop: "end_turn"}, providertest.Turn{Text: "ok", Stop: "end_turn"})
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	mkfile(t, filepath.Join(project, "main.go"), "package main\n")
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: filepath.Join(root, "data"), Home: filepath.Join(root, "home"), RgPath: "-",
		Provider: func(string) (provider.Provider, error) {
			return provider.New(srv.Config(), provider.WithSleeper(providertest.NoSleep))
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	p, _ := core.AddProject(t.Context(), project)
	s, _ := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	if _, err := core.RunTurn(t.Context(), s.ID, "hi"); err != nil {
		t.Fatal(err)
	}
	settings, err := core.Settings(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	settings.InlineVisualizations = true
	if _, err := core.UpdateSettings(t.Context(), settings); err != nil {
		t.Fatal(err)
	}
	if _, err := core.RunTurn(t.Context(), s.ID, "hi again"); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	off, vizOn := string(reqs[0].Body), string(reqs[1].Body)
	if strings.Contains(off, `"name":"Skill"`) || strings.Contains(off, "# Skills") {
		t.Errorf("Skill offered without skills: %.300s", off)
	}
	if !strings.Contains(vizOn, `"name":"Skill"`) || !strings.Contains(vizOn, "- "+skills.VisualizeName+": ") {
		t.Errorf("the visualize skill is missing with visualizations on")
	}
}

// A single-file skill longer than one result (its file is in the protected
// data folder, so Read cannot reach it) is read whole through the host in
// pages: each result names the next offset, none is cut by the pipeline's
// backstop, and the pages together are the body.
func TestSkillPagesThroughHost(t *testing.T) {
	e := newSkillEnv(t, nil)
	e.configure("", "ask")
	lines := make([]string, 900)
	for i := range lines {
		lines[i] = fmt.Sprintf("rule %03d: %s", i+1, strings.Repeat("z", 90))
	}
	body := strings.Join(lines, "\n")
	mkfile(t, filepath.Join(e.data, "skills", "handbook.md"), "---\ndescription: The team handbook.\n---\n"+body+"\n")
	var got []string
	offset := 0
	for page := 1; ; page++ {
		args := map[string]any{"name": "handbook"}
		if offset > 0 {
			args["offset"] = offset
		}
		res := e.call(e.session.ID, tools.Skill, args)
		if !res.OK || res.Root != "" || strings.Contains(res.Content, "[truncated:") || len(res.Content) > tools.ResultMaxBytes {
			t.Fatalf("page %d = ok %v, %d bytes, %s", page, res.OK, len(res.Content), res.Message)
		}
		_, rest, _ := strings.Cut(res.Content, "\n\n")
		rest, _, _ = strings.Cut(rest, "\n\n[lines ")
		got = append(got, strings.Split(strings.TrimSuffix(rest, "\n"), "\n")...)
		if !res.Truncated {
			break
		}
		offset = len(got) + 1
		if want := fmt.Sprintf(`"offset": %d}`, offset); !strings.Contains(res.Notice, want) || strings.Contains(res.Notice, "Read ") {
			t.Fatalf("page %d notice %q, want %s", page, res.Notice, want)
		}
		if page > 5 {
			t.Fatal("no last page")
		}
	}
	if strings.Join(got, "\n") != body {
		t.Fatalf("the pages are not the body: %d lines of %d", len(got), len(lines))
	}
	if res := e.call(e.session.ID, tools.Skill, map[string]any{"name": "handbook", "offset": 901}); res.OK || res.Code != errs.InvalidArgument {
		t.Fatalf("an offset past the end = %+v", res)
	}
	e.noCard()
}

// A command that would write into a skill's folder is refused as a Write
// there is (SKILL_READ_ONLY), before any card and in every mode; a skill
// file in the data folder stays protected; workspace writes still run.
func TestBashWritesIntoSkillFoldersAreRefused(t *testing.T) {
	e := newSkillEnv(t, nil)
	skillMD := filepath.Join(e.userSkill, "SKILL.md")
	fill := filepath.Join(e.userSkill, "scripts", "fill.py")
	viaDotDot := filepath.Join(e.project, "..", "home", ".claude", "skills", "pdf", "SKILL.md")
	for _, mode := range []string{"ask", "auto"} {
		e.configure("", mode)
		for _, c := range []struct {
			cmd  string
			code errs.Code
		}{
			{"echo evil > " + skillMD, errs.SkillReadOnly},
			{"echo evil >> " + fill, errs.SkillReadOnly},
			{"echo evil | tee " + filepath.Join(e.userSkill, "new.md"), errs.SkillReadOnly},
			{"sort -o " + skillMD + " main.go", errs.SkillReadOnly},
			{"echo evil > " + viaDotDot, errs.SkillReadOnly},
			{"echo evil > " + filepath.Join(e.data, "skills", "notes.md"), errs.PathProtected},
		} {
			res := e.bash(c.cmd)
			if res.OK || res.Code != c.code {
				t.Fatalf("%s: %q = %+v, want %s", mode, c.cmd, res, c.code)
			}
		}
		e.noCard()
	}
	if data, _ := os.ReadFile(skillMD); !strings.Contains(string(data), "Run scripts/fill.py") {
		t.Fatalf("SKILL.md changed: %q", data)
	}
	if _, err := os.Stat(filepath.Join(e.userSkill, "new.md")); err == nil {
		t.Fatal("new.md was written into the skill folder")
	}
	// Reading a skill's files from a command is not a write; the workspace
	// is writable as before.
	if res := e.bash("cat " + fill + " > copy.py"); !res.OK {
		t.Fatalf("copying a skill file into the workspace = %+v", res)
	}
	if data, _ := os.ReadFile(filepath.Join(e.project, "copy.py")); string(data) != "print('fill')\n" {
		t.Fatalf("copy.py = %q", data)
	}
}

// Skills are cached between uses while their files are unchanged; an
// edited SKILL.md shows on the next use (turn or Skill call).
func TestSkillEditShowsOnNextUse(t *testing.T) {
	e := newSkillEnv(t, nil)
	e.configure("", "ask")
	// Files untouched in this clock tick, so the cache may hold them.
	old := time.Now().Add(-time.Hour)
	for _, d := range []string{e.home, filepath.Join(e.data, "skills"), filepath.Join(e.project, ".agents")} {
		err := filepath.WalkDir(d, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Chtimes(p, old, old)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if res := e.call(e.session.ID, tools.Skill, map[string]any{"name": "pdf"}); !strings.Contains(res.Content, "Run scripts/fill.py") {
			t.Fatalf("Skill pdf = %+v", res)
		}
	}
	mkfile(t, filepath.Join(e.userSkill, "SKILL.md"), "---\nname: pdf\ndescription: Fill PDF forms.\n---\nRun scripts/sign.py after filling.\n")
	if res := e.call(e.session.ID, tools.Skill, map[string]any{"name": "pdf"}); !strings.Contains(res.Content, "Run scripts/sign.py") {
		t.Fatalf("the edited skill = %+v", res)
	}
	list, err := e.core.ListSkills(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	mkfile(t, filepath.Join(e.home, ".agents", "skills", "lint", "SKILL.md"), "---\nname: lint\ndescription: Lint.\n---\nRun the linter.\n")
	if again, _ := e.core.ListSkills(t.Context(), ""); len(again.Skills) != len(list.Skills)+1 {
		t.Fatalf("a new skill is not listed: %+v", again.Skills)
	}
}
