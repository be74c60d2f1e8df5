package toolcli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// CommandsUsage is the help of `pi-desktop commands`.
const CommandsUsage = `Usage:
  pi-desktop commands list [--workspace DIR] [--json]

Lists the custom slash commands the composer's / menu offers: yours
(~/.claude/commands, ~/.agents/commands and the app's data folder's
commands) and, with --workspace, that project's (.claude/commands and
.agents/commands). A later source replaces an earlier command of the same
name, so a project's wins over yours; the replaced file is listed with the
one that replaced it. git/commit.md is /git:commit. A file that cannot be
used is listed with the reason, and what of a file was ignored is listed as
a problem. Listing does not add DIR to the app's projects.

A command is a Markdown prompt template with optional front matter
(description, argument-hint); $ARGUMENTS and $1…$9 are filled with what
follows the name.

Options:
  --data-dir DIR   the app's data folder (default: the app's)
  --workspace DIR  the project folder whose commands to include
  --json           print the list as JSON
`

// Commands runs `pi-desktop commands` with args (after the word "commands") and
// returns the exit code: 0 on success, 1 when listing failed, 2 on usage
// errors.
func Commands(ctx context.Context, args []string, env Env) int {
	return runList(ctx, subcommand{name: "commands", usage: CommandsUsage, env: env}, args,
		func(ctx context.Context, core *hostcore.Core, root string) (api.SlashCommandList, error) {
			return core.ListSlashCommandsIn(ctx, root)
		},
		func(l api.SlashCommandList) any { return l.Commands }, writeCommandsTable)
}

func writeCommandsTable(w io.Writer, list api.SlashCommandList) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tSTATE\tARGUMENTS\tDESCRIPTION")
	for _, c := range list.Commands {
		fmt.Fprintf(tw, "/%s\t%s\t%s\t%s\t%s\n", c.Name, c.Source, c.State, cmp.Or(c.ArgumentHint, "-"), cmp.Or(c.Description, "-"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range list.Commands {
		if len(c.Problems) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n/%s (%s, %s):\n", c.Name, c.Source, c.Path)
		for _, p := range c.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	return nil
}
