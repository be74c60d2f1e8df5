package toolcli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/pi-desktop/pi-desktop/backend/api"
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
	return runList(ctx, subcommand{name: "skills", usage: SkillsUsage, env: env}, args,
		func(ctx context.Context, core *hostcore.Core, root string) (api.SkillList, error) {
			return core.ListSkillsIn(ctx, root)
		},
		func(l api.SkillList) any { return l }, writeSkillsTable)
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
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			out[i] = ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			// A terminal escape or a direction override would let text
			// rewrite what the terminal shows.
			out[i] = '\uFFFD'
		}
	}
	return string(out)
}
