package subagent

import (
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// The seven working tools a definition may name (§10.2), in the order
// "*" expands to.
var workingTools = [...]string{"Read", "Glob", "Grep", "BrowserPreview", "Bash", "Edit", "Write"}

// WorkingTools returns the tools a definition may name one by one.
func WorkingTools() []string { return slices.Clone(workingTools[:]) }

// DefaultTools are a definition's tools when it names none: read-only.
func DefaultTools() []string { return []string{"Read", "Glob", "Grep"} }

// Tokens with a meaning in a tools list.
const (
	InheritToken = "inherit"
	AllToken     = "*"
)

// neverInherited are the parent's tools a delegate never gets through
// inherit (§10.2): delegation itself (a delegate never delegates), the mode
// switches and submits, asking the user, compaction and the deferred-tool
// search (a delegate keeps the catalog it starts with).
var neverInherited = []string{
	tools.Task, tools.TaskWait, tools.TaskList, tools.TaskStop,
	tools.EnterPlanMode, tools.EnterGoalMode, tools.SubmitPlan, tools.SubmitGoal,
	tools.AskTool, tools.NewContext, tools.ToolSearch,
}

// NeverInherited returns the tools a delegate never gets through inherit.
func NeverInherited() []string { return slices.Clone(neverInherited) }

// ToolSpec is a definition's tools.
type ToolSpec struct {
	// Names are the working tools named explicitly (or through "*"), in
	// the order of WorkingTools.
	Names []string
	// Inherit opts into the parent session's live catalog (tools: inherit,
	// or [inherit, Bash] for that plus extras).
	Inherit bool
	// Exclude are tools taken away again (Claude's disallowedTools); they
	// apply to the inherited catalog too.
	Exclude []string
	// Written is the tools value as the file has it, for editing; nil when
	// the file names none.
	Written []string
}

// Resolve returns the tools a delegate of this definition may call, given
// its parent's live catalog (the tool names the parent session can call,
// deferred MCP and plugin tools included). Without Inherit the parent's
// catalog is irrelevant: a delegate never gains a tool because its parent
// has it. The delegation tools are never in the result. A working tool the
// host does not register (yet) is still listed: the runtime offers only
// the names its registry has.
func (s ToolSpec) Resolve(parentCatalog []string) []string {
	var out []string
	add := func(name string) {
		if name == "" || slices.Contains(neverInherited, name) || slices.Contains(s.Exclude, name) || slices.Contains(out, name) {
			return
		}
		out = append(out, name)
	}
	if s.Inherit {
		for _, name := range parentCatalog {
			add(name)
		}
	}
	for _, name := range s.Names {
		add(name)
	}
	return out
}

// Writes reports whether the resolved tools can change files (Write or
// Edit), which is what sends a delegate of an isolated session to its own
// worktree.
func Writes(resolved []string) bool {
	return slices.Contains(resolved, "Write") || slices.Contains(resolved, "Edit")
}

// String is the spec as the list and the CLI show it.
func (s ToolSpec) String() string {
	parts := slices.Clone(s.Names)
	if s.Inherit {
		parts = append([]string{InheritToken}, parts...)
	}
	out := strings.Join(parts, ", ")
	if len(s.Exclude) > 0 {
		out += " (not " + strings.Join(s.Exclude, ", ") + ")"
	}
	return out
}

// canonicalTool returns the working tool name matches (case-insensitively:
// "read" and "READ" are plainly Read), or "".
func canonicalTool(name string) string {
	for _, t := range workingTools {
		if strings.EqualFold(t, name) {
			return t
		}
	}
	return ""
}

// sortWorking orders names as WorkingTools does.
func sortWorking(names []string) []string {
	out := make([]string, 0, len(names))
	for _, t := range workingTools {
		if slices.Contains(names, t) {
			out = append(out, t)
		}
	}
	return out
}
