package cmdrule

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

func TestWriteTargets(t *testing.T) {
	cases := []struct {
		cmd  string
		want []WriteTarget
	}{
		{"echo x > .git/hooks/pre-commit", []WriteTarget{{Path: ".git/hooks/pre-commit", Static: true, Via: ">", Command: 0}}},
		{"git log >> 'log file.txt' 2>&1", []WriteTarget{{Path: "log file.txt", Static: true, Via: ">>", Command: 0}}},
		{"go test &> out", []WriteTarget{{Path: "out", Static: true, Via: "&>", Command: 0}}},
		{"go test &>> out", []WriteTarget{{Path: "out", Static: true, Via: "&>>", Command: 0}}},
		{"echo x >| f", []WriteTarget{{Path: "f", Static: true, Via: ">|", Command: 0}}},
		{"echo x >& f", []WriteTarget{{Path: "f", Static: true, Via: ">&", Command: 0}}},
		{"echo x 1<> f", []WriteTarget{{Path: "f", Static: true, Via: "<>", Command: 0}}},
		{"echo x > /dev/null 2>/dev/stderr >&2", []WriteTarget{}},
		{"git log | tee -a a.txt b.txt", []WriteTarget{{Path: "a.txt", Static: true, Via: "tee", Command: 1}, {Path: "b.txt", Static: true, Via: "tee", Command: 1}}},
		{"dd if=/dev/zero of=disk.img bs=1", []WriteTarget{{Path: "disk.img", Static: true, Via: "dd of=", Command: 0}}},
		{"echo x > \"$HOME/f\"", []WriteTarget{{Path: `"$HOME/f"`, Static: false, Via: ">", Command: 0}}},
		{"{ ls; } > out", []WriteTarget{{Path: "out", Static: true, Via: ">", Command: -1}}},
		{"git diff --output=d.patch HEAD", []WriteTarget{{Path: "d.patch", Static: true, Via: "--output", Command: 0}}},
		{"git log --output $f", []WriteTarget{{Path: "$f", Static: false, Via: "--output", Command: 0}}},
		{"sort -o sorted.txt in.txt", []WriteTarget{{Path: "sorted.txt", Static: true, Via: "-o", Command: 0}}},
		{"sort --output=s.txt in.txt", []WriteTarget{{Path: "s.txt", Static: true, Via: "--output", Command: 0}}},
		{"sort -uo out in", []WriteTarget{{Path: "out", Static: true, Via: "-o", Command: 0}}},
		{"sort -uo.git/config in", []WriteTarget{{Path: ".git/config", Static: true, Via: "-o", Command: 0}}},
		{"sort -ro out -u in", []WriteTarget{{Path: "out", Static: true, Via: "-o", Command: 0}}},
		{"sort --outp=out in", []WriteTarget{{Path: "out", Static: true, Via: "--output", Command: 0}}},
		{"sort --ou out in", []WriteTarget{{Path: "out", Static: true, Via: "--output", Command: 0}}},
		{"sort -u -r in", []WriteTarget{}},
		{"sort --o=x --outputs=y in", []WriteTarget{}},
		{"git diff --outp=d.patch", []WriteTarget{{Path: "d.patch", Static: true, Via: "--output", Command: 0}}},
		{"git log -o x", []WriteTarget{}},
	}
	for _, tc := range cases {
		got := Classify(tc.cmd, corpusRules)
		if !reflect.DeepEqual(got.Writes, tc.want) {
			t.Errorf("%q: writes %+v, want %+v", tc.cmd, got.Writes, tc.want)
		}
	}
}

func TestNonStaticWriteAsks(t *testing.T) {
	got := Classify(`echo x > "$f"`, corpusRules)
	if got.Decision != Ask || !got.Commands[0].AlwaysAsk || !strings.Contains(got.Reason, "only known when the shell runs it") {
		t.Fatalf("got %s %q", got.Decision, got.Reason)
	}
}

func TestSuggestions(t *testing.T) {
	none := []Rule{}
	cases := []struct {
		cmd  string
		want []string
	}{
		{"git status -s", []string{"git status"}},
		{"git status && git status --short && go test ./...", []string{"git status", "go test"}},
		{"npm run test -- --watch", []string{"npm run test"}},
		{"pnpm run lint", []string{"pnpm run lint"}},
		{"npm install", []string{"npm install"}},
		{"cargo build --release | tee log", []string{"cargo build", "tee"}},
		{"docker ps -a", []string{"docker ps"}},
		{"kubectl get pods", []string{"kubectl get"}},
		{"make test", []string{"make test"}},
		{"make", nil},
		{"ls -la", []string{"ls"}},
		{"git -C x status", nil},
		{"/usr/bin/git push origin main", nil},
		{"./build.sh --fast", nil},
		{"git \"$sub\"", nil},
		{"python3 script.py", nil},
		{"git status; eval x", nil},
		{"git status; sh -c 'ls'", nil},
		{"git status > \"$f\"", nil},
		{"git status &&", nil},
		{"git status", nil},
	}
	for _, tc := range cases {
		rules := none
		if tc.cmd == "git status" {
			rules = corpusRules // already allowed: nothing to suggest
		}
		var got []string
		for _, s := range Classify(tc.cmd, rules).Suggestions {
			got = append(got, s.Words())
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: suggestions %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

// TestSuggestionAllowsOnlyWhatItSays: adding a suggestion as a rule allows
// the command it came from and still asks for a chained one.
func TestSuggestionAllowsOnlyWhatItSays(t *testing.T) {
	first := Classify("git status -s", nil)
	if len(first.Suggestions) != 1 {
		t.Fatalf("suggestions %v", first.Suggestions)
	}
	s := first.Suggestions[0]
	rules := []Rule{{ID: "s", Decision: Allow, Program: s.Program, Args: s.Args, Scope: ScopeSession}}
	if got := Classify("git status --porcelain", rules); got.Decision != Allow {
		t.Errorf("git status --porcelain: %s (%s)", got.Decision, got.Reason)
	}
	for _, cmd := range []string{"git status && rm x", "git statuses", "git stash"} {
		if got := Classify(cmd, rules); got.Decision != Ask {
			t.Errorf("%q: %s, want ask", cmd, got.Decision)
		}
	}
}

func TestCommandDisplay(t *testing.T) {
	got := Classify("timeout 5 nice -n 2 git status -s 2>/dev/null | head -3; FOO=1 env -i go test ./...", corpusRules)
	type row struct {
		Text, Program string
		Args          []string
		Wrappers      []string
		Decision      Decision
		Reason        string
	}
	var rows []row
	for _, c := range got.Commands {
		rows = append(rows, row{c.Text, c.Program, c.Args, c.Wrappers, c.Decision, c.Reason})
	}
	want := []row{
		{"timeout 5 nice -n 2 git status -s 2>/dev/null", "git", []string{"status", "-s"}, []string{"timeout 5", "nice -n 2"}, Allow, "allowed by rule: allow git status (project)"},
		{"head -3", "head", []string{"-3"}, nil, Allow, "allowed by rule: allow head (global)"},
		{"FOO=1 env -i go test ./...", "go", []string{"test", "./..."}, []string{"env -i"}, Allow, "allowed by rule: allow go test (global)"},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("commands\n got %+v\nwant %+v", rows, want)
	}
}

func TestReasonsNameTheConstruct(t *testing.T) {
	cases := []struct{ cmd, reason string }{
		{"sudo ls", "runs as another user; never looked through"},
		{"git -c core.pager=x log", "git -c changes git's configuration"},
		{"python3 -c 1", "python3 -c runs code given on the command line"},
		{"sed -i s/a/b/ f", "sed -i edits files in place"},
		{"PATH=. ls", "sets PATH"},
		{"$x", "the program $x is only known when the shell runs it"},
		{"rm -rf /", "denied by rule: deny rm -rf (global)"},
		{"git commit", "a rule asks: ask git commit (global)"},
		{"whoami", "no rule allows “whoami”"},
	}
	for _, tc := range cases {
		got := Classify(tc.cmd, corpusRules)
		if !strings.Contains(got.Commands[0].Reason, tc.reason) {
			t.Errorf("%q: reason %q, want it to say %q", tc.cmd, got.Commands[0].Reason, tc.reason)
		}
	}
}

func TestMatchedRulesListed(t *testing.T) {
	got := Classify("git commit -m x", corpusRules)
	var ids []string
	for _, r := range got.Commands[0].Rules {
		ids = append(ids, r.ID)
	}
	if !reflect.DeepEqual(ids, []string{"r10", "r11"}) {
		t.Errorf("rules %v, want the ask rule then the allow rule", ids)
	}
}

func TestDenyError(t *testing.T) {
	err := Classify("git status; rm -rf build", corpusRules).DenyError()
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.CommandDeniedByRule || e.Details["ruleId"] != "r9" || e.Details["command"] != "rm -rf build" {
		t.Fatalf("err = %v", err)
	}
	if err := Classify("git status", corpusRules).DenyError(); err != nil {
		t.Errorf("allowed command: %v", err)
	}
	if err := Classify("whoami", corpusRules).DenyError(); err != nil {
		t.Errorf("asking command: %v", err)
	}
}

func TestDialects(t *testing.T) {
	cases := []struct {
		dialect, cmd string
		want         Decision
	}{
		{shells.DialectPOSIX, "git status", Allow},
		{shells.DialectPowerShell, "git status", Ask},
		{shells.DialectPowerShell, "Get-ChildItem; rm -rf C:\\x", Deny},
		{shells.DialectPowerShell, "git status | & curl x", Deny},
		{shells.DialectPowerShell, "git push origin --force", Deny},
		{shells.DialectCmd, "dir && \"rm\" -rf x", Deny},
		{shells.DialectCmd, "C:\\tools\\curl.exe x", Deny},
		{shells.DialectCmd, "echo rm -rf", Ask},
		{"fish", "git status", Ask},
	}
	for _, tc := range cases {
		got := ClassifyDialect(tc.dialect, tc.cmd, corpusRules)
		if got.Decision != tc.want {
			t.Errorf("%s %q: %s, want %s (%s)", tc.dialect, tc.cmd, got.Decision, tc.want, got.Reason)
		}
		if tc.dialect != shells.DialectPOSIX && len(got.Suggestions) > 0 {
			t.Errorf("%s %q: suggestions %v", tc.dialect, tc.cmd, got.Suggestions)
		}
	}
}

func TestResultListsAreNeverNull(t *testing.T) {
	for _, cmd := range []string{"", "ls", "ls &&"} {
		r := Classify(cmd, nil)
		if r.Commands == nil || r.Writes == nil || r.Suggestions == nil {
			t.Errorf("%q: a nil list in %+v", cmd, r)
		}
		for _, c := range r.Commands {
			if c.Args == nil || c.Rules == nil {
				t.Errorf("%q: a nil list in %+v", cmd, c)
			}
		}
	}
}

// TestNestingBounded: code nested deeper than deny rules are checked, or
// more strings than are parsed again, is refused while any deny rule exists
// (so none can hide there), and asks when there is none.
func TestNestingBounded(t *testing.T) {
	deep := "ls"
	for range 6 {
		deep = "bash -c " + shellQuote(deep)
	}
	denyOnly := []Rule{{ID: "d", Decision: Deny, Program: "curl", Scope: ScopeGlobal}}
	cases := []struct {
		cmd   string
		rules []Rule
		want  Decision
	}{
		{"bash -c " + shellQuote("bash -c "+shellQuote("rm -rf /")), corpusRules, Deny},
		{deep, denyOnly, Deny},
		{deep, nil, Ask},
		{"env" + strings.Repeat(" -S env", 50) + " ls", denyOnly, Deny},
		{"env -S ls", denyOnly, Ask},
		{strings.Repeat("eval ", 40) + "ls", denyOnly, Deny},
		{"find" + strings.Repeat(" -exec find", 40) + " -exec ls", denyOnly, Deny},
		{"find . -exec ls ;", denyOnly, Ask},
	}
	for _, tc := range cases {
		got := Classify(tc.cmd, tc.rules)
		if got.Decision != tc.want {
			t.Errorf("%.60q…: %s, want %s (%s)", tc.cmd, got.Decision, tc.want, got.Reason)
		}
	}
	err := Classify(deep, denyOnly).DenyError()
	if !errs.Is(err, errs.CommandTooComplex) {
		t.Errorf("deep: %v", err)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestDecisionLabel(t *testing.T) {
	cases := []struct {
		d    Decision
		want string
	}{
		{Allow, "allowed by rule"},
		{Ask, "needs you"},
		{Deny, "denied"},
		{"", "needs you"}, // unknown: asks
		{"maybe", "needs you"},
	}
	for _, tc := range cases {
		if got := tc.d.Label(); got != tc.want {
			t.Errorf("%q.Label() = %q, want %q", tc.d, got, tc.want)
		}
	}
}
