package toolcli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/pi-desktop/pi-desktop/backend/api"
)

// SubagentsUsage is the help of `pi-desktop subagents`.
const SubagentsUsage = `Usage:
  pi-desktop subagents list [--workspace DIR] [--json]

Lists the subagent definitions the agent can delegate to: the builtin ones,
yours (the app's data folder and ~/.agents/subagents) and, with --workspace,
that project's (.claude/agents and .agents/subagents). A later source
replaces an earlier definition of the same name. Each line shows the
definition's source, whether it is in effect, its tools, its permission
scope and its model; warnings say what of a file was dropped and why, and a
file that cannot be used is listed with the reason. Listing does not add
DIR to the app's projects.

Create and edit your own in Settings → Subagents, or as Markdown files with
front matter (name, description, tools, model, permission, maxTurns).

Options:
  --data-dir DIR   the app's data folder (default: the app's)
  --workspace DIR  the project folder whose definitions to include
  --json           print the list as JSON
`

// Subagents runs `pi-desktop subagents` with args (after the word
// "subagents") and returns the exit code: 0 on success, 1 when listing
// failed, 2 on usage errors.
func Subagents(ctx context.Context, args []string, env Env) int {
	cmd := subcommand{name: "subagents", usage: SubagentsUsage, env: env}
	if len(args) == 0 {
		return cmd.usageErr("give a command: list")
	}
	verb, rest := args[0], args[1:]
	switch {
	case isHelp(verb):
		return cmd.help()
	case verb != "list":
		return cmd.usageErr("unknown command %q; use list", verb)
	}
	fs := flag.NewFlagSet("pi-desktop subagents list", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f commonFlags
	f.register(fs)
	if err := ParseFlags(fs, rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cmd.help()
		}
		return cmd.usageErr("%v", err)
	}
	if fs.NArg() > 0 {
		return cmd.usageErr("unexpected argument %q", fs.Arg(0))
	}
	if err := listSubagents(ctx, cmd, f); err != nil {
		return cmd.failed(verb, err)
	}
	return 0
}

func listSubagents(ctx context.Context, cmd subcommand, f commonFlags) error {
	root := ""
	if f.workspace != "" {
		abs, err := filepath.Abs(f.workspace)
		if err != nil {
			return err
		}
		root = abs
	}
	core, err := cmd.openHost(ctx, f.dataDir)
	if err != nil {
		return err
	}
	defer core.Close()
	list, err := core.ListSubagentsIn(ctx, root)
	if err != nil {
		return err
	}
	if f.asJSON {
		return writeSubagentsJSON(cmd.env.Stdout, list)
	}
	return writeSubagentsTable(cmd.env.Stdout, list)
}

// subagentJSON is one definition as `list --json` prints it.
type subagentJSON struct {
	Name        string   `json:"name"`
	Source      string   `json:"source"`
	State       string   `json:"state"`
	Path        string   `json:"path"`
	Description string   `json:"description,omitempty"`
	Tools       []string `json:"tools"`
	// Inherit: the delegate also gets its parent session's live catalog
	// (less the delegation, mode, ask and search tools).
	Inherit       bool     `json:"inherit"`
	ExcludedTools []string `json:"excludedTools,omitempty"`
	Permission    string   `json:"permission,omitempty"`
	Model         string   `json:"model,omitempty"`
	ModelProfile  string   `json:"modelProfileId,omitempty"`
	MaxTurns      int      `json:"maxTurns,omitempty"`
	Warnings      []string `json:"warnings"`
	Error         string   `json:"error,omitempty"`
	Overrides     string   `json:"overrides,omitempty"`
	OverriddenBy  string   `json:"overriddenBy,omitempty"`
}

func writeSubagentsJSON(w io.Writer, list api.SubagentList) error {
	out := make([]subagentJSON, 0, len(list.Subagents))
	for _, s := range list.Subagents {
		out = append(out, subagentJSON{Name: s.Name, Source: s.Source, State: s.State, Path: s.Path, Description: s.Description,
			Tools: s.Tools, Inherit: s.Inherit, ExcludedTools: s.ExcludedTools, Permission: s.Permission, Model: s.Model,
			ModelProfile: s.ModelProfileID, MaxTurns: s.MaxTurns, Warnings: s.Warnings, Error: s.Error,
			Overrides: s.Overrides, OverriddenBy: s.OverriddenBy})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeSubagentsTable(w io.Writer, list api.SubagentList) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tSTATE\tTOOLS\tPERMISSION\tMODEL")
	for _, s := range list.Subagents {
		if s.State == api.SubagentStateError {
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\t-\n", s.Name, s.Source, s.State)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, s.Source, s.State, toolsText(s), s.Permission, modelText(s))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range list.Subagents {
		if s.Error == "" && len(s.Warnings) == 0 && s.OverriddenBy == "" {
			continue
		}
		fmt.Fprintf(w, "\n%s (%s, %s):\n", cmp.Or(s.Name, "?"), s.Source, s.Path)
		if s.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", s.Error)
		}
		if s.OverriddenBy != "" {
			fmt.Fprintf(w, "  replaced by %s\n", s.OverriddenBy)
		}
		for _, warn := range s.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", warn)
		}
	}
	return nil
}

// toolsText is a definition's tools on one line: "inherit + Bash",
// "Read, Glob, Grep", "… (not Bash)".
func toolsText(s api.Subagent) string {
	text := strings.Join(s.Tools, ", ")
	if s.Inherit {
		text = strings.TrimSuffix("inherit + "+text, " + ")
	}
	if len(s.ExcludedTools) > 0 {
		text += " (not " + strings.Join(s.ExcludedTools, ", ") + ")"
	}
	return text
}

func modelText(s api.Subagent) string {
	switch {
	case s.ModelProfileID == "":
		return "session's"
	case s.ModelProfileName != "":
		return s.ModelProfileName
	}
	return s.ModelProfileID
}
