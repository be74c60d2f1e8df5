package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/agent"
)

// The window's view of delegations (issue 16): the Task rows of a reloaded
// transcript are rebuilt from the stored delegations (Delegations), and a
// row opened shows the delegate's own conversation, which never enters the
// parent's transcript pages.

// DelegationTranscript returns one delegation of a session with its own
// conversation: its record (state, counters, report) and the delegate's
// turn with its messages, tool calls and results. A delegation of another
// session is DELEGATE_NOT_FOUND.
func (c *Core) DelegationTranscript(ctx context.Context, sessionID, delegationID string) (agent.DelegationPage, error) {
	return c.agent.LoadDelegation(ctx, sessionID, delegationID)
}
