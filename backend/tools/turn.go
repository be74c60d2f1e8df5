package tools

import (
	"context"
	"time"
)

// Turn is the running agent turn, handed to each of its calls by the loop
// (hostcore passes it through). The runtime's own tools act on it, and
// Execute asks it what the model was offered. It is declared here, where
// it is used; the agent implements it.
type Turn interface {
	// Offered reports whether the request that produced the call carried
	// tool's schema (an on-demand tool must be loaded first).
	Offered(tool string) bool
	// SaveTodos replaces the session's checklist (TodoWrite).
	SaveTodos(ctx context.Context, c *Call) Result
	// Ask shows the questions and waits for the user's answers (asktool).
	Ask(ctx context.Context, c *Call) Result
	// RequestCompaction starts a new context at the next turn boundary
	// (new_context).
	RequestCompaction(ctx context.Context, c *Call) Result
	// EnterMode switches the session from Agent to mode (Enter*Mode).
	EnterMode(ctx context.Context, c *Call, mode string) Result
	// Submit saves the document of mode kind and waits for the user's
	// decision (Submit*).
	Submit(ctx context.Context, c *Call, kind string) Result
	// LoadTools loads on-demand tools for the next request (ToolSearch).
	LoadTools(ctx context.Context, c *Call) Result
}

// ApprovalWaiter is a Turn that shows when one of its calls waits for the
// user's approval (a delegate's state becomes waiting meanwhile); Execute
// tells it before and after the card.
type ApprovalWaiter interface {
	WaitingForApproval(waiting bool)
}

// RunStarter is a Turn told when a call that waited on a card starts its
// run after the answer, so the window times the run apart from the wait.
type RunStarter interface {
	RunStarted(ctx context.Context, waited time.Duration)
}

// Outcome is what a tool that settles a call with the user itself
// (asktool, a proposal), or refuses it on its own, reports for the call's
// audit row; Execute writes it there.
type Outcome struct {
	Decision string // replaces the policy's decision when set: user | cancelled | deny
	Prompted bool   // the user was asked
	Wait     time.Duration
	Path     string // a workspace file the call wrote, workspace-relative
	// Landed is the whole of the call's target as read back right after
	// the tool wrote it (nil: not known), so the checkpoint's note of the
	// write need not read the file again.
	Landed []byte
}
