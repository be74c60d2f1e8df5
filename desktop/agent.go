package desktop

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// Agent is a session's turns and what they wait on: approval cards,
// asktool questions, plan and goal proposals. Progress arrives as agent:*
// and permission:* events.
type Agent struct{ h Handle }

// SendPrompt starts an agent turn; its progress arrives as agent:* events.
func (a *Agent) SendPrompt(sessionID, prompt string) error {
	return do(a.h, func(ctx context.Context, c *hostcore.Core) error { return c.StartTurn(ctx, sessionID, prompt) })
}

// StopSession cancels a session's running and waiting tool calls.
func (a *Agent) StopSession(sessionID string) (int, error) {
	return with(a.h, func(_ context.Context, c *hostcore.Core) (int, error) { return c.StopSession(sessionID), nil })
}

// TranscriptPage returns one page of a session's stored conversation, whole
// turns only: the newest turns holding at least limit messages when before
// and since are empty; the turns older than the turn before (scrolling up);
// or every turn from the turn since on (re-reading what the window shows).
// A long session opens without shipping all of its history to the window.
func (a *Agent) TranscriptPage(sessionID, before, since string, limit int) (agent.Page, error) {
	return with(a.h, func(ctx context.Context, c *hostcore.Core) (agent.Page, error) {
		return c.TranscriptPage(ctx, sessionID, agent.PageQuery{Before: before, Since: since, Limit: limit})
	})
}

// PendingApprovals lists a session's open approval cards, so a reloaded
// window can show them again.
func (a *Agent) PendingApprovals(sessionID string) ([]permission.Request, error) {
	return with(a.h, func(_ context.Context, c *hostcore.Core) ([]permission.Request, error) {
		return c.PendingApprovals(sessionID), nil
	})
}

// ResolveApproval answers a card: "allow-once", "allow-session" or "deny".
func (a *Agent) ResolveApproval(sessionID, requestID, outcome string) error {
	return do(a.h, func(_ context.Context, c *hostcore.Core) error {
		return c.ResolveApproval(sessionID, requestID, permission.Outcome(outcome))
	})
}

// PendingQuestions lists a session's unanswered asktool questions.
func (a *Agent) PendingQuestions(sessionID string) ([]agent.QuestionEvent, error) {
	return with(a.h, func(_ context.Context, c *hostcore.Core) ([]agent.QuestionEvent, error) {
		return c.PendingQuestions(sessionID), nil
	})
}

// AnswerQuestion answers an asktool call; fewer answers skip the rest.
func (a *Agent) AnswerQuestion(sessionID, questionID string, answers []agent.Answer) error {
	return do(a.h, func(_ context.Context, c *hostcore.Core) error {
		return c.AnswerQuestion(sessionID, questionID, answers)
	})
}

// Proposals lists a session's plan and goal proposals, oldest first.
func (a *Agent) Proposals(sessionID string) ([]agent.Proposal, error) {
	return with(a.h, func(ctx context.Context, c *hostcore.Core) ([]agent.Proposal, error) {
		return c.Proposals(ctx, sessionID)
	})
}

// ResolveProposal approves (with the permission mode to continue in) or
// rejects (with feedback) a plan or goal.
func (a *Agent) ResolveProposal(d agent.ProposalDecision) (agent.Proposal, error) {
	return with(a.h, func(ctx context.Context, c *hostcore.Core) (agent.Proposal, error) { return c.ResolveProposal(ctx, d) })
}

// Todos returns a session's checklist.
func (a *Agent) Todos(sessionID string) ([]agent.Todo, error) {
	return with(a.h, func(ctx context.Context, c *hostcore.Core) ([]agent.Todo, error) { return c.Todos(ctx, sessionID) })
}

// SendPromptWith starts an agent turn with the composer's options: the MCP
// servers (and tools) chosen for this prompt are loaded without a
// ToolSearch round trip; an unknown or unusable choice fails before the
// turn opens.
func (a *Agent) SendPromptWith(sessionID, prompt string, opts api.PromptOptions) error {
	return do(a.h, func(ctx context.Context, c *hostcore.Core) error {
		return c.StartTurnWith(ctx, sessionID, prompt, opts)
	})
}

// SessionCost returns what the session header shows: the session's cost
// so far and the tokens of its last request against the model's window.
func (a *Agent) SessionCost(sessionID string) (hostcore.SessionCost, error) {
	return with(a.h, func(ctx context.Context, c *hostcore.Core) (hostcore.SessionCost, error) {
		return c.SessionCost(ctx, sessionID)
	})
}
