package agent

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// PromptInput is everything the system prompt is built from.
type PromptInput struct {
	Info SessionInfo
	// Instructions is the workspace's AGENTS.md (or CLAUDE.md) as host-core
	// returned it: already bounded, with its truncation note.
	Instructions string
	Today        time.Time
	// OnDemand is the mode's on-demand catalog, listed in a bounded
	// section (the model loads entries with ToolSearch).
	OnDemand []DeferredTool
	// Subagents are the ones Task can start (empty when Task is not offered).
	Subagents []SubagentInfo
	// Skills is the skills catalog section (skills.BuildCatalog), already
	// bounded; "" when the session has none for the model.
	Skills string
}

// Bounds of the "On-demand tools" section: entries, bytes of the list, and
// characters of one summary.
const (
	maxCatalogEntries = 30
	maxCatalogBytes   = 3000
	maxSummaryChars   = 160
)

// BuildPrompt renders the system prompt. It is deterministic, so a debug
// flag can print exactly what the model receives.
func BuildPrompt(in PromptInput) string {
	var b strings.Builder
	info := in.Info
	b.WriteString("You are the coding agent of PI-Desktop. You help the user with software tasks in their workspace, " +
		"working through the tools you are given. Every tool call goes through the host, which checks paths and " +
		"permissions, may ask the user, and records what happened.\n")

	writeEnvironment(&b, info, in.Today)

	b.WriteString("\n# How to work\n")
	b.WriteString("- Read, Glob and Grep calls in one response run in parallel: issue independent lookups together. " +
		"Any other tool in a response makes all its calls run one after another, in order.\n")
	b.WriteString("- Read a file before you change it. Edit works on line anchors from Read output (the [path#TAG] header and " +
		"numbered lines); Write replaces a whole file and needs the tag of the version you read to overwrite one.\n")
	b.WriteString("- When an edit fails, classify the error first: a stale tag or unseen lines needs one fresh Read; a parse or " +
		"range error needs a corrected operation, not another Read. After repeated failures on one path the host ends " +
		"the turn: then report the exact mismatch instead of trying again.\n")
	b.WriteString("- Keep changes to one file sequential. Do not hand-edit unified-diff hunk headers.\n")
	b.WriteString("- A result that says \"user denied permission\" means the user said no: do not retry the call; continue " +
		"without it or ask how to proceed.\n")
	b.WriteString("- Results may be cut to size; their notice says how to get the rest (an offset, a narrower pattern, a saved file).\n")
	switch info.OperatingMode {
	case api.ModePlan:
		b.WriteString("\n# Plan mode\nYou are planning, not changing anything: investigate with Read, Glob, Grep and " +
			"read-only Bash commands. Write, Edit and other changes are refused by the host in this mode. " +
			"When the plan is ready, call SubmitPlan alone in its response; the user approves it (you then carry it out in Agent mode) " +
			"or replies with feedback to revise it.\n")
	case api.ModeGoal:
		b.WriteString("\n# Goal mode\nYou are defining a goal and its acceptance criteria, not changing anything: " +
			"investigate with Read, Glob, Grep and read-only Bash commands. Write, Edit and other changes are refused by the host in this mode. " +
			"Make every criterion verifiable. When the goal is ready, call SubmitGoal alone in its response; the user approves it " +
			"(you then work in Agent mode until every criterion is reached and verified) or replies with feedback to revise it.\n")
	}

	writeCatalog(&b, in.OnDemand)
	writeSubagents(&b, in.Subagents)
	b.WriteString(in.Skills)

	if s := strings.TrimSpace(in.Instructions); s != "" {
		b.WriteString("\n# Project instructions\nFrom the workspace's AGENTS.md (or CLAUDE.md). Follow them unless the user says otherwise.\n\n")
		b.WriteString(s)
		b.WriteString("\n")
	}
	return b.String()
}

// writeEnvironment renders the environment block, shared by the session's
// prompt and a delegate's.
func writeEnvironment(b *strings.Builder, info SessionInfo, today time.Time) {
	b.WriteString("\n# Environment\n")
	fmt.Fprintf(b, "- Platform: %s\n", platformName(info.Platform))
	shell := info.ShellID
	if shell == "" {
		shell = "the default shell"
	}
	dialect := info.ShellDialect
	if dialect == "" {
		dialect = "bash"
	}
	fmt.Fprintf(b, "- Bash runs commands in %s (dialect: %s). Write every command in that dialect; it is pinned for this turn.\n", shell, dialect)
	fmt.Fprintf(b, "- Workspace root: %s\n", info.Workspace)
	b.WriteString("  Relative paths resolve against it, and it is the working directory of every command.\n")
	if info.Temporary {
		b.WriteString("  This is a temporary session: the workspace is its own scratch folder and is deleted with the session.\n")
	}
	fmt.Fprintf(b, "- Scratch folder (absolute path): %s\n", info.Scratch)
	b.WriteString("  Put temporary files, notes and experiments there, never in the workspace. Address it with absolute paths.\n")
	if info.Visualization != "" {
		fmt.Fprintf(b, "- Visualization folder (absolute path): %s\n", info.Visualization)
		b.WriteString("  To show a chart inline, Write an HTML fragment there (e.g. chart.html; no <html>, <head> or <body>; at most 2 MB), " +
			"then put this line on its own in your reply: ::visualize{\"path\":\"<absolute path>\",\"title\":\"<short title>\"}. " +
			"It renders after the turn, sandboxed: no network, no external scripts or files. Preloaded: D3 v7 as d3, and " +
			"viz.bar|line|scatter(elementId, rows, {x, y}), viz.chart(elementId, {type, data, ...}), viz.render(elementId, (selection, {width, height}) => ...).\n")
	}
	fmt.Fprintf(b, "- Operating mode: %s\n", permission.ModeName(info.OperatingMode))
	fmt.Fprintf(b, "- Today's date: %s\n", today.Format("2006-01-02"))
}

// DelegatePrompt is a delegate's system prompt: its definition's body, then
// the environment block the session's prompt has, and how its report is
// used.
func DelegatePrompt(body string, info SessionInfo, today time.Time) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(body))
	b.WriteString("\n")
	writeEnvironment(&b, info, today)
	b.WriteString("\n# Your report\nYou are a delegate of the session's agent, working on one task it gave you. " +
		"Your last message is your report: the agent sees nothing else of your work, so say what you found or changed, " +
		"with paths, and what is left. A result that says \"user denied permission\" means the user said no: report it.\n")
	return b.String()
}

// writeSubagents lists the subagents Task can start, one line each.
func writeSubagents(b *strings.Builder, list []SubagentInfo) {
	if len(list) == 0 {
		return
	}
	b.WriteString("\n# Subagents\nTask starts one of these on a task of its own; it reports back through TaskWait. " +
		"Delegate independent, well-described pieces of work; several Task calls in one response run in parallel.\n")
	for _, s := range list {
		fmt.Fprintf(b, "- %s: %s\n", s.Name, oneLine(s.Description, maxSummaryChars))
	}
}

// writeCatalog renders the on-demand catalog: one line per tool, at most
// maxCatalogEntries lines and maxCatalogBytes bytes, then how many more
// there are.
func writeCatalog(b *strings.Builder, catalog []DeferredTool) {
	if len(catalog) == 0 {
		return
	}
	b.WriteString("\n# On-demand tools\n")
	b.WriteString("These tools exist but are not loaded, so you cannot call them yet. To use one, call ToolSearch with its name, " +
		"\"select:Name1,Name2\", or words for the capability you need; it can be called from your next response on.\n")
	size := 0
	for i, d := range catalog {
		line := "- " + d.Name + ": " + oneLine(d.Summary, maxSummaryChars) + "\n"
		if i == maxCatalogEntries || size+len(line) > maxCatalogBytes {
			fmt.Fprintf(b, "- … %d more; search by capability with ToolSearch.\n", len(catalog)-i)
			return
		}
		size += len(line)
		b.WriteString(line)
	}
}

// oneLine collapses s to one line of at most max characters.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return strings.TrimSpace(truncate.Runes(s, max-1)) + truncate.Ellipsis
}

func platformName(goos string) string {
	switch goos {
	case "darwin":
		return "macOS (darwin)"
	case "windows":
		return "Windows"
	case "linux":
		return "Linux"
	case "":
		return "unknown"
	}
	return goos
}

// Prompt returns the system prompt a turn in sessionID would start with
// (the debug view and the CLI flag print it).
func (a *Agent) Prompt(ctx context.Context, sessionID string) (string, error) {
	info, err := a.host.Binding(ctx, sessionID)
	if err != nil {
		return "", err
	}
	instr, err := a.host.Instructions(ctx, sessionID)
	if err != nil {
		return "", err
	}
	var model provider.ModelInfo
	if prov, err := a.providers(sessionID); err == nil && prov != nil {
		model = prov.Info()
	}
	return BuildPrompt(PromptInput{Info: info, Instructions: instr, Today: a.now(), OnDemand: a.host.Deferred(ctx, sessionID, info.OperatingMode),
		Subagents: a.subagentsFor(ctx, sessionID, info.OperatingMode), Skills: a.skillCatalogFor(ctx, sessionID, model)}), nil
}
