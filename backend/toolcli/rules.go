package toolcli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/cmdrule"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// RulesUsage is the help of `pi-desktop rules`.
const RulesUsage = `Usage:
  pi-desktop rules add allow|ask|deny PROGRAM [ARGS...] [--scope project|global] [--workspace DIR] [--note TEXT]
  pi-desktop rules list [--workspace DIR] [--json]
  pi-desktop rules remove ID
  pi-desktop rules check [--workspace DIR] [--shell posix|powershell|cmd] [--json] "COMMAND"

Command rules decide the agent's shell commands without a card. A rule is a
program and the first words of its arguments: "allow git status" lets
git status and git status -s run, never git statusx, git -C x status or
git status && rm x. Every simple command of a command line (pipelines,
lists, $(…), bodies…) must be allowed for the line to run without a card;
deny beats ask beats allow, and deny rules apply in every permission mode.
eval, sh -c, xargs, sudo, inline interpreter code and the like always ask.

The agent's Bash calls apply the rules in effect for their session (global,
the project's, the session's): a command every rule allows runs without a
card in ask and accept-edits; files it writes by >, tee or dd still need
what a Write there needs; anything else follows the permission mode.

add saves a rule: for the project at DIR with --workspace (the default
scope then), else global. Options are read anywhere before --, and each
verb takes only its own (add refuses --json rather than drop it); words
that look like options go after --: pi-desktop rules add deny git push
-- --force.
list shows the global rules and, with --workspace, that project's; without
it every rule. remove deletes the rule with ID (see list). check shows how
COMMAND would be decided: each simple command with its decision, the rules
it matched and why, and the files it would write.

Options:
  --data-dir DIR   the app's data folder (default: the app's)
  --workspace DIR  the project folder (it must be a PI-Desktop project)
  --scope S        project or global (session rules are added from a card)
  --note TEXT      a note shown with the rule
  --shell D        the command's shell dialect for check (default posix)
  --json           print JSON
`

// rulesFlags are the options of the `rules` verbs; what is not one of
// them is a word (a rule's words may look like options: -rf, --force).
// Options are read up to --, anywhere before it; after it all is words.
type rulesFlags struct {
	commonFlags
	scope, note, shell string
	help               bool
	words              []string
	// given are the options given, as spelled ("--json").
	given []string
}

// rulesVerbOptions are the options each verb takes. One of the others is
// refused rather than dropped: `rules add allow foo --json` must not save
// allow foo, a rule wider than its words.
var rulesVerbOptions = map[string][]string{
	"add":    {"--data-dir", "--workspace", "--scope", "--note"},
	"list":   {"--data-dir", "--workspace", "--json"},
	"remove": {"--data-dir"},
	"check":  {"--data-dir", "--workspace", "--shell", "--json"},
}

func parseRulesFlags(args []string) (rulesFlags, error) {
	var f rulesFlags
	values := map[string]*string{"--data-dir": &f.dataDir, "--workspace": &f.workspace, "--scope": &f.scope, "--note": &f.note, "--shell": &f.shell}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			f.words = append(f.words, args[i+1:]...)
			break
		}
		name, value, hasValue := strings.Cut(a, "=")
		if dst, ok := values[name]; ok {
			f.given = append(f.given, name)
			if !hasValue {
				if i+1 >= len(args) {
					return f, fmt.Errorf("%s needs a value", name)
				}
				i++
				value = args[i]
			}
			*dst = value
			continue
		}
		switch a {
		case "--json":
			f.asJSON = true
			f.given = append(f.given, a)
		case "-h", "--help":
			f.help = true
		default:
			f.words = append(f.words, a)
		}
	}
	return f, nil
}

// Rules runs `pi-desktop rules` with args (after the word "rules") and
// returns the exit code: 0 on success, 1 when the command failed, 2 on
// usage errors.
func Rules(ctx context.Context, args []string, env Env) int {
	cmd := subcommand{name: "rules", usage: RulesUsage, env: env}
	usageErr := cmd.usageErr
	if len(args) == 0 {
		return usageErr("give a command: add, list, remove or check")
	}
	verb := args[0]
	f, err := parseRulesFlags(args[1:])
	if err != nil {
		return usageErr("%v", err)
	}
	if isHelp(verb) || f.help {
		return cmd.help()
	}
	if takes, ok := rulesVerbOptions[verb]; ok {
		for _, o := range f.given {
			switch {
			case slices.Contains(takes, o):
			case verb == "add":
				return usageErr("%s is not an option of add; a rule word that looks like an option goes after --: pi-desktop rules add %s -- %s", o, strings.Join(f.words, " "), o)
			default:
				return usageErr("%s is not an option of %s", o, verb)
			}
		}
	}
	if verb != "add" {
		for _, w := range f.words {
			if strings.HasPrefix(w, "-") && len(w) > 1 {
				return usageErr("unknown option %s for %s", w, verb)
			}
		}
	}
	var run func(context.Context, *rulesCLI, rulesFlags) error
	switch verb {
	case "add":
		if len(f.words) < 2 {
			return usageErr("add needs a decision and a program: add allow git status")
		}
		if f.scope != "" && f.scope != string(cmdrule.ScopeProject) && f.scope != string(cmdrule.ScopeGlobal) {
			return usageErr("--scope is project or global, not %q", f.scope)
		}
		if f.scope == string(cmdrule.ScopeProject) && f.workspace == "" {
			return usageErr("a project rule needs --workspace DIR")
		}
		run = addRule
	case "list":
		if len(f.words) > 0 {
			return usageErr("unexpected argument %q", f.words[0])
		}
		run = listRules
	case "remove":
		if len(f.words) != 1 {
			return usageErr("remove takes one rule ID (see pi-desktop rules list)")
		}
		run = removeRule
	case "check":
		if len(f.words) == 0 {
			return usageErr("check needs the command to decide, in quotes")
		}
		run = checkCommand
	default:
		return usageErr("unknown command %q; use add, list, remove or check", verb)
	}
	cli, err := openRulesCLI(ctx, cmd, f.dataDir)
	if err == nil {
		defer cli.close()
		err = run(ctx, cli, f)
	}
	if err != nil {
		return cmd.failed(verb, err)
	}
	return 0
}

// rulesCLI is the database the rules verbs work on: opened directly (the
// migrations run), without a host — no tool runs here.
type rulesCLI struct {
	env      Env
	st       *store.Store
	rules    *cmdrule.Store
	sessions *session.Service
}

func openRulesCLI(ctx context.Context, cmd subcommand, dataDirFlag string) (*rulesCLI, error) {
	st, layout, err := cmd.openStore(ctx, dataDirFlag)
	if err != nil {
		return nil, err
	}
	return &rulesCLI{env: cmd.env, st: st, rules: cmdrule.NewStore(st.DB(), nil), sessions: session.New(st.DB(), layout, nil)}, nil
}

func (c *rulesCLI) close() { _ = c.st.Close() }

// project is the PI-Desktop project whose folder is dir.
func (c *rulesCLI) project(ctx context.Context, dir string) (api.Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return api.Project{}, errs.Wrap(err, errs.InvalidArgument, "the path %q cannot be made absolute", dir)
	}
	if canon, err := filepath.EvalSymlinks(abs); err == nil {
		abs = canon
	}
	p, err := c.sessions.ProjectByPath(ctx, abs)
	if errs.Is(err, errs.ProjectNotFound) {
		return api.Project{}, errs.New(errs.ProjectNotFound,
			"%s is not a PI-Desktop project; add it as a project in the app (or run a pi-desktop tool or run command with --workspace %s) and try again", abs, abs).With("path", abs)
	}
	return p, err
}

func addRule(ctx context.Context, c *rulesCLI, f rulesFlags) error {
	r := cmdrule.Rule{Decision: cmdrule.Decision(f.words[0]), Program: f.words[1], Args: f.words[2:], Note: f.note, Scope: cmdrule.ScopeGlobal}
	if f.workspace != "" && f.scope != string(cmdrule.ScopeGlobal) {
		p, err := c.project(ctx, f.workspace)
		if err != nil {
			return err
		}
		r.Scope, r.ProjectID = cmdrule.ScopeProject, p.ID
	}
	saved, err := c.rules.Add(ctx, r)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.env.Stdout, "%s  %s\n", saved.ID, saved)
	return nil
}

func removeRule(ctx context.Context, c *rulesCLI, f rulesFlags) error {
	r, err := c.rules.Get(ctx, f.words[0])
	if err != nil {
		return err
	}
	if err := c.rules.Remove(ctx, r.ID); err != nil {
		return err
	}
	fmt.Fprintf(c.env.Stdout, "removed %s\n", r)
	return nil
}

// listedRule is a rule as `rules list --json` prints it.
type listedRule struct {
	cmdrule.Rule
	ProjectPath string `json:"projectPath,omitempty"`
}

func listRules(ctx context.Context, c *rulesCLI, f rulesFlags) error {
	var rules []cmdrule.Rule
	var err error
	if f.workspace != "" {
		p, perr := c.project(ctx, f.workspace)
		if perr != nil {
			return perr
		}
		rules, err = c.rules.ForProject(ctx, p.ID)
	} else {
		rules, err = c.rules.List(ctx)
	}
	if err != nil {
		return err
	}
	out := make([]listedRule, 0, len(rules))
	for _, r := range rules {
		l := listedRule{Rule: r}
		if r.ProjectID != "" {
			if p, err := c.sessions.Project(ctx, r.ProjectID); err == nil {
				l.ProjectPath = p.Path
			}
		}
		out = append(out, l)
	}
	if f.asJSON {
		enc := json.NewEncoder(c.env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if len(out) == 0 {
		fmt.Fprintln(c.env.Stdout, "no command rules; add one with pi-desktop rules add allow PROGRAM [ARGS...]")
		return nil
	}
	tw := tabwriter.NewWriter(c.env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tDECISION\tRULE\tSCOPE\tNOTE")
	for _, l := range out {
		scope := string(l.Scope)
		switch {
		case l.ProjectPath != "":
			scope += " " + l.ProjectPath
		case l.SessionID != "":
			scope += " " + l.SessionID
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", l.ID, l.Decision, l.Words(), scope, l.Note)
	}
	return tw.Flush()
}

func checkCommand(ctx context.Context, c *rulesCLI, f rulesFlags) error {
	rules, err := c.rules.ForProject(ctx, "")
	if err != nil {
		return err
	}
	if f.workspace != "" {
		p, err := c.project(ctx, f.workspace)
		switch {
		case errs.Is(err, errs.ProjectNotFound):
			fmt.Fprintf(c.env.Stderr, "note: %s; deciding with the global rules only\n", errs.ToPayload(err).Message)
		case err != nil:
			return err
		default:
			if rules, err = c.rules.ForProject(ctx, p.ID); err != nil {
				return err
			}
		}
	}
	dialect := f.shell
	if dialect == "" {
		dialect = shells.DialectPOSIX
	}
	res := cmdrule.ClassifyDialect(dialect, strings.Join(f.words, " "), rules)
	if f.asJSON {
		enc := json.NewEncoder(c.env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return WriteDecision(c.env.Stdout, res)
}

// WriteDecision prints a classification for a person: the decision, each
// simple command on its own line with its decision, the wrappers looked
// through, the rules it matched and why, the files it would write and the
// "always allow" choices. `pi-desktop run`'s prompt can show the same.
func WriteDecision(w io.Writer, res cmdrule.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", res.Decision, res.Reason)
	for i, cmd := range res.Commands {
		fmt.Fprintf(&b, "\n%d. %-15s  %s\n", i+1, cmd.Decision.Label(), oneLine(cmd.Text))
		if len(cmd.Wrappers) > 0 {
			fmt.Fprintf(&b, "   looked through: %s\n", strings.Join(cmd.Wrappers, ", "))
		}
		for _, r := range cmd.Rules {
			fmt.Fprintf(&b, "   matched: %s\n", r)
		}
		fmt.Fprintf(&b, "   why: %s\n", cmd.Reason)
	}
	if len(res.Writes) > 0 {
		b.WriteString("\nwrites:\n")
		for _, t := range res.Writes {
			note := ""
			if !t.Static {
				note = "  (only known when the shell runs it)"
			}
			fmt.Fprintf(&b, "  %-6s %s%s\n", t.Via, t.Path, note)
		}
	}
	if offered := res.Offered(); len(offered) > 0 {
		words := make([]string, len(offered))
		for i, s := range offered {
			words[i] = s.Words()
		}
		fmt.Fprintf(&b, "\nalways allow: %s\n", strings.Join(words, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// oneLine shows a multi-line command (a here-document) on one line.
func oneLine(s string) string {
	return strings.ReplaceAll(s, "\n", "⏎")
}
