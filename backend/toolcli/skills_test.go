package toolcli_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

func (f fixture) skills(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := toolcli.Skills(t.Context(), args, toolcli.Env{Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }})
	return code, out.String(), errOut.String()
}

// skills list --workspace DIR: the app's and the project's skills with
// their source and description, a user-only one marked, a name clash and
// a malformed file listed with their reasons; as JSON and as a table.
func TestSkillsList(t *testing.T) {
	f := newFixture(t)
	put(t, filepath.Join(f.data, "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Review like this team.\n---\nB\n")
	put(t, filepath.Join(f.workspace, ".agents", "skills", "review", "SKILL.md"), "---\nname: review\ndescription: The project's own.\n---\nB\n")
	put(t, filepath.Join(f.workspace, ".agents", "skills", "ship.md"), "---\ndescription: Ship it.\ndisable-model-invocation: true\n---\nB\n")
	put(t, filepath.Join(f.workspace, ".claude", "skills", "Bad", "SKILL.md"), "---\ndescription: d\n---\n")

	code, out, errOut := f.skills(t, "list", "--workspace", f.workspace, "--json")
	if code != 0 {
		t.Fatalf("list --json: %d %s", code, errOut)
	}
	var list api.SkillList
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(list.Skills) != 2 || list.Skills[0].Name != "review" || list.Skills[0].Source != "user" ||
		list.Skills[1].Name != "ship" || !list.Skills[1].UserOnly || list.Skills[1].Source != "project" {
		t.Fatalf("skills = %+v", list.Skills)
	}
	reasons := map[string]string{}
	for _, p := range list.Problems {
		reasons[filepath.Base(filepath.Dir(p.Path))+"/"+filepath.Base(p.Path)] = p.Reason
	}
	if reasons["review/SKILL.md"] != "shadowed" || reasons["Bad/SKILL.md"] != "invalid_name" || len(list.Problems) != 2 {
		t.Fatalf("problems = %+v", list.Problems)
	}

	code, out, errOut = f.skills(t, "list", "--workspace", f.workspace)
	if code != 0 {
		t.Fatalf("list: %d %s", code, errOut)
	}
	for _, want := range []string{"NAME", "review  user", "Review like this team.", "(only /skill:) Ship it.", "Not loaded (2):", "(project, shadowed): not used:", "invalid_name"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	// Without --workspace only the app's and the user's skills are read.
	if code, out, _ := f.skills(t, "list", "--json"); code != 0 || strings.Contains(out, "ship") {
		t.Fatalf("list without workspace: %d %s", code, out)
	}
}

func TestSkillsUsage(t *testing.T) {
	f := newFixture(t)
	for _, args := range [][]string{nil, {"frob"}, {"list", "extra"}, {"list", "--nope"}} {
		if code, _, errOut := f.skills(t, args...); code != 2 || !strings.Contains(errOut, "Usage:") {
			t.Errorf("%v: %d %s", args, code, errOut)
		}
	}
	if code, out, _ := f.skills(t, "--help"); code != 0 || !strings.Contains(out, "pi-desktop skills list") {
		t.Errorf("--help: %d %s", code, out)
	}
}
