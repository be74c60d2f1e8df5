package cmdrule

import "github.com/pi-desktop/pi-desktop/backend/errs"

// DenyError is COMMAND_DENIED_BY_RULE naming the rule and the command it
// caught when r is denied, COMMAND_TOO_COMPLEX when code in it is nested
// deeper than deny rules are checked, nil otherwise. Deny rules apply in
// every mode.
func (r Result) DenyError() error {
	for _, c := range r.Commands {
		if c.Decision != Deny {
			continue
		}
		if c.Reason == tooNested {
			return errs.New(errs.CommandTooComplex,
				"the command %q nests code (sh -c, eval, env -S…) deeper than deny rules are checked; write it without the nesting", c.Text).
				With("command", c.Text)
		}
		for _, rule := range c.Rules {
			if rule.Decision == Deny {
				return errs.New(errs.CommandDeniedByRule,
					"the command %q is denied by the rule %q; run something else, or remove the rule in Settings → Permissions (or pi-desktop rules remove %s)",
					c.Text, rule.String(), rule.ID).
					With("rule", rule.String()).With("ruleId", rule.ID).With("command", c.Text)
			}
		}
	}
	return nil
}
