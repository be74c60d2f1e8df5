//go:build unix

package subagent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/subagent"
)

// A project's definitions come from inside it: a link that leads out of the
// project (a file or the whole folder) is an error row, never read; a link
// inside it is followed. Anything but a regular file is an error row.
func TestProjectLinks(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.md")
	if err := os.WriteFile(secret, []byte("---\nname: secret\ndescription: from outside\n---\nLeaked.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	agents := filepath.Join(project, ".agents", "subagents")
	if err := os.MkdirAll(agents, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "inside.md"), []byte("---\nname: inside\ndescription: linked from the project\n---\nOK.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"escape.md": secret, "inside.md": "../../inside.md", "up.md": "../../../" + filepath.Base(outside) + "/secret.md"} {
		if err := os.Symlink(target, filepath.Join(agents, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(agents, "folder.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The whole .claude/agents folder is a link out of the project.
	if err := os.Mkdir(filepath.Join(project, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(project, ".claude", "agents")); err != nil {
		t.Fatal(err)
	}
	cat, err := subagent.Load(t.Context(), subagent.Sources{ProjectRoot: project})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]subagent.Row{}
	for _, r := range cat.Rows {
		got[filepath.Base(r.Path)] = r
	}
	for _, name := range []string{"escape.md", "up.md", "agents"} {
		r := got[name]
		if r.State != subagent.StateError || !strings.Contains(r.Error, "out of the project") {
			t.Errorf("%s: %s %q", name, r.State, r.Error)
		}
	}
	if r := got["folder.md"]; r.State != subagent.StateError || !strings.Contains(r.Error, "not a regular file") {
		t.Errorf("folder.md: %s %q", r.State, r.Error)
	}
	if r := got["inside.md"]; r.State != subagent.StateEffective || r.Name != "inside" {
		t.Errorf("inside.md: %+v", r)
	}
	if _, ok := cat.Lookup("secret"); ok {
		t.Error("a definition from outside the project is in effect")
	}
}

// A file over the size limit is an error row, read no further.
func TestOversizedFile(t *testing.T) {
	data := t.TempDir()
	dir := subagent.UserDir(data)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	big := "---\nname: big\ndescription: d\n---\n" + strings.Repeat("a", 128<<10)
	if err := os.WriteFile(filepath.Join(dir, "big.md"), []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	cat, err := subagent.Load(t.Context(), subagent.Sources{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, r := range cat.Rows {
		if r.Name == "big" {
			found = true
			if r.State != subagent.StateError || !strings.Contains(r.Error, "the limit is 131072") {
				t.Errorf("big.md: %s %q", r.State, r.Error)
			}
		}
	}
	if !found {
		t.Error("big.md is not listed")
	}
}
