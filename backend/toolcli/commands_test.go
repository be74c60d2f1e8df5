package toolcli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

func (f fixture) commands(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := toolcli.Commands(t.Context(), args, toolcli.Env{Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }})
	return code, out.String(), errOut.String()
}

// commands list --workspace DIR: the user's and the project's commands with
// source, state, description and problems, as JSON and as a table.
func TestCommandsList(t *testing.T) {
	f := newFixture(t)
	// The test binary's HOME is a temporary one of its own (testhome).
	userDir := filepath.Join(os.Getenv("HOME"), ".agents", "commands")
	put(t, filepath.Join(userDir, "review.md"), "user review\n")
	t.Cleanup(func() { os.RemoveAll(userDir) })
	put(t, filepath.Join(f.data, "commands", "mine.md"), "---\ndescription: from the data folder\n---\nMine $1\n")
	put(t, filepath.Join(f.workspace, ".agents", "commands", "review.md"), "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $1\n")
	put(t, filepath.Join(f.workspace, ".claude", "commands", "git", "commit.md"), "---\nallowed-tools: Bash\n---\nCommit\n")
	put(t, filepath.Join(f.workspace, ".claude", "commands", "plan.md"), "built-in name\n")

	code, out, errOut := f.commands(t, "list", "--workspace", f.workspace, "--json")
	if code != 0 {
		t.Fatalf("list --json: %d %s", code, errOut)
	}
	var list []api.SlashCommand
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	var got []string
	for _, c := range list {
		got = append(got, c.Name+"/"+c.Source+"/"+c.State)
	}
	want := []string{"git:commit/project/effective", "mine/user/effective", "plan/project/error", "review/user/overridden", "review/project/effective"}
	if !slices.Equal(got, want) {
		t.Fatalf("listed %q, want %q", got, want)
	}
	if c := list[4]; c.Description != "Review a file" || c.ArgumentHint != "<file>" || len(c.Problems) != 0 {
		t.Errorf("project review = %+v", c)
	}
	if c := list[0]; len(c.Problems) != 1 || !strings.Contains(c.Problems[0], `"allowed-tools"`) {
		t.Errorf("git:commit problems = %q", c.Problems)
	}

	code, out, errOut = f.commands(t, "list", "--workspace", f.workspace)
	if code != 0 {
		t.Fatalf("list: %d %s", code, errOut)
	}
	for _, want := range []string{
		"NAME", "/git:commit", "/review", "<file>", "Review a file", "from the data folder",
		"/plan is a built-in command of the composer", "replaced by " + filepath.Join(f.workspace, ".agents", "commands", "review.md"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}

	// Without --workspace: the user's only.
	code, out, _ = f.commands(t, "list", "--json")
	list = nil
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 2 {
		t.Errorf("without --workspace: %d %v %+v", code, err, list)
	}
}

func TestCommandsUsage(t *testing.T) {
	f := newFixture(t)
	for _, args := range [][]string{{}, {"add"}, {"list", "extra"}, {"list", "--bogus"}} {
		if code, _, errOut := f.commands(t, args...); code != 2 || !strings.Contains(errOut, "Usage:") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, out, _ := f.commands(t, "--help"); code != 0 || !strings.Contains(out, "pi-desktop commands list") {
		t.Errorf("--help: %d %q", code, out)
	}
}
