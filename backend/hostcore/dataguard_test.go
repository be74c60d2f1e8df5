package hostcore_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// storedKey is the content of the data folder's files in these tests; no
// tool result may ever contain it.
const storedKey = "sk-ant-api03-STORED-KEY-MARKER"

// newDataInProjectEnv is newEnv with the data folder inside the project,
// holding a key file and another session's scratch file.
func newDataInProjectEnv(t *testing.T, rgPath string) (*env, string) {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t, cards: &cards{reqs: make(chan permission.Request, 64)},
		project: filepath.Join(root, "proj"), outside: filepath.Join(root, "outside")}
	data := filepath.Join(e.project, "pidata")
	for _, d := range []string{e.project, e.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(e.project, "main.go"), "package main\n\nfunc main() {}\n")
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: data, Sink: e.cards, RgPath: rgPath})
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
	write(t, filepath.Join(data, "keys.json"), `{"anthropic":"`+storedKey+`"}`+"\n")
	if err := os.MkdirAll(filepath.Join(data, "scratch", "other-session"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(data, "scratch", "other-session", "notes.md"), storedKey+"\n")
	if err := os.Symlink(data, filepath.Join(e.project, "to-data")); err != nil {
		t.Fatal(err)
	}
	return e, data
}

// TestDataFolderIsRefusedToEveryTool: with the data folder inside the
// project, every tool that names a path in it is refused with PATH_PROTECTED
// in every operating and permission mode, with no card and no change; walks
// from the project skip it silently; the session's own scratch still works.
func TestDataFolderIsRefusedToEveryTool(t *testing.T) {
	for _, rg := range []string{"-", ""} {
		e, data := newDataInProjectEnv(t, rg)
		journal := filepath.Join(data, "pi.sqlite-journal")
		type call struct {
			tool string
			args map[string]any
		}
		refused := []call{
			{"Read", map[string]any{"path": "pidata/keys.json"}},
			{"Read", map[string]any{"path": filepath.Join(data, "keys.json")}},
			{"Read", map[string]any{"path": "to-data/keys.json"}},
			{"Read", map[string]any{"path": "PIDATA/../pidata/scratch/other-session/notes.md"}},
			{"Grep", map[string]any{"pattern": "STORED", "path": "pidata"}},
			{"Grep", map[string]any{"pattern": "STORED", "path": "pidata/keys.json"}},
			{"Grep", map[string]any{"pattern": "STORED", "path": "to-data"}},
			{"Glob", map[string]any{"pattern": "**", "path": "pidata"}},
			{"Glob", map[string]any{"pattern": "*", "path": filepath.Join(data, "scratch")}},
		}
		writes := []call{
			{"Write", map[string]any{"path": "pidata/pi.sqlite-journal", "content": "x"}},
			{"Write", map[string]any{"path": journal, "content": "x"}},
			{"Write", map[string]any{"path": "pidata/new.txt", "content": "x"}},
			{"Edit", map[string]any{"path": "pidata/keys.json", "tag": "ABCD", "ops": "REM"}},
		}
		modes := []struct{ op, perm string }{
			{api.ModeAgent, api.PermissionAsk}, {api.ModeAgent, api.PermissionAcceptEdits}, {api.ModeAgent, api.PermissionAuto},
			{api.ModePlan, api.PermissionAuto},
		}
		for _, m := range modes {
			e.configure(m.op, m.perm)
			list := refused
			if m.op == api.ModeAgent {
				list = append(append([]call(nil), refused...), writes...)
			}
			for _, c := range list {
				res := e.call(e.session.ID, c.tool, c.args)
				if res.OK || res.Code != errs.PathProtected || !strings.Contains(res.Message, "data folder") {
					t.Errorf("rg=%q %s/%s %s %v = %+v, want PATH_PROTECTED", rg, m.op, m.perm, c.tool, c.args, res)
				}
				if strings.Contains(res.Content+res.Message, storedKey) {
					t.Errorf("%s %v showed the stored key", c.tool, c.args)
				}
				e.noCard()
			}
			// Walks from the project skip the data folder: no error, no name.
			for _, c := range []call{
				{"Grep", map[string]any{"pattern": "STORED-KEY", "outputMode": "content"}},
				{"Grep", map[string]any{"pattern": "STORED-KEY", "outputMode": "filesWithMatches", "path": "."}},
				{"Grep", map[string]any{"pattern": ".", "outputMode": "count"}},
				{"Grep", map[string]any{"pattern": `[A-ZÄ]+-[A-Z]+`, "outputMode": "content"}}, // no literal, a non-ASCII class: rg runs when installed
				{"Glob", map[string]any{"pattern": "**"}},
				{"Glob", map[string]any{"pattern": "pidata/**", "path": "."}},
			} {
				res := e.call(e.session.ID, c.tool, c.args)
				if !res.OK {
					t.Errorf("rg=%q %s %v = %+v", rg, c.tool, c.args, res)
				}
				out := res.Content + res.Message
				if files, ok := res.Fields["files"].([]string); ok {
					out = strings.Join(files, "\n") // Glob echoes its pattern in the text
				}
				if strings.Contains(out, storedKey) || strings.Contains(out, "pidata") || strings.Contains(out, "keys.json") {
					t.Errorf("rg=%q %s %v showed the data folder: %q", rg, c.tool, c.args, out)
				}
				e.noCard()
			}
		}
		for _, f := range []string{journal, filepath.Join(data, "new.txt")} {
			if _, err := os.Lstat(f); !os.IsNotExist(err) {
				t.Errorf("%s was created in the data folder: %v", f, err)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(data, "keys.json")); !strings.Contains(string(b), storedKey) {
			t.Errorf("keys.json = %q", b)
		}
		// The session's own scratch folder stays usable.
		e.configure(api.ModeAgent, api.PermissionAsk)
		scratch := filepath.Join(data, "scratch", e.session.ID)
		if res := e.call(e.session.ID, "Write", map[string]any{"path": filepath.Join(scratch, "n.md"), "content": "own\n"}); !res.OK || res.Root != "scratch" {
			t.Fatalf("own scratch Write = %+v", res)
		}
		if res := e.call(e.session.ID, "Grep", map[string]any{"pattern": "own", "path": scratch, "outputMode": "content"}); !res.OK || !strings.Contains(res.Content, "own") {
			t.Fatalf("own scratch Grep = %+v", res)
		}
		e.noCard()
	}
}
