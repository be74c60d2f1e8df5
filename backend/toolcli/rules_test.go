package toolcli_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/cmdrule"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
	"github.com/pi-desktop/pi-desktop/internal/golden"
	"github.com/pi-desktop/pi-desktop/platform/paths"
)

func (f fixture) rules(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := toolcli.Rules(t.Context(), args, toolcli.Env{Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }})
	return code, out.String(), errOut.String()
}

// addProject registers the fixture's workspace as a project, as the app does.
func (f fixture) addProject(t *testing.T) {
	t.Helper()
	layout := paths.Layout{Root: f.data}
	if err := layout.Prepare(); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(t.Context(), layout.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := session.New(st.DB(), layout, nil).AddProject(t.Context(), f.workspace); err != nil {
		t.Fatal(err)
	}
}

type listedRule struct {
	cmdrule.Rule
	ProjectPath string `json:"projectPath"`
}

func (f fixture) listRulesJSON(t *testing.T, args ...string) []listedRule {
	t.Helper()
	code, out, errOut := f.rules(t, append([]string{"list", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("list: %d %s", code, errOut)
	}
	var got []listedRule
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	return got
}

func ruleLines(rules []listedRule) []string {
	out := []string{}
	for _, r := range rules {
		out = append(out, r.String())
	}
	return out
}

// rules add / list / remove: global by default, project scope with
// --workspace once the folder is a project, --scope global overriding it;
// list shows every rule, or the global and one project's with --workspace.
func TestRulesAddListRemove(t *testing.T) {
	f := newFixture(t)
	if code, out, errOut := f.rules(t, "add", "deny", "rm", "-rf", "--note", "never"); code != 0 || !strings.Contains(out, "deny rm -rf (global)") {
		t.Fatalf("add global: %d %q %s", code, out, errOut)
	}
	code, _, errOut := f.rules(t, "add", "allow", "go", "test", "--workspace", f.workspace)
	if code != 1 || !strings.Contains(errOut, "is not a PI-Desktop project") {
		t.Fatalf("add to a folder that is no project: %d %s", code, errOut)
	}
	f.addProject(t)
	if code, out, errOut := f.rules(t, "add", "allow", "go", "test", "--workspace", f.workspace); code != 0 || !strings.Contains(out, "allow go test (project)") {
		t.Fatalf("add project: %d %q %s", code, out, errOut)
	}
	if code, _, errOut := f.rules(t, "add", "allow", "git", "status", "--scope", "global", "--workspace", f.workspace); code != 0 {
		t.Fatalf("add --scope global: %d %s", code, errOut)
	}

	all := f.listRulesJSON(t)
	if got, want := ruleLines(all), []string{"deny rm -rf (global)", "allow go test (project)", "allow git status (global)"}; !slices.Equal(got, want) {
		t.Fatalf("list: %q, want %q", got, want)
	}
	canon, _ := filepath.EvalSymlinks(f.workspace)
	if all[0].Note != "never" || all[1].ProjectPath != canon || all[0].ID == "" {
		t.Errorf("list details: %+v", all)
	}
	if got := ruleLines(f.listRulesJSON(t, "--workspace", f.workspace)); len(got) != 3 {
		t.Errorf("list --workspace: %q", got)
	}
	code, out, _ := f.rules(t, "list")
	if code != 0 || !strings.Contains(out, "ID") || !strings.Contains(out, "allow     go test     project "+canon) || !strings.Contains(out, "never") {
		t.Errorf("list table: %d\n%s", code, out)
	}

	if code, out, errOut := f.rules(t, "remove", all[0].ID); code != 0 || out != "removed deny rm -rf (global)\n" {
		t.Fatalf("remove: %d %q %s", code, out, errOut)
	}
	if got := ruleLines(f.listRulesJSON(t)); slices.Contains(got, "deny rm -rf (global)") {
		t.Errorf("removed rule still listedRule: %q", got)
	}
	if code, _, errOut := f.rules(t, "remove", all[0].ID); code != 1 || !strings.Contains(errOut, "no command rule has the id") {
		t.Errorf("remove again: %d %s", code, errOut)
	}
}

// A rule's words may look like options: unknown ones are words, and words
// after -- are words whatever they look like.
func TestRulesAddWordsLikeOptions(t *testing.T) {
	f := newFixture(t)
	for _, args := range [][]string{
		{"add", "deny", "git", "push", "--force"},
		{"add", "deny", "git", "push", "--", "--scope"},
	} {
		if code, _, errOut := f.rules(t, args...); code != 0 {
			t.Fatalf("%q: %d %s", args, code, errOut)
		}
	}
	if got, want := ruleLines(f.listRulesJSON(t)), []string{"deny git push --force (global)", "deny git push --scope (global)"}; !slices.Equal(got, want) {
		t.Errorf("rules %q, want %q", got, want)
	}
}

// An option a verb does not take is refused, never dropped: `rules add
// allow foo --json` saving allow foo would allow more than was typed. After
// -- it is a word.
func TestRulesOptionsEndAtDoubleDash(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		args []string
		says string
	}{
		{[]string{"add", "deny", "foo", "--json"}, "--json is not an option of add; a rule word that looks like an option goes after --: pi-desktop rules add deny foo -- --json"},
		{[]string{"add", "allow", "foo", "--shell", "cmd"}, "--shell is not an option of add"},
		{[]string{"list", "--note", "x"}, "--note is not an option of list"},
		{[]string{"remove", "id", "--workspace", "."}, "--workspace is not an option of remove"},
		{[]string{"check", "--scope", "global", "ls"}, "--scope is not an option of check"},
	}
	for _, tc := range cases {
		code, out, errOut := f.rules(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.says) || out != "" {
			t.Errorf("%q: %d %q, want 2 saying %q", tc.args, code, errOut, tc.says)
		}
	}
	if got := f.listRulesJSON(t); len(got) != 0 {
		t.Fatalf("a refused add saved %q", ruleLines(got))
	}
	if code, _, errOut := f.rules(t, "add", "deny", "foo", "--", "--json"); code != 0 {
		t.Fatalf("after --: %d %s", code, errOut)
	}
	if got, want := ruleLines(f.listRulesJSON(t)), []string{"deny foo --json (global)"}; !slices.Equal(got, want) {
		t.Errorf("rules %q, want %q", got, want)
	}
	// The options a verb takes are read anywhere before --.
	if code, out, errOut := f.rules(t, "check", "ls", "--json"); code != 0 || !strings.HasPrefix(out, "{") {
		t.Errorf("check ls --json: %d %q %s", code, out, errOut)
	}
}

func TestRulesUsageAndRefusals(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		args []string
		code int
		says string
	}{
		{nil, 2, "give a command"},
		{[]string{"frob"}, 2, "unknown command"},
		{[]string{"add", "allow"}, 2, "needs a decision and a program"},
		{[]string{"add", "allow", "git", "--scope", "session"}, 2, "--scope is project or global"},
		{[]string{"add", "allow", "git", "--scope", "project"}, 2, "needs --workspace"},
		{[]string{"add", "allow", "git", "--note"}, 2, "--note needs a value"},
		{[]string{"add", "maybe", "git"}, 1, "is not allow, ask or deny"},
		{[]string{"add", "allow", "sudo"}, 1, "always asks"},
		{[]string{"list", "extra"}, 2, "unexpected argument"},
		{[]string{"list", "--frob"}, 2, "unknown option --frob"},
		{[]string{"remove"}, 2, "one rule ID"},
		{[]string{"check"}, 2, "needs the command"},
	}
	for _, tc := range cases {
		code, _, errOut := f.rules(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.says) {
			t.Errorf("%q: %d %q, want %d saying %q", tc.args, code, errOut, tc.code, tc.says)
		}
	}
	if code, out, _ := f.rules(t, "--help"); code != 0 || !strings.Contains(out, "pi-desktop rules check") {
		t.Errorf("--help: %d %q", code, out)
	}
}

// rules check prints, for every simple command, its decision, the wrappers
// looked through, the rules it matched and why, then the writes and the
// "always allow" choices (golden); --json gives the classifier's result.
func TestRulesCheck(t *testing.T) {
	f := newFixture(t)
	f.addProject(t)
	for _, args := range [][]string{
		{"add", "allow", "git", "status", "--workspace", f.workspace},
		{"add", "deny", "rm", "-rf"},
		{"add", "ask", "git", "commit"},
		{"add", "allow", "git", "commit", "--workspace", f.workspace},
	} {
		if code, _, errOut := f.rules(t, args...); code != 0 {
			t.Fatalf("%q: %s", args, errOut)
		}
	}
	command := "timeout 5 git status -s | tee status.txt && git commit -m \"$(date)\" > \"$log\"; sudo rm -fr /tmp/x\nmake build"
	code, out, errOut := f.rules(t, "check", "--workspace", f.workspace, command)
	// Bash applies the rules: check no longer says it does not.
	if code != 0 || errOut != "" {
		t.Fatalf("check: %d %s", code, errOut)
	}
	golden.Assert(t, filepath.Join("testdata", "rules_check.golden"), out)

	code, out, _ = f.rules(t, "check", "--workspace", f.workspace, "git status && make test")
	if code != 0 || !strings.Contains(out, "always allow: make test\n") {
		t.Errorf("suggestions: %d\n%s", code, out)
	}

	code, out, _ = f.rules(t, "check", "--json", "--workspace", f.workspace, "git status -s")
	var res cmdrule.Result
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || res.Decision != cmdrule.Allow {
		t.Errorf("check --json: %d %v %+v", code, err, res)
	}

	// Without the project's rules git status needs you; the note says why.
	code, out, errOut = f.rules(t, "check", "--workspace", t.TempDir(), "git status")
	if code != 0 || !strings.HasPrefix(out, "ask: ") || !strings.Contains(errOut, "global rules only") {
		t.Errorf("check outside a project: %d %q %q", code, out, errOut)
	}

	code, out, _ = f.rules(t, "check", "--shell", "powershell", "--workspace", f.workspace, "git status; rm -rf C:\\x")
	if code != 0 || !strings.HasPrefix(out, "deny: ") {
		t.Errorf("check --shell powershell: %d\n%s", code, out)
	}
}
