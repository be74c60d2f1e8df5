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
	"text/tabwriter"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
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

// Commands runs `pi-desktop commands` with args (after the word
// "commands") and returns the exit code: 0 on success, 1 when listing
// failed, 2 on usage errors.
func Commands(ctx context.Context, args []string, env Env) int {
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "pi-desktop commands: "+format+"\n\n%s", append(a, CommandsUsage)...)
		return 2
	}
	if len(args) == 0 {
		return usageErr("give a command: list")
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(env.Stdout, CommandsUsage)
		return 0
	case "list":
	default:
		return usageErr("unknown command %q; use list", args[0])
	}
	fs := flag.NewFlagSet("pi-desktop commands list", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data-dir", "", "")
	workspace := fs.String("workspace", "", "")
	asJSON := fs.Bool("json", false, "")
	if err := ParseFlags(fs, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(env.Stdout, CommandsUsage)
			return 0
		}
		return usageErr("%v", err)
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	if err := listCommands(ctx, env, *dataDir, *workspace, *asJSON); err != nil {
		fmt.Fprintf(env.Stderr, "pi-desktop commands list: %s\n", errs.ToPayload(err).Message)
		return 1
	}
	return 0
}

func listCommands(ctx context.Context, env Env, dataDirFlag, workspace string, asJSON bool) error {
	root := ""
	if workspace != "" {
		abs, err := filepath.Abs(workspace)
		if err != nil {
			return err
		}
		root = abs
	}
	dir, err := env.ResolveDataDir(dataDirFlag)
	if err != nil {
		return err
	}
	core, err := hostcore.New(ctx, hostcore.Config{DataDir: dir, Version: env.Version, Sink: discard{}, DeferMCP: true})
	if err != nil {
		return err
	}
	defer core.Close()
	list, err := core.ListSlashCommandsIn(ctx, root)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(list.Commands)
	}
	return writeCommandsTable(env.Stdout, list)
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
