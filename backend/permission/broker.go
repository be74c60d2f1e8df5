package permission

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Outcome is how a pending approval ended.
type Outcome string

const (
	AllowOnce    Outcome = "allow-once"
	AllowSession Outcome = "allow-session"
	Denied       Outcome = "deny"
	Cancelled    Outcome = "cancelled"
	TimedOut     Outcome = "timeout"
	Shutdown     Outcome = "shutdown"
	// AllowRule: the user chose one of the card's RuleChoices; the call runs
	// and the host saves the rule.
	AllowRule Outcome = "allow-rule"
)

// Allowed reports whether the outcome lets the call run.
func (o Outcome) Allowed() bool { return o == AllowOnce || o == AllowSession || o == AllowRule }

// Request is one pending approval: what an inline card shows.
type Request struct {
	ID         string `json:"id"`
	SessionID  string `json:"sessionId"`
	TurnID     string `json:"turnId"`
	ToolCallID string `json:"toolCallId"`
	Tool       string `json:"tool"`
	Risk       Risk   `json:"risk"`
	Reason     string `json:"reason"`
	Preview    string `json:"preview"`  // bounded, secrets redacted
	Path       string `json:"path"`     // the resolved target, when there is one
	External   bool   `json:"external"` // outside the session's roots
	// Protected: the change reaches a protected path (.git, the agent's
	// own configuration), which asks in every mode; the card says so.
	Protected bool   `json:"protected,omitempty"`
	Workspace string `json:"workspace"` // the session's workspace root
	Delegate  string `json:"delegate,omitempty"`
	// Server, ServerTool and ToolTitle name an MCP tool's origin: the
	// server's id and the tool's own name and title there.
	Server     string `json:"server,omitempty"`
	ServerTool string `json:"serverTool,omitempty"`
	ToolTitle  string `json:"toolTitle,omitempty"`
	// Diff is a bounded unified diff of what a Write or Edit would change
	// (hunk headers and " ", "-", "+" lines, a "[diff truncated: …]" marker
	// at the end when cut); DiffNote says why there is none or what it
	// omits. Both only ever show the target file's own content.
	Diff      string `json:"diff,omitempty"`
	DiffNote  string `json:"diffNote,omitempty"`
	CreatedAt int64  `json:"createdAt"`
	// Command is what a command would do as the shell parser sees it (Bash
	// only); RuleChoices are the card's "Always allow …" answers.
	Command     *CommandEffect `json:"command,omitempty"`
	RuleChoices []RuleChoice   `json:"ruleChoices,omitempty"`
	// Grant is what an allow-session answer grants: Verdict.Grant, or the
	// tool when empty. Never sent: the UI answers by request id.
	Grant string `json:"-"`
}

// Resolution is the event sent when a pending request ends.
type Resolution struct {
	ID        string  `json:"id"`
	SessionID string  `json:"sessionId"`
	Outcome   Outcome `json:"outcome"`
	// Rule is the chosen RuleChoice's label when Outcome is AllowRule.
	Rule string `json:"rule,omitempty"`
}

// Answer is how a pending approval ended, with the rule chosen when the
// outcome is AllowRule.
type Answer struct {
	Outcome Outcome
	Choice  RuleChoice
}

// Event names the broker emits.
const (
	EventRequest  = "permission:request"
	EventResolved = "permission:resolved"
)

type pending struct {
	req  Request
	done chan Answer // buffered 1: the first answer wins
}

// Broker holds pending approvals and allow-session grants, both in memory
// and keyed by session so nothing crosses from one session to another.
type Broker struct {
	emit func(event string, payload any)
	now  func() time.Time

	mu       sync.Mutex
	pending  map[string]map[string]*pending // session → request id → pending
	grants   map[string]map[string]bool     // session → tool → granted
	shutdown bool
}

// NewBroker returns a broker that announces requests through emit.
func NewBroker(emit func(event string, payload any), now func() time.Time) *Broker {
	if now == nil {
		now = time.Now
	}
	return &Broker{emit: emit, now: now, pending: map[string]map[string]*pending{}, grants: map[string]map[string]bool{}}
}

// Granted reports whether the session holds an allow-session grant for key:
// a tool name, or a Verdict.Grant such as a ProtectedGrant.
func (b *Broker) Granted(sessionID, key string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.grants[sessionID][key]
}

// Ask publishes req and blocks until it is answered, ctx is cancelled (a
// Stop), the optional deadline passes, or the broker shuts down. Only an
// allow outcome lets the caller proceed.
func (b *Broker) Ask(ctx context.Context, req Request, deadline time.Duration) Outcome {
	return b.AskAnswer(ctx, req, deadline).Outcome
}

// AskAnswer is Ask that also returns the rule chosen by an AllowRule answer.
func (b *Broker) AskAnswer(ctx context.Context, req Request, deadline time.Duration) Answer {
	p := &pending{req: req, done: make(chan Answer, 1)}
	p.req.CreatedAt = b.now().UnixMilli()
	b.mu.Lock()
	if b.shutdown {
		b.mu.Unlock()
		return Answer{Outcome: Shutdown}
	}
	if b.pending[req.SessionID] == nil {
		b.pending[req.SessionID] = map[string]*pending{}
	}
	b.pending[req.SessionID][req.ID] = p
	b.mu.Unlock()
	b.emit(EventRequest, p.req)

	var timeout <-chan time.Time
	if deadline > 0 {
		t := time.NewTimer(deadline)
		defer t.Stop()
		timeout = t.C
	}
	var ans Answer
	select {
	case ans = <-p.done:
	case <-ctx.Done():
		ans.Outcome = Cancelled
	case <-timeout:
		ans.Outcome = TimedOut
	}
	ans.Outcome = b.finish(req, ans.Outcome)
	res := Resolution{ID: req.ID, SessionID: req.SessionID, Outcome: ans.Outcome}
	if ans.Outcome == AllowRule {
		res.Rule = ans.Choice.Label
	} else {
		ans.Choice = RuleChoice{}
	}
	b.emit(EventResolved, res)
	return ans
}

// finish removes the request and settles its outcome. The grant of an
// allow-session answer is installed here, by the call that actually
// received that answer, so a late or losing answer never grants anything;
// nor does one racing a shutdown or the session's deletion.
func (b *Broker) finish(req Request, out Outcome) Outcome {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, live := b.pending[req.SessionID][req.ID]
	delete(b.pending[req.SessionID], req.ID)
	if len(b.pending[req.SessionID]) == 0 {
		delete(b.pending, req.SessionID)
	}
	if out.Allowed() && (b.shutdown || !live) {
		return Cancelled // the session was dropped or the app is closing
	}
	if out == AllowSession {
		if b.grants[req.SessionID] == nil {
			b.grants[req.SessionID] = map[string]bool{}
		}
		key := req.Grant
		if key == "" {
			key = req.Tool
		}
		b.grants[req.SessionID][key] = true
	}
	return out
}

// Resolve answers a pending request of sessionID. An allow-session answer
// records a grant for (session, tool) before the waiting call resumes. An
// answer AnswerAllowRule+ID picks one of the request's RuleChoices; only a
// choice the card offered is accepted.
func (b *Broker) Resolve(sessionID, id string, outcome Outcome) error {
	ans := Answer{Outcome: outcome}
	choiceID, rule := strings.CutPrefix(string(outcome), AnswerAllowRule)
	switch {
	case rule:
		ans.Outcome = AllowRule
	case outcome == AllowOnce, outcome == AllowSession, outcome == Denied:
	default:
		return errs.New(errs.InvalidArgument, "an approval is answered with allow-once, allow-session, deny or %sID, not %q", AnswerAllowRule, outcome).With("field", "outcome")
	}
	b.mu.Lock()
	p, ok := b.pending[sessionID][id]
	b.mu.Unlock()
	if !ok {
		return errs.New(errs.NotFound, "this approval request is no longer active; it was answered, stopped or timed out").With("id", id)
	}
	if rule {
		found := false
		for _, c := range p.req.RuleChoices {
			if c.ID == choiceID {
				ans.Choice, found = c, true
				break
			}
		}
		if !found {
			return errs.New(errs.InvalidArgument, "this card offers no rule choice %q; answer with one of its Always allow buttons, allow-once, allow-session or deny", truncate.BytesEllipsis(choiceID, 64)).With("field", "outcome")
		}
	}
	select {
	case p.done <- ans:
	default: // already answered
	}
	return nil
}

// Pending lists a session's open requests, oldest first, so a reloaded UI can
// show its cards again.
func (b *Broker) Pending(sessionID string) []Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Request, 0, len(b.pending[sessionID]))
	for _, p := range b.pending[sessionID] {
		out = append(out, p.req)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CreatedAt != out[j].CreatedAt {
			return out[i].CreatedAt < out[j].CreatedAt
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// PendingCounts returns the number of open requests per session, for the
// sidebar badges of background sessions (the UI's next step).
func (b *Broker) PendingCounts() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[string]int, len(b.pending))
	for s, m := range b.pending {
		out[s] = len(m)
	}
	return out
}

// DropSession forgets a deleted session's grants and denies its pending
// requests.
func (b *Broker) DropSession(sessionID string) {
	b.mu.Lock()
	delete(b.grants, sessionID)
	list := make([]*pending, 0, len(b.pending[sessionID]))
	for _, p := range b.pending[sessionID] {
		list = append(list, p)
	}
	delete(b.pending, sessionID)
	b.mu.Unlock()
	for _, p := range list {
		select {
		case p.done <- Answer{Outcome: Cancelled}:
		default:
		}
	}
}

// Close ends every pending request with Shutdown and refuses new ones.
func (b *Broker) Close() {
	b.mu.Lock()
	b.shutdown = true
	var all []*pending
	for _, m := range b.pending {
		for _, p := range m {
			all = append(all, p)
		}
	}
	b.mu.Unlock()
	for _, p := range all {
		select {
		case p.done <- Answer{Outcome: Shutdown}:
		default:
		}
	}
}
