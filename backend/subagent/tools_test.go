package subagent_test

import (
	"reflect"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/subagent"
)

func TestResolve(t *testing.T) {
	parent := []string{"Read", "Glob", "Grep", "Write", "Edit", "Bash", "TodoWrite", "asktool", "new_context",
		"EnterPlanMode", "EnterGoalMode", "SubmitPlan", "SubmitGoal", "ToolSearch", "Task", "TaskWait", "TaskList", "TaskStop",
		"mcp_github_create_issue", "plugin_lint_run"}
	tests := []struct {
		name   string
		spec   subagent.ToolSpec
		parent []string
		want   []string
	}{
		{"fixed names ignore the parent", subagent.ToolSpec{Names: []string{"Read", "Grep"}}, parent, []string{"Read", "Grep"}},
		{"a fixed tool the parent lacks is still the delegate's", subagent.ToolSpec{Names: []string{"BrowserPreview"}}, []string{"Read"}, []string{"BrowserPreview"}},
		{"read-only never gains Write from the parent", subagent.ToolSpec{Names: subagent.DefaultTools()}, parent, []string{"Read", "Glob", "Grep"}},
		{"inherit drops delegation, mode, ask, compaction and search tools but keeps MCP and plugins", subagent.ToolSpec{Inherit: true}, parent,
			[]string{"Read", "Glob", "Grep", "Write", "Edit", "Bash", "TodoWrite", "mcp_github_create_issue", "plugin_lint_run"}},
		{"inherit plus extras appends what the parent lacks", subagent.ToolSpec{Inherit: true, Names: []string{"Bash", "BrowserPreview"}}, []string{"Read", "Bash", "mcp_x_y"},
			[]string{"Read", "Bash", "mcp_x_y", "BrowserPreview"}},
		{"exclusions apply to the inherited catalog", subagent.ToolSpec{Inherit: true, Exclude: []string{"Bash", "mcp_x_y"}}, []string{"Read", "Bash", "mcp_x_y"}, []string{"Read"}},
		{"Task never, even named", subagent.ToolSpec{Names: []string{"Task", "Read"}}, parent, []string{"Read"}},
		{"an empty parent leaves the extras", subagent.ToolSpec{Inherit: true, Names: []string{"Read"}}, nil, []string{"Read"}},
		{"duplicates in the parent count once", subagent.ToolSpec{Inherit: true}, []string{"Read", "Read", ""}, []string{"Read"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.spec.Resolve(tt.parent); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Resolve = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWrites(t *testing.T) {
	for _, tt := range []struct {
		tools []string
		want  bool
	}{
		{[]string{"Read", "Glob", "Grep"}, false},
		{[]string{"Read", "Bash"}, false}, // Bash-only shares the session's root (§10.2)
		{[]string{"Edit"}, true},
		{[]string{"Read", "Write"}, true},
	} {
		if got := subagent.Writes(tt.tools); got != tt.want {
			t.Errorf("Writes(%q) = %v", tt.tools, got)
		}
	}
}

func TestResolveModel(t *testing.T) {
	tests := []struct {
		spec   string
		want   string
		found  bool
		reason string
	}{
		{"p-gpt", "p-gpt", true, "by id"},
		{"Work GPT", "p-gpt", true, "by name"},
		{"work gpt", "", false, "names match exactly"},
		{"claude-haiku-4-5", "p-haiku", true, "by model id"},
		{"sonnet", "p-claude", true, "alias: the first Anthropic profile whose model has it"},
		{"haiku", "p-haiku", true, "alias"},
		{"Haiku", "p-haiku", true, "aliases ignore case"},
		{"opus", "", false, "no Anthropic profile has opus"},
		{"gpt", "", false, "gpt is not an alias"},
		{"", "", false, "nothing"},
	}
	for _, tt := range tests {
		got, found := subagent.ResolveModel(tt.spec, profiles)
		if got != tt.want || found != tt.found {
			t.Errorf("%s: ResolveModel(%q) = %q, %v; want %q, %v", tt.reason, tt.spec, got, found, tt.want, tt.found)
		}
	}
	// An alias never picks a non-Anthropic profile, even one whose model
	// id contains it.
	other := []subagent.ProfileRef{{ID: "router", API: "openai-compatible", Model: "anthropic/claude-sonnet-4"}}
	if got, found := subagent.ResolveModel("sonnet", other); found {
		t.Errorf("sonnet resolved to %q through an OpenAI-compatible profile", got)
	}
}

func TestPermissionOverride(t *testing.T) {
	for p, want := range map[subagent.Permission]string{
		subagent.PermissionInherit: "", subagent.PermissionAsk: "ask", subagent.PermissionAcceptEdits: "accept-edits", subagent.PermissionAuto: "auto",
	} {
		if got := (subagent.Definition{Permission: p}).PermissionOverride(); got != want {
			t.Errorf("%s: override %q, want %q", p, got, want)
		}
	}
}
