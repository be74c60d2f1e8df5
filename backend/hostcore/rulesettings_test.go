package hostcore_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

type rulesEnv struct {
	core    *hostcore.Core
	project api.Project
	session api.Session
	other   api.Session // a temporary session: no project
}

func newRulesEnv(t *testing.T) rulesEnv {
	t.Helper()
	root := t.TempDir()
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: filepath.Join(root, "data"), Sink: rulesSink{}, RgPath: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	e := rulesEnv{core: core}
	if e.project, err = core.AddProject(t.Context(), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if e.session, err = core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: e.project.ID}); err != nil {
		t.Fatal(err)
	}
	if e.session, err = core.RenameSession(t.Context(), e.session.ID, "fix the build"); err != nil {
		t.Fatal(err)
	}
	if e.other, err = core.CreateSession(t.Context(), api.CreateSessionInput{}); err != nil {
		t.Fatal(err)
	}
	return e
}

type rulesSink struct{}

func (rulesSink) Emit(string, any) {}

func (e rulesEnv) add(t *testing.T, in api.CommandRuleInput) api.CommandRule {
	t.Helper()
	r, err := e.core.AddCommandRule(t.Context(), in)
	if err != nil {
		t.Fatalf("add %+v: %v", in, err)
	}
	return r
}

// TestCommandRulesSettings: every rule is listed with the project or
// session it belongs to; an edit and a removal are seen by the next list.
func TestCommandRulesSettings(t *testing.T) {
	e := newRulesEnv(t)
	ctx := t.Context()
	g := e.add(t, api.CommandRuleInput{Decision: api.RuleAllow, Program: "git", Args: []string{"status"}, Scope: api.RuleScopeGlobal, Note: "read only"})
	p := e.add(t, api.CommandRuleInput{Decision: api.RuleDeny, Program: "rm", Args: []string{"-rf"}, Scope: api.RuleScopeProject, ProjectID: e.project.ID})
	s := e.add(t, api.CommandRuleInput{Decision: api.RuleAllow, Program: "go", Args: []string{"test"}, Scope: api.RuleScopeSession, SessionID: e.session.ID})
	if g.Args == nil || g.ID == "" || g.CreatedAt == 0 || g.Note != "read only" {
		t.Fatalf("added %+v", g)
	}
	list, err := e.core.ListCommandRules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []api.CommandRule{g, p, s}
	want[1].ProjectName, want[1].ProjectPath = e.project.Name, e.project.Path
	want[2].SessionTitle = "fix the build"
	if !reflect.DeepEqual(list, want) {
		t.Fatalf("listed\n%+v\nwant\n%+v", list, want)
	}

	edited, err := e.core.UpdateCommandRule(ctx, g.ID, api.CommandRuleInput{Decision: api.RuleAsk, Program: "git", Args: []string{"push"}, Scope: api.RuleScopeProject, ProjectID: e.project.ID})
	if err != nil {
		t.Fatal(err)
	}
	if edited.ID != g.ID || edited.Decision != api.RuleAsk || edited.Scope != api.RuleScopeProject || edited.Note != "" || edited.CreatedAt != g.CreatedAt {
		t.Errorf("edited %+v", edited)
	}
	if _, err := e.core.UpdateCommandRule(ctx, g.ID, api.CommandRuleInput{Decision: api.RuleAllow, Program: "git", Args: []string{"a b"}, Scope: api.RuleScopeGlobal}); !errs.Is(err, errs.RuleInvalid) || errs.ToPayload(err).Details["field"] != "args" {
		t.Errorf("a word with a space: %v, want RULE_INVALID on args", err)
	}
	if err := e.core.RemoveCommandRule(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if err := e.core.RemoveCommandRule(ctx, p.ID); !errs.Is(err, errs.RuleNotFound) {
		t.Errorf("removed twice: %v", err)
	}
	list, _ = e.core.ListCommandRules(ctx)
	var got []string
	for _, r := range list {
		got = append(got, r.Decision+" "+strings.Join(append([]string{r.Program}, r.Args...), " ")+" "+r.Scope+" "+r.ProjectName+r.SessionTitle)
	}
	if w := []string{"ask git push project " + e.project.Name, "allow go test session fix the build"}; !reflect.DeepEqual(got, w) {
		t.Errorf("after edit and removal: %q, want %q", got, w)
	}
}

// TestCheckCommand: a check decides with the rules of the session, the
// project or the global ones, and says for every simple command what it
// decided, which rules matched and why, with the files it would write.
func TestCheckCommand(t *testing.T) {
	e := newRulesEnv(t)
	e.add(t, api.CommandRuleInput{Decision: api.RuleAllow, Program: "git", Args: []string{"status"}, Scope: api.RuleScopeGlobal})
	e.add(t, api.CommandRuleInput{Decision: api.RuleAllow, Program: "echo", Scope: api.RuleScopeProject, ProjectID: e.project.ID})
	e.add(t, api.CommandRuleInput{Decision: api.RuleDeny, Program: "rm", Scope: api.RuleScopeSession, SessionID: e.session.ID})
	cases := []struct {
		name      string
		in        api.CommandCheckInput
		decision  string
		perCmd    []string // decision of each simple command
		matched   []string // the first matched rule of each ("" = none)
		writes    []string
		suggested []string
	}{
		{"global only", api.CommandCheckInput{Command: "git status -s && echo hi"}, "ask",
			[]string{"allow", "ask"}, []string{"git status", ""}, nil, []string{"echo"}},
		{"the project's", api.CommandCheckInput{ProjectID: e.project.ID, Command: "git status -s && echo hi > out.txt"}, "allow",
			[]string{"allow", "allow"}, []string{"git status", "echo"}, []string{"> out.txt"}, []string{}},
		{"the session's", api.CommandCheckInput{SessionID: e.session.ID, Command: "git status; rm -f x"}, "deny",
			[]string{"allow", "deny"}, []string{"git status", "rm"}, nil, []string{}},
		{"another session's", api.CommandCheckInput{SessionID: e.other.ID, Command: "rm -f x"}, "ask",
			[]string{"ask"}, []string{""}, nil, []string{}}, // rm is never offered (Risky)
		{"always asks", api.CommandCheckInput{Command: "eval git status"}, "ask",
			[]string{"ask"}, []string{""}, nil, []string{}},
		{"powershell", api.CommandCheckInput{Command: "git status", Shell: "powershell"}, "ask",
			[]string{"ask"}, []string{""}, nil, []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := e.core.CheckCommand(t.Context(), tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got.Decision != tc.decision || got.Reason == "" || got.Label == "" {
				t.Errorf("decision %q (%q: %s), want %q", got.Decision, got.Label, got.Reason, tc.decision)
			}
			if len(got.Commands) != len(tc.perCmd) {
				t.Fatalf("commands %+v, want %d", got.Commands, len(tc.perCmd))
			}
			for i, c := range got.Commands {
				first := ""
				if len(c.Rules) > 0 {
					first = strings.Join(append([]string{c.Rules[0].Program}, c.Rules[0].Args...), " ")
				}
				if c.Decision != tc.perCmd[i] || first != tc.matched[i] || c.Reason == "" || c.Args == nil || c.Wrappers == nil {
					t.Errorf("command %d %q: %s matched %q (%s), want %s matched %q", i, c.Text, c.Decision, first, c.Reason, tc.perCmd[i], tc.matched[i])
				}
			}
			var writes []string
			for _, w := range got.Writes {
				writes = append(writes, w.Via+" "+w.Path)
			}
			if !reflect.DeepEqual(writes, tc.writes) {
				t.Errorf("writes %q, want %q", writes, tc.writes)
			}
			if tc.suggested != nil && !reflect.DeepEqual(got.Suggestions, tc.suggested) {
				t.Errorf("suggestions %q, want %q", got.Suggestions, tc.suggested)
			}
		})
	}
	if got, _ := e.core.CheckCommand(t.Context(), api.CommandCheckInput{Command: "ls"}); got.Shell != "posix" {
		t.Errorf("default shell dialect %q, want posix (this machine's default shell)", got.Shell)
	}
}

func TestCheckCommandRefuses(t *testing.T) {
	e := newRulesEnv(t)
	cases := []struct {
		name string
		in   api.CommandCheckInput
		code errs.Code
	}{
		{"no command", api.CommandCheckInput{}, errs.InvalidArgument},
		{"too long", api.CommandCheckInput{Command: strings.Repeat("a", 64<<10+1)}, errs.InvalidArgument},
		{"unknown shell", api.CommandCheckInput{Command: "ls", Shell: "fish"}, errs.InvalidArgument},
		{"unknown project", api.CommandCheckInput{Command: "ls", ProjectID: "gone"}, errs.ProjectNotFound},
		{"unknown session", api.CommandCheckInput{Command: "ls", SessionID: "gone"}, errs.SessionNotFound},
	}
	for _, tc := range cases {
		if _, err := e.core.CheckCommand(t.Context(), tc.in); !errs.Is(err, tc.code) {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}
}
