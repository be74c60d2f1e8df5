package hostcore_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/cmdrule"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// A rule allowing sort spares no card when sort writes into .git through a
// clustered or abbreviated option, nor when an allowed command names a
// protected path or one outside the session's folders in any argument (a
// write the classifier cannot see, like uniq's output file); plain reads
// and writes in the workspace still run without one.
func TestRuleAllowedCommandsNamingProtectedPathsAsk(t *testing.T) {
	e := newEnv(t)
	git(t, os.Getenv("HOME"), e.project, "init", "-q")
	e.addRule(cmdrule.Allow, cmdrule.ScopeGlobal, "sort")
	e.addRule(cmdrule.Allow, cmdrule.ScopeGlobal, "uniq")
	e.configure(api.ModeAgent, api.PermissionAcceptEdits)
	write(t, filepath.Join(e.project, "a.txt"), "b\na\n")
	write(t, filepath.Join(e.project, "x"), "[core]\n\tfsmonitor = evil\n")
	config := filepath.Join(e.project, ".git", "config")
	before, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}

	for _, cmd := range []string{
		"sort -uo .git/config x",
		"sort -uo.git/config x",
		"sort --outp=.git/config x",
		"sort -o .git/config x",
		"uniq x .git/config",
		"uniq x sub/../.git/config",
		"sort -o " + filepath.Join(e.outside, "o.txt") + " x",
		"sort " + filepath.Join(e.outside, "secret.txt"),
		"sort ~/x",
	} {
		res, card := e.callAnswering(e.session.ID, "Bash", map[string]any{"command": cmd}, permission.Denied)
		if res.OK || card.Command == nil {
			t.Fatalf("%q: %+v card %+v", cmd, res, card)
		}
		if row := e.lastRow(); !row.prompted || row.decision == "allow" {
			t.Fatalf("%q: audit row %+v", cmd, row)
		}
	}
	if after, _ := os.ReadFile(config); string(after) != string(before) {
		t.Fatalf(".git/config changed: %q", after)
	}
	if _, err := os.Stat(filepath.Join(e.outside, "o.txt")); err == nil {
		t.Fatal("o.txt was written after a deny")
	}

	for _, cmd := range []string{"sort a.txt", "sort ./a.txt", "sort -uo sorted.txt a.txt", "uniq a.txt /dev/null"} {
		if res := e.bash(cmd); !res.OK || res.Decision != "allow" {
			t.Fatalf("%q: %+v", cmd, res)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(e.project, "sorted.txt")); string(b) != "a\nb\n" {
		t.Errorf("sorted.txt = %q", b)
	}
}
