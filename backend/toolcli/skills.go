package toolcli

import (
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
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// SkillsUsage is the help of `pi-desktop skills`.
const SkillsUsage = `Usage:
  pi-desktop skills list [--workspace DIR] [--json]

Lists the skills the agent sees: the builtin one (pi-desktop/visualize, while
inline visualizations are on), yours (the app's data folder's skills,
~/.agents/skills, ~/.claude/skills) and, with --workspace, that project's
(.agents/skills, .claude/skills). A skill is a folder with SKILL.md, or a
single .md file, whose front matter has name and description. When two
skills share a name the first source above wins: a project's skill never
replaces yours. Each file that is not a usable skill is listed with its
reason. Listing does not add DIR to the app's projects.

Options:
  --data-dir DIR   the app's data folder (default: the app's)
  --workspace DIR  the project folder whose skills to include
  --json           print the list as JSON
`

// Skills runs `pi-desktop skills` with args (after the word "skills") and
// returns the exit code: 0 on success, 1 when listing failed, 2 on usage
// errors.
func Skills(ctx context.Context, args []string, env Env) int {
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "pi-desktop skills: "+format+"\n\n%s", append(a, SkillsUsage)...)
		return 2
	}
	if len(args) == 0 {
		return usageErr("give a command: list")
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(env.Stdout, SkillsUsage)
		return 0
	case "list":
	default:
		return usageErr("unknown command %q; use list", args[0])
	}
	fs := flag.NewFlagSet("pi-desktop skills list", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data-dir", "", "")
	workspace := fs.String("workspace", "", "")
	asJSON := fs.Bool("json", false, "")
	if err := ParseFlags(fs, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(env.Stdout, SkillsUsage)
			return 0
		}
		return usageErr("%v", err)
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	if err := listSkills(ctx, env, *dataDir, *workspace, *asJSON); err != nil {
		fmt.Fprintf(env.Stderr, "pi-desktop skills list: %s\n", errs.ToPayload(err).Message)
		return 1
	}
	return 0
}

func listSkills(ctx context.Context, env Env, dataDirFlag, workspace string, asJSON bool) error {
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
	list, err := core.ListSkillsIn(ctx, root)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	return writeSkillsTable(env.Stdout, list)
}

func writeSkillsTable(w io.Writer, list api.SkillList) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tDESCRIPTION")
	for _, k := range list.Skills {
		desc := truncate.RunesEllipsis(k.Description, 70)
		if k.UserOnly {
			desc = "(only /skill:) " + desc
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", k.Name, k.Source, oneLineText(desc))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if list.LeftOut > 0 {
		fmt.Fprintf(w, "\nThe model's catalog names %d of them; %d are left out of the system prompt (still reachable with /skill:).\n", list.Listed, list.LeftOut)
	}
	if len(list.Problems) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nNot loaded (%d):\n", len(list.Problems))
	for _, p := range list.Problems {
		fmt.Fprintf(w, "  %s (%s, %s): %s\n", p.Path, p.Source, p.Reason, p.Message)
	}
	return nil
}

// oneLineText keeps a table cell on one line.
func oneLineText(s string) string {
	out := []rune(s)
	for i, r := range out {
		if r == '\n' || r == '\r' || r == '\t' {
			out[i] = ' '
		}
	}
	return string(out)
}
