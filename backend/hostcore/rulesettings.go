package hostcore

// Settings → Permissions: the command rules (backend/cmdrule) listed,
// added, edited, removed and tried on a command. Only the rule store is
// read here; applying rules to the agent's Bash calls is Execute's.

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/cmdrule"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// maxCheckedCommand bounds a command pasted into the check box: a script
// longer than this is no command anyone reads on a card.
const maxCheckedCommand = 64 << 10

func (c *Core) commandRules() *cmdrule.Store { return cmdrule.NewStore(c.store.DB(), c.cfg.Now) }

// ListCommandRules lists every command rule, of every scope, oldest first,
// each with the project or session it belongs to.
func (c *Core) ListCommandRules(ctx context.Context) ([]api.CommandRule, error) {
	rules, err := c.commandRules().List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.CommandRule, 0, len(rules))
	projects := map[string]api.Project{}
	titles := map[string]string{}
	for _, r := range rules {
		a := commandRuleAPI(r)
		if r.ProjectID != "" {
			p, ok := projects[r.ProjectID]
			if !ok {
				if p, err = c.sessions.Project(ctx, r.ProjectID); err != nil && !errs.Is(err, errs.ProjectNotFound) {
					return nil, err
				}
				projects[r.ProjectID] = p
			}
			a.ProjectName, a.ProjectPath = p.Name, p.Path
		}
		if r.SessionID != "" {
			t, ok := titles[r.SessionID]
			if !ok {
				s, err := c.sessions.Get(ctx, r.SessionID)
				if err != nil && !errs.Is(err, errs.SessionNotFound) {
					return nil, err
				}
				t = s.Title
				titles[r.SessionID] = t
			}
			a.SessionTitle = t
		}
		out = append(out, a)
	}
	return out, nil
}

// AddCommandRule saves a rule (an equal one saved before is returned).
func (c *Core) AddCommandRule(ctx context.Context, in api.CommandRuleInput) (api.CommandRule, error) {
	r, err := c.commandRules().Add(ctx, commandRuleFrom("", in))
	if err != nil {
		return api.CommandRule{}, err
	}
	return commandRuleAPI(r), nil
}

// UpdateCommandRule replaces the rule id's decision, words, scope and note.
func (c *Core) UpdateCommandRule(ctx context.Context, id string, in api.CommandRuleInput) (api.CommandRule, error) {
	r, err := c.commandRules().Update(ctx, commandRuleFrom(id, in))
	if err != nil {
		return api.CommandRule{}, err
	}
	return commandRuleAPI(r), nil
}

// RemoveCommandRule deletes the rule id.
func (c *Core) RemoveCommandRule(ctx context.Context, id string) error {
	return c.commandRules().Remove(ctx, id)
}

// CheckCommand decides in.Command with the rules in effect for a session,
// else a project, else the global ones, and says why for every simple
// command; nothing runs.
func (c *Core) CheckCommand(ctx context.Context, in api.CommandCheckInput) (api.CommandCheck, error) {
	switch {
	case in.Command == "":
		return api.CommandCheck{}, errs.New(errs.InvalidArgument, "paste a command to check").With("field", "command")
	case len(in.Command) > maxCheckedCommand:
		return api.CommandCheck{}, errs.New(errs.InvalidArgument, "the command is longer than %d KiB; check a part of it", maxCheckedCommand>>10).With("field", "command")
	}
	dialect := in.Shell
	switch dialect {
	case shells.DialectPOSIX, shells.DialectPowerShell, shells.DialectCmd:
	case "":
		s, err := c.settings.Get(ctx)
		if err != nil {
			return api.CommandCheck{}, err
		}
		dialect = shells.Effective(s.DefaultCommandShell, c.cfg.Shells).Dialect
	default:
		return api.CommandCheck{}, errs.New(errs.InvalidArgument, "the shell %q is not posix, powershell or cmd", in.Shell).With("field", "shell")
	}
	store := c.commandRules()
	var rules []cmdrule.Rule
	var err error
	switch {
	case in.SessionID != "":
		rules, err = store.InEffect(ctx, in.SessionID)
	case in.ProjectID != "":
		if _, err = c.sessions.Project(ctx, in.ProjectID); err == nil {
			rules, err = store.ForProject(ctx, in.ProjectID)
		}
	default:
		rules, err = store.ForProject(ctx, "")
	}
	if err != nil {
		return api.CommandCheck{}, err
	}
	return commandCheckAPI(cmdrule.ClassifyDialect(dialect, in.Command, rules), dialect), nil
}

func commandRuleFrom(id string, in api.CommandRuleInput) cmdrule.Rule {
	return cmdrule.Rule{ID: id, Decision: cmdrule.Decision(in.Decision), Program: in.Program, Args: in.Args,
		Scope: cmdrule.Scope(in.Scope), ProjectID: in.ProjectID, SessionID: in.SessionID, Note: in.Note}
}

func commandRuleAPI(r cmdrule.Rule) api.CommandRule {
	args := r.Args
	if args == nil {
		args = []string{}
	}
	return api.CommandRule{ID: r.ID, Decision: string(r.Decision), Program: r.Program, Args: args, Scope: string(r.Scope),
		Note: r.Note, ProjectID: r.ProjectID, SessionID: r.SessionID, CreatedAt: r.CreatedAt}
}

func commandCheckAPI(res cmdrule.Result, dialect string) api.CommandCheck {
	out := api.CommandCheck{Decision: string(res.Decision), Label: res.Decision.Label(), Reason: res.Reason,
		Commands: make([]api.CheckedCommand, 0, len(res.Commands)), Writes: make([]api.CommandWrite, 0, len(res.Writes)),
		Suggestions: make([]string, 0, len(res.Suggestions)), ParseError: res.ParseError, Shell: dialect}
	for _, cmd := range res.Commands {
		a := api.CheckedCommand{Text: cmd.Text, Wrappers: cmd.Wrappers, Program: cmd.Program, Args: cmd.Args,
			Decision: string(cmd.Decision), Label: cmd.Decision.Label(), Reason: cmd.Reason,
			Rules: make([]api.CommandRule, 0, len(cmd.Rules)), AlwaysAsk: cmd.AlwaysAsk}
		if a.Wrappers == nil {
			a.Wrappers = []string{}
		}
		if a.Args == nil {
			a.Args = []string{}
		}
		for _, r := range cmd.Rules {
			a.Rules = append(a.Rules, commandRuleAPI(r))
		}
		out.Commands = append(out.Commands, a)
	}
	for _, w := range res.Writes {
		out.Writes = append(out.Writes, api.CommandWrite{Path: w.Path, Static: w.Static, Via: w.Via, Command: w.Command})
	}
	for _, s := range res.Offered() {
		out.Suggestions = append(out.Suggestions, s.Words())
	}
	return out
}
