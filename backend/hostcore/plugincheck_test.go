package hostcore_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/plugin"
	"github.com/pi-desktop/pi-desktop/internal/pluginsample"
)

// plugin.Check reports every problem of a plugin folder, starting its
// process to see that it lists each declared tool.
func TestPluginCheckReportsEveryProblem(t *testing.T) {
	folder := func(edit func(m map[string]any)) string {
		dir := filepath.Join(t.TempDir(), "plugin")
		pluginsample.Folder(t, dir, filepath.Join(t.TempDir(), "events.log"), edit)
		return dir
	}
	addTool := func(tool map[string]any) func(m map[string]any) {
		return func(m map[string]any) {
			c := m["contributes"].(map[string]any)
			c["agentTools"] = append(c["agentTools"].([]any), tool)
		}
	}
	for _, tc := range []struct {
		name    string
		edit    func(m map[string]any)
		summary bool
		want    []string // one problem containing each
	}{
		{"the sample", nil, true, nil},
		{"a declared tool its process does not serve", addTool(map[string]any{
			"name": "ghost", "description": "Not served.", "inputSchema": map[string]any{"type": "object"}, "risk": "low",
		}), true, []string{`"ghost" is declared but its process does not list it`}},
		{"an invalid risk", addTool(map[string]any{
			"name": "inspect2", "description": "Risky.", "inputSchema": map[string]any{"type": "object"}, "risk": "extreme",
		}), true, []string{"risk is missing or not low, medium or high", `"inspect2" is declared but its process does not list it`}},
		{"a process that does not start", func(m map[string]any) { m["command"] = "bin/missing" }, true, []string{"PLUGIN_CRASHED"}},
		{"an invalid id", func(m map[string]any) { m["id"] = "Not An Id" }, false, []string{"PLUGIN_INVALID"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := plugin.Check(t.Context(), folder(tc.edit), plugin.RuntimeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if (rep.Summary != nil) != tc.summary {
				t.Errorf("summary = %+v, want one: %v", rep.Summary, tc.summary)
			}
			if len(rep.Problems) != len(tc.want) {
				t.Fatalf("problems = %+v, want %d", rep.Problems, len(tc.want))
			}
			for _, w := range tc.want {
				if !slices.ContainsFunc(rep.Problems, func(p plugin.Problem) bool { return strings.Contains(string(p.Code)+": "+p.Message, w) }) {
					t.Errorf("problems %+v: none says %q", rep.Problems, w)
				}
			}
			if tc.summary && !strings.Contains(strings.Join(tc.want, " "), "PLUGIN_CRASHED") {
				if !slices.Contains(rep.Listed, "inspect") || !slices.Contains(rep.Listed, "deploy") {
					t.Errorf("listed = %v, want the sample's tools", rep.Listed)
				}
			}
		})
	}
}
