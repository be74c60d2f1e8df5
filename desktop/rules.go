package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// Rules is the command rules (Settings → Permissions): listed, added,
// edited and removed in every scope, and tried on a pasted command.
type Rules struct{ h Handle }

// ListCommandRules lists every rule with the project or session it
// belongs to.
func (r *Rules) ListCommandRules() ([]api.CommandRule, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) ([]api.CommandRule, error) {
		return c.ListCommandRules(ctx)
	})
}

// AddCommandRule validates and saves a rule.
func (r *Rules) AddCommandRule(in api.CommandRuleInput) (api.CommandRule, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) (api.CommandRule, error) {
		return c.AddCommandRule(ctx, in)
	})
}

// UpdateCommandRule replaces the decision, words, scope and note of the
// rule id.
func (r *Rules) UpdateCommandRule(id string, in api.CommandRuleInput) (api.CommandRule, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) (api.CommandRule, error) {
		return c.UpdateCommandRule(ctx, id, in)
	})
}

// RemoveCommandRule deletes the rule id.
func (r *Rules) RemoveCommandRule(id string) error {
	return do(r.h, func(ctx context.Context, c *hostcore.Core) error { return c.RemoveCommandRule(ctx, id) })
}

// CheckCommand shows how the rules decide a command, and why for each
// simple command in it; nothing runs.
func (r *Rules) CheckCommand(in api.CommandCheckInput) (api.CommandCheck, error) {
	return with(r.h, func(ctx context.Context, c *hostcore.Core) (api.CommandCheck, error) {
		return c.CheckCommand(ctx, in)
	})
}
