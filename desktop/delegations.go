package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// Delegations lists a session's delegate runs in the order its turns asked
// for them, each with its state, counters and report: the window rebuilds
// its Task rows from them after a reload. Live changes arrive as
// agent:delegation events.
func (a *Agent) Delegations(sessionID string) ([]agent.Delegation, error) {
	return with(a.h, func(ctx context.Context, c *hostcore.Core) ([]agent.Delegation, error) {
		return c.Delegations(ctx, sessionID)
	})
}

// DelegationTranscript returns one delegate run with its own conversation
// (its tool calls with their results, and its report) for an opened Task
// row; the parent's TranscriptPage never holds it.
func (a *Agent) DelegationTranscript(sessionID, delegationID string) (agent.DelegationPage, error) {
	return with(a.h, func(ctx context.Context, c *hostcore.Core) (agent.DelegationPage, error) {
		return c.DelegationTranscript(ctx, sessionID, delegationID)
	})
}
