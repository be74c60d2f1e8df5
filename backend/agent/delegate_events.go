package agent

import (
	"context"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// EventDelegation reports a delegate starting, changing (its tool count)
// and finishing.
const EventDelegation = "agent:delegation" // DelegationEvent

// DelegationEvent is a delegate's state for the Task row of the window.
type DelegationEvent struct {
	SessionID        string    `json:"sessionId"`
	DelegationID     string    `json:"delegationId"`
	ParentTurnID     string    `json:"parentTurnId"`
	ParentToolCallID string    `json:"parentToolCallId"`
	TurnID           string    `json:"turnId"` // the delegate's own turn
	Subagent         string    `json:"subagent"`
	Description      string    `json:"description"`
	State            string    `json:"state"` // running | waiting | done | failed | stopped
	ElapsedMs        int64     `json:"elapsedMs"`
	ToolCount        int       `json:"toolCount"`
	TurnsUsed        int       `json:"turnsUsed"`
	Code             errs.Code `json:"code,omitempty"`
	Message          string    `json:"message,omitempty"`
	// Branch is the delegate's own worktree branch ("" = the session's
	// root); MergeState how its work came back once it finished.
	Branch     string `json:"branch,omitempty"`
	MergeState string `json:"mergeState,omitempty"`
}

var _ tools.ApprovalWaiter = callTurn{}

// emit sends a run's event, marking a delegate's with its delegation id.
func (r *run) emit(event string, payload any) {
	if d := r.delegation; d != nil {
		switch p := payload.(type) {
		case TurnEvent:
			p.DelegationID = d.id
			payload = p
		case MessageEvent:
			p.DelegationID = d.id
			payload = p
		case DeltaEvent:
			p.DelegationID = d.id
			payload = p
		case ToolCallEvent:
			p.DelegationID = d.id
			payload = p
		case ToolResultEvent:
			p.DelegationID = d.id
			payload = p
		}
	}
	r.a.emit(event, payload)
}

// countTool counts one finished call of a delegate and shows the count.
func (r *run) countTool() {
	d := r.delegation
	if d == nil {
		return
	}
	d.mu.Lock()
	d.d.ToolCount++
	d.d.TurnsUsed = r.calls
	snap := d.d
	d.mu.Unlock()
	r.a.emitDelegation(d, snap)
}

func (a *Agent) emitDelegation(s *delegateScope, d Delegation) {
	a.emit(EventDelegation, DelegationEvent{SessionID: d.SessionID, DelegationID: d.ID, ParentTurnID: d.ParentTurnID,
		ParentToolCallID: d.ParentToolCallID, TurnID: d.TurnID, Subagent: d.Subagent, Description: d.Description, State: d.State,
		ElapsedMs: time.Since(s.start).Milliseconds(), ToolCount: d.ToolCount, TurnsUsed: d.TurnsUsed,
		Code: errs.Code(d.ErrorCode), Message: d.ErrorMessage, Branch: d.Branch, MergeState: d.MergeState})
}

// WaitingForApproval marks a delegate waiting while one of its calls has a
// card open, and running again once none has (several may be open at once).
func (t callTurn) WaitingForApproval(waiting bool) {
	d := t.r.delegation
	if d == nil {
		return
	}
	d.mu.Lock()
	if waiting {
		d.cards++
	} else {
		d.cards--
	}
	state := DelegationRunning
	if d.cards > 0 {
		state = DelegationWaiting
	}
	changed := d.d.State != state && !d.finishedLocked()
	if changed {
		d.d.State = state
	}
	snap := d.d
	d.mu.Unlock()
	if changed {
		t.r.a.emitDelegation(d, snap)
	}
}

// keepPartialReport makes a delegate's newest text its report so far: in
// its live record, and stored, so a delegate cut by a failure, a stop or a
// restart keeps what it had found (§4d.4). Only a whole model message is
// kept; a failed store write is left to the outcome's write.
func (r *run) keepPartialReport(ctx context.Context, text string) {
	d := r.delegation
	if d == nil {
		return
	}
	d.mu.Lock()
	d.d.Report = text
	d.mu.Unlock()
	_ = r.a.st.saveReport(ctx, d.id, text)
}
