package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// SubmitPlan / SubmitGoal (spec §10.1): the exact Markdown goes to a new
// .pi/<kind>/*.md artifact through the host, then one pending proposal
// waits for the user, with no deadline. Approval (with the permission mode
// to continue with) switches the session to Agent; rejection returns the
// user's feedback and stays in the contract mode. A proposal lives as long
// as its turn: Stop cancels it, and a restart marks it interrupted.

// Proposal states.
const (
	ProposalPending     = "pending"
	ProposalApproved    = "approved"
	ProposalRejected    = "rejected"
	ProposalCancelled   = "cancelled"   // the turn was stopped before a decision
	ProposalInterrupted = "interrupted" // PI-Desktop stopped before a decision
)

// Proposal is one submitted plan or goal; it is also the payload of
// EventProposal.
type Proposal struct {
	ID             string `json:"proposalId"`
	SessionID      string `json:"sessionId"`
	TurnID         string `json:"turnId"`
	ToolCallID     string `json:"toolCallId"`
	Kind           string `json:"kind"` // plan | goal
	Version        int    `json:"version"`
	Title          string `json:"title"`
	Question       string `json:"question"`
	Markdown       string `json:"markdown"`
	Path           string `json:"path"` // workspace-relative artifact path
	SHA256         string `json:"sha256"`
	Size           int64  `json:"size"`
	State          string `json:"state"`
	PermissionMode string `json:"permissionMode,omitempty"`
	Feedback       string `json:"feedback,omitempty"`
	CreatedAt      int64  `json:"createdAt"`
	ResolvedAt     int64  `json:"resolvedAt,omitempty"`
}

// ProposalDecision is the user's answer to a pending proposal. SessionID,
// TurnID, ProposalID and Version must all match it. Approval needs the
// permission mode to continue with (ask, accept-edits or auto); Feedback
// goes to the model with a rejection (and as a note with an approval).
type ProposalDecision struct {
	SessionID      string `json:"sessionId"`
	TurnID         string `json:"turnId"`
	ProposalID     string `json:"proposalId"`
	Version        int    `json:"version"`
	Approve        bool   `json:"approve"`
	PermissionMode string `json:"permissionMode,omitempty"`
	Feedback       string `json:"feedback,omitempty"`
}

type pendingProposal struct {
	p  Proposal
	ch chan Proposal // buffered 1: the decided proposal
}

// maxFeedbackLen bounds the user's feedback on a proposal.
const maxFeedbackLen = 8000

// submit saves the validated document of args (the policy offers Submit*
// only in the mode of its kind) and waits for the user's decision.
func (r *run) submit(ctx context.Context, c *prepared, kind string, args json.RawMessage, m *tools.Outcome) tools.Result {
	a := r.a
	var in struct {
		Title    string `json:"title"`
		Markdown string `json:"markdown"`
		Question string `json:"question"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return tools.Failure(errs.Wrap(err, errs.InvalidArgument, "%s's arguments do not decode", c.tool))
	}
	title, markdown, question := in.Title, in.Markdown, in.Question
	if question == "" {
		question = fmt.Sprintf("Approve this %s?", kind)
	}
	art, err := a.host.WriteArtifact(ctx, r.sessionID, kind, title, []byte(markdown))
	if err != nil {
		return tools.Failure(err)
	}
	m.Path = art.Path
	dbctx := context.WithoutCancel(ctx)
	pp := &pendingProposal{ch: make(chan Proposal, 1), p: Proposal{ID: a.newID(), SessionID: r.sessionID, TurnID: r.turnID, ToolCallID: c.id,
		Kind: kind, Title: title, Question: question, Markdown: markdown, Path: art.Path, SHA256: art.SHA256, Size: art.Size,
		State: ProposalPending, CreatedAt: a.now().UnixMilli()}}
	a.pmu.Lock()
	pp.p.Version, err = a.st.insertProposal(dbctx, pp.p)
	if err == nil {
		a.proposals[pp.p.ID] = pp
	}
	a.pmu.Unlock()
	if err != nil {
		return tools.Failure(err)
	}
	a.emit(EventProposal, pp.p)
	m.Prompted = true
	waitStart := time.Now()

	var p Proposal
	select {
	case p = <-pp.ch:
	case <-ctx.Done():
		a.pmu.Lock()
		select {
		case p = <-pp.ch: // decided just before the stop
		default:
			// The user's Stop cancels it; a shutdown interrupts it, like a
			// restart would.
			delete(a.proposals, pp.p.ID)
			p = pp.p
			p.State, p.ResolvedAt = ProposalCancelled, a.now().UnixMilli()
			if !r.stopped.Load() {
				p.State = ProposalInterrupted
			}
			_ = a.st.resolveProposal(dbctx, p)
			m.Decision = decisionCancelled
		}
		a.pmu.Unlock()
	}
	m.Wait = time.Since(waitStart)
	a.emit(EventProposal, p)
	fields := map[string]any{"proposalId": p.ID, "version": p.Version, "path": p.Path, "sha256": p.SHA256, "size": p.Size, "decision": p.State}
	switch p.State {
	case ProposalApproved:
		m.Decision = decisionUser
		r.modeChanged = true
		a.emit(EventMode, ModeEvent{SessionID: r.sessionID, TurnID: r.turnID, OperatingMode: api.ModeAgent, PermissionMode: p.PermissionMode, Reason: "approved"})
		fields["permissionMode"] = p.PermissionMode
		next := "Carry out the plan now, step by step (keep a checklist with TodoWrite), and report what you did when it is done."
		if kind == api.ModeGoal {
			next = "Work until every acceptance criterion is reached, then verify each one (run the checks it names) and report the evidence; " +
				"keep a checklist with TodoWrite."
		}
		text := fmt.Sprintf("The user approved the %s %q (saved at %s, sha256 %s). The session is now in Agent mode with permission mode %s. %s",
			kind, p.Title, p.Path, p.SHA256, p.PermissionMode, next)
		if p.Feedback != "" {
			text += "\n\nThe user added:\n" + p.Feedback
		}
		return tools.Result{OK: true, Content: text, Fields: fields}
	case ProposalRejected:
		m.Decision = decisionUser
		fields["feedback"] = p.Feedback
		fb := p.Feedback
		if fb == "" {
			fb = "(no feedback given; ask what to change with asktool if it is unclear)"
		}
		return tools.Result{OK: true, Fields: fields, Content: fmt.Sprintf(
			"The user did not approve the %s %q (saved at %s). Their feedback:\n\n%s\n\nYou are still in %s mode. Revise the %s to address the feedback and submit it again with %s, alone in its response.",
			kind, p.Title, p.Path, fb, permission.ModeName(kind), kind, c.tool)}
	}
	res := tools.Failure(errs.New(errs.ToolAborted, "the turn was stopped before the user decided on the %s; it is saved at %s, "+
		"so submit it again with %s if it is still wanted", kind, p.Path, c.tool))
	res.Fields = fields
	return res
}

// ResolveProposal decides a pending proposal. A decision that names another
// session, turn or version, or comes after the proposal was settled or its
// turn stopped, fails closed with PLAN_APPROVAL_STALE; one for a proposal
// cut by a restart fails with PLAN_APPROVAL_INTERRUPTED. Approval switches
// the session to Agent mode with d.PermissionMode (required) before the
// waiting turn goes on; rejection leaves the mode as it is. It returns the
// settled proposal.
func (a *Agent) ResolveProposal(ctx context.Context, d ProposalDecision) (Proposal, error) {
	a.pmu.Lock()
	defer a.pmu.Unlock()
	pp := a.proposals[d.ProposalID]
	if pp == nil {
		p, found, err := a.st.getProposal(ctx, d.ProposalID)
		if err != nil {
			return Proposal{}, err
		}
		if found && p.SessionID == d.SessionID && p.State == ProposalInterrupted {
			return p, errs.New(errs.PlanApprovalInterrupted, "PI-Desktop stopped while this %s waited for a decision, so it can no longer be approved; "+
				"its document is kept at %s: ask the agent to continue from it", p.Kind, p.Path).With("proposalId", d.ProposalID)
		}
		why := "it is not waiting for a decision (it was already decided, or its turn was stopped)"
		if !found || p.SessionID != d.SessionID {
			why = "there is no such proposal in this session"
		}
		return Proposal{}, stale(d, why)
	}
	p := pp.p
	switch {
	case p.SessionID != d.SessionID:
		return Proposal{}, stale(d, "there is no such proposal in this session")
	case p.TurnID != d.TurnID:
		return Proposal{}, stale(d, "it belongs to another turn")
	case p.Version != d.Version:
		return Proposal{}, stale(d, fmt.Sprintf("the pending version is %d", p.Version))
	}
	if n := len([]rune(d.Feedback)); n > maxFeedbackLen {
		return Proposal{}, invalid("feedback", "the feedback is %d characters long; at most %d are allowed", n, maxFeedbackLen)
	}
	p.Feedback, p.ResolvedAt = d.Feedback, a.now().UnixMilli()
	if !d.Approve {
		p.State = ProposalRejected
		if err := a.st.resolveProposal(ctx, p); err != nil {
			return Proposal{}, err
		}
		delete(a.proposals, p.ID)
		pp.ch <- p
		return p, nil
	}
	switch d.PermissionMode {
	case api.PermissionAsk, api.PermissionAcceptEdits, api.PermissionAuto:
	default:
		return Proposal{}, invalid("permissionMode", "approving needs the permission mode to continue with: ask, accept-edits or auto (not %q)", d.PermissionMode)
	}
	info, err := a.host.Binding(ctx, d.SessionID)
	if err != nil {
		return Proposal{}, err
	}
	if info.OperatingMode != p.Kind {
		return Proposal{}, stale(d, fmt.Sprintf("the session is in %s mode now, not %s", permission.ModeName(info.OperatingMode), permission.ModeName(p.Kind)))
	}
	p.State, p.PermissionMode = ProposalApproved, d.PermissionMode
	if err := a.st.resolveProposal(ctx, p); err != nil {
		return Proposal{}, err
	}
	if err := a.host.Configure(ctx, d.SessionID, ModeChange{From: p.Kind, To: api.ModeAgent, PermissionMode: d.PermissionMode}); err != nil {
		// Still pending: the user may try again.
		_ = a.st.resolveProposal(context.WithoutCancel(ctx), pp.p)
		if errs.Is(err, errs.Conflict) {
			return Proposal{}, errs.Wrap(err, errs.PlanApprovalStale, "the %s can no longer be approved: %s", p.Kind, errs.ToPayload(err).Message)
		}
		return Proposal{}, err
	}
	delete(a.proposals, p.ID)
	pp.ch <- p
	return p, nil
}

func stale(d ProposalDecision, why string) error {
	return errs.New(errs.PlanApprovalStale, "this decision is out of date and was not applied: %s; reload the session to see what is waiting", why).
		With("sessionId", d.SessionID).With("proposalId", d.ProposalID).With("version", d.Version)
}

// Proposals lists the session's proposals, oldest first, with their states:
// pending ones are waiting for a decision (a reloaded UI shows them again).
func (a *Agent) Proposals(ctx context.Context, sessionID string) ([]Proposal, error) {
	return a.st.listProposals(ctx, sessionID)
}
