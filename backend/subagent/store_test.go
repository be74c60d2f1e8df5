package subagent_test

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
)

func TestSaveWritesAFileTheCatalogReads(t *testing.T) {
	data := t.TempDir()
	draft := subagent.Draft{Name: "reviewer", Description: "Reviews: \"carefully\" # really", Tools: []string{"inherit", "Bash"},
		Model: "sonnet", Permission: subagent.PermissionAcceptEdits, MaxTurns: 40, Prompt: "  Review.\n\n---\nStill the prompt.\n"}
	saved, err := subagent.Save(t.Context(), data, draft, "", profiles)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(subagent.UserDir(data), "reviewer.md")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	cat, err := subagent.Load(t.Context(), subagent.Sources{DataDir: data, Profiles: profiles})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := cat.Lookup("reviewer")
	if !ok {
		t.Fatalf("saved definition not in effect: %+v", cat.Rows)
	}
	if d.Path != path || d.Description != draft.Description || !d.Tools.Inherit || !slices.Equal(d.Tools.Names, []string{"Bash"}) ||
		d.Model != "p-claude" || d.Permission != subagent.PermissionAcceptEdits || d.MaxTurns != 40 ||
		d.Prompt != "Review.\n\n---\nStill the prompt." || len(d.Warnings) > 0 {
		t.Errorf("read back: %+v", d)
	}
	if saved.Path != d.Path || saved.Model != d.Model {
		t.Errorf("Save returned %+v", saved)
	}
	// The draft of what was read saves the same file again.
	again := subagent.DraftOf(d)
	before, _ := os.ReadFile(path)
	if _, err := subagent.Save(t.Context(), data, again, "reviewer", profiles); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("a round trip changed the file:\n%s\nvs\n%s", before, after)
	}
	entries, _ := os.ReadDir(subagent.UserDir(data))
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries (a temporary file left behind?)", len(entries))
	}
}

func TestSaveRefusesInvalidDefinitions(t *testing.T) {
	ok := subagent.Draft{Name: "x", Description: "d", Prompt: "p"}
	tests := []struct {
		name   string
		edit   func(*subagent.Draft)
		code   errs.Code
		reason string
	}{
		{"bad name", func(d *subagent.Draft) { d.Name = "Not Valid" }, errs.SubagentInvalid, "not valid"},
		{"path in the name", func(d *subagent.Draft) { d.Name = "../x" }, errs.SubagentInvalid, "not valid"},
		{"no description", func(d *subagent.Draft) { d.Description = " " }, errs.SubagentInvalid, "no description"},
		{"no prompt", func(d *subagent.Draft) { d.Prompt = "\n" }, errs.SubagentInvalid, "no prompt"},
		{"unknown tool", func(d *subagent.Draft) { d.Tools = []string{"Read", "WebFetch"} }, errs.SubagentInvalid, "dropped unknown tools: WebFetch"},
		{"too many turns", func(d *subagent.Draft) { d.MaxTurns = 81 }, errs.SubagentInvalid, "over the limit"},
		{"unknown model", func(d *subagent.Draft) { d.Model = "gpt-9" }, errs.SubagentInvalid, "not a saved provider"},
		{"unknown permission", func(d *subagent.Draft) { d.Permission = "root" }, errs.SubagentInvalid, "not one of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := t.TempDir()
			d := ok
			tt.edit(&d)
			_, err := subagent.Save(t.Context(), data, d, "", profiles)
			if !errs.Is(err, tt.code) || !strings.Contains(err.Error(), tt.reason) {
				t.Fatalf("err = %v, want %s with %q", err, tt.code, tt.reason)
			}
			if _, statErr := os.Stat(subagent.UserDir(data)); !os.IsNotExist(statErr) {
				t.Error("a refused save created the folder")
			}
		})
	}
}

func TestSaveRenameConflictAndDelete(t *testing.T) {
	data := t.TempDir()
	mk := func(name string) subagent.Draft { return subagent.Draft{Name: name, Description: "d", Prompt: "p"} }
	for _, n := range []string{"one", "two"} {
		if _, err := subagent.Save(t.Context(), data, mk(n), "", nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := subagent.Save(t.Context(), data, mk("one"), "", nil); !errs.Is(err, errs.Conflict) {
		t.Errorf("a new definition over an existing name: %v", err)
	}
	if _, err := subagent.Save(t.Context(), data, mk("two"), "one", nil); !errs.Is(err, errs.Conflict) {
		t.Errorf("a rename onto another definition: %v", err)
	}
	if _, err := subagent.Save(t.Context(), data, mk("three"), "gone", nil); !errs.Is(err, errs.NotFound) {
		t.Errorf("editing a definition that is gone: %v", err)
	}
	if _, err := subagent.Save(t.Context(), data, mk("uno"), "one", nil); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		entries, _ := os.ReadDir(subagent.UserDir(data))
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	if got := names(); !slices.Equal(got, []string{"two.md", "uno.md"}) {
		t.Errorf("after the rename: %q", got)
	}
	if err := subagent.Delete(data, "two"); err != nil {
		t.Fatal(err)
	}
	if err := subagent.Delete(data, "two"); !errs.Is(err, errs.NotFound) {
		t.Errorf("deleting twice: %v", err)
	}
	if err := subagent.Delete(data, "explore"); !errs.Is(err, errs.NotFound) {
		t.Errorf("deleting a builtin: %v", err)
	}
	if got := names(); !slices.Equal(got, []string{"uno.md"}) {
		t.Errorf("after delete: %q", got)
	}
}

// A file of the folder that does not parse can still be deleted by the
// name its row shows (its file name).
func TestDeleteAnErrorRow(t *testing.T) {
	data := t.TempDir()
	dir := subagent.UserDir(data)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.md"), []byte("no front matter"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := subagent.Delete(data, "broken"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "broken.md")); !os.IsNotExist(err) {
		t.Errorf("still there: %v", err)
	}
}
