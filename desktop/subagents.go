package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// Subagents is the subagent definitions (Settings → Subagents). projectID
// "" lists the builtin and user ones only. Only the app's own definitions
// are saved or deleted here; a project's live in its files.
type Subagents struct{ h Handle }

// ListSubagents lists every definition projectID's sessions see, with
// overridden, over-limit and unusable ones.
func (s *Subagents) ListSubagents(projectID string) (api.SubagentList, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.SubagentList, error) {
		return c.ListSubagents(ctx, projectID)
	})
}

// SaveSubagent validates and saves one of the app's own definitions.
func (s *Subagents) SaveSubagent(in api.SubagentInput) (api.Subagent, error) {
	return with(s.h, func(ctx context.Context, c *hostcore.Core) (api.Subagent, error) {
		return c.SaveSubagent(ctx, in)
	})
}

// DeleteSubagent removes one of the app's own definitions.
func (s *Subagents) DeleteSubagent(name string) error {
	return do(s.h, func(ctx context.Context, c *hostcore.Core) error { return c.DeleteSubagent(ctx, name) })
}
