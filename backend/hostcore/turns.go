package hostcore

import (
	"context"

	"github.com/pi-desktop/pi-desktop/backend/agent"
)

// The agent's turns and what they wait on, for the window and the CLI.
// StartTurn (agenthost.go) starts one in the background; RunTurn runs one
// to its end.

// RunTurn runs one agent turn and returns when it ends; its progress
// arrives as agent:* events meanwhile (the CLI's `run`).
func (c *Core) RunTurn(ctx context.Context, sessionID, prompt string) (agent.TurnResult, error) {
	defer c.EndTurn(ctx, sessionID, "")
	c.titleFromPrompt(ctx, sessionID, prompt)
	return c.agent.Run(ctx, sessionID, prompt)
}

// titleFromPrompt gives a session still named "New session …" its first
// prompt's words. A failure leaves the placeholder: never the turn's
// business.
func (c *Core) titleFromPrompt(ctx context.Context, sessionID, prompt string) {
	if s, changed, err := c.sessions.TitleFromPrompt(ctx, sessionID, prompt); changed {
		c.sessionChanged(s, err)
	}
}

// SystemPrompt is the system prompt a session's next turn would send.
func (c *Core) SystemPrompt(ctx context.Context, sessionID string) (string, error) {
	return c.agent.Prompt(ctx, sessionID)
}

// Transcript returns a session's whole stored conversation.
func (c *Core) Transcript(ctx context.Context, sessionID string) (agent.Transcript, error) {
	return c.agent.Load(ctx, sessionID)
}

// TranscriptPage returns one page of a session's stored conversation,
// whole turns only (agent.PageQuery).
func (c *Core) TranscriptPage(ctx context.Context, sessionID string, q agent.PageQuery) (agent.Page, error) {
	return c.agent.LoadPage(ctx, sessionID, q)
}

// PendingQuestions lists a session's unanswered asktool questions.
func (c *Core) PendingQuestions(sessionID string) []agent.QuestionEvent {
	return c.agent.PendingQuestions(sessionID)
}

// AnswerQuestion answers an asktool call; fewer answers skip the rest.
func (c *Core) AnswerQuestion(sessionID, questionID string, answers []agent.Answer) error {
	return c.agent.Answer(sessionID, questionID, answers)
}

// Proposals lists a session's plan and goal proposals, oldest first.
func (c *Core) Proposals(ctx context.Context, sessionID string) ([]agent.Proposal, error) {
	return c.agent.Proposals(ctx, sessionID)
}

// ResolveProposal approves (with the permission mode to continue in) or
// rejects (with feedback) a plan or goal.
func (c *Core) ResolveProposal(ctx context.Context, d agent.ProposalDecision) (agent.Proposal, error) {
	return c.agent.ResolveProposal(ctx, d)
}

// Todos returns a session's checklist.
func (c *Core) Todos(ctx context.Context, sessionID string) ([]agent.Todo, error) {
	return c.agent.Todos(ctx, sessionID)
}
