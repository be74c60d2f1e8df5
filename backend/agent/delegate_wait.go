package agent

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// TaskWait's bounds (§10.2).
const (
	MaxReportChars     = 12_000 // one delegate's report, as the parent sees it
	MaxWaitResultChars = 50_000 // one TaskWait result
	DefaultWaitTimeout = 300 * time.Second
	MaxWaitTimeout     = 900 * time.Second
)

// WaitResult is what one TaskWait returns: the delegates that finished
// (their reports) and the ones still running, each in start order.
type WaitResult struct {
	Finished []Delegation `json:"finished"`
	Running  []Delegation `json:"running"`
	TimedOut bool         `json:"timedOut"`
}

// WaitDelegations waits for sessionID's delegates: ids (none = every
// delegate this process runs for the session whose report no earlier wait
// returned), until all of them finished (all) or one did (!all), or
// timeout passes (0 = DefaultWaitTimeout; at most MaxWaitTimeout), or ctx
// ends. A finished delegate's report is returned once by a wait without
// ids; naming its id returns it again.
func (a *Agent) WaitDelegations(ctx context.Context, sessionID string, ids []string, all bool, timeout time.Duration) (WaitResult, error) {
	switch {
	case timeout <= 0:
		timeout = DefaultWaitTimeout
	case timeout > MaxWaitTimeout:
		return WaitResult{}, invalid("timeoutSeconds", "timeoutSeconds is at most %d; wait again afterwards if the delegates still run", int(MaxWaitTimeout/time.Second))
	}
	scopes, err := a.waitScopes(ctx, sessionID, ids)
	if err != nil {
		return WaitResult{}, err
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	timedOut := false
	for !waitSatisfied(scopes, all) {
		closed, timeout := waitAny(ctx, timer.C, pendingDone(scopes))
		if closed {
			continue
		}
		if !timeout {
			return WaitResult{}, errs.Wrap(ctx.Err(), errs.TurnAborted, "the wait was stopped")
		}
		timedOut = true
		break
	}
	res := WaitResult{Finished: []Delegation{}, Running: []Delegation{}, TimedOut: timedOut}
	for _, s := range scopes {
		d := s.snapshot()
		if d.Finished() {
			res.Finished = append(res.Finished, d)
			a.collect(s)
		} else {
			res.Running = append(res.Running, d)
		}
	}
	return res, nil
}

// collect marks a finished delegate's report read and forgets its live
// scope once its outcome is stored: the stored row answers from then on.
func (a *Agent) collect(s *delegateScope) {
	s.mu.Lock()
	s.collected = true
	forget := s.recorded
	s.mu.Unlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	if forget && a.delegs[s.id] == s {
		delete(a.delegs, s.id)
	}
	sid := s.d.SessionID
	if i := slices.Index(a.unread[sid], s.id); i >= 0 {
		a.unread[sid] = slices.Delete(a.unread[sid], i, i+1)
		if len(a.unread[sid]) == 0 {
			delete(a.unread, sid)
		}
	}
}

// settleDelegationsLocked forgets the live scopes of sessionID's finished,
// stored delegates as its turn ends (a.mu held); an unread one's id is
// kept so the next wait without ids still returns its report.
func (a *Agent) settleDelegationsLocked(sessionID string) {
	for id, s := range a.delegs {
		if s.d.SessionID != sessionID || !s.finished() {
			continue
		}
		s.mu.Lock()
		recorded, collected := s.recorded, s.collected
		s.mu.Unlock()
		if !recorded {
			continue
		}
		delete(a.delegs, id)
		if !collected {
			a.unread[sessionID] = append(a.unread[sessionID], id)
		}
	}
}

// waitScopes finds the delegates a wait is about.
func (a *Agent) waitScopes(ctx context.Context, sessionID string, ids []string) ([]*delegateScope, error) {
	a.mu.Lock()
	var scopes []*delegateScope
	var missing []string
	if len(ids) == 0 {
		for _, s := range a.delegs {
			s.mu.Lock()
			take := s.d.SessionID == sessionID && !s.collected
			s.mu.Unlock()
			if take {
				scopes = append(scopes, s)
			}
		}
		missing = slices.Clone(a.unread[sessionID]) // finished, read from the store
	}
	for _, id := range ids {
		s := a.delegs[id]
		if s == nil || s.d.SessionID != sessionID {
			missing = append(missing, id)
			continue
		}
		if !slices.Contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	a.mu.Unlock()
	for _, id := range missing {
		// One whose report was read, or one from before a restart, has its
		// stored outcome; one stored as running is nobody's any more.
		if slices.ContainsFunc(scopes, func(s *delegateScope) bool { return s.id == id }) {
			continue // named twice
		}
		d, err := a.st.delegation(ctx, sessionID, id)
		if err != nil {
			return nil, err
		}
		if !d.Finished() {
			return nil, errs.New(errs.DelegateNotFound, "delegation %s is not running in this PI-Desktop (it is stored as %s); TaskList shows its state", id, d.State).With("id", id)
		}
		scopes = append(scopes, storedScope(d))
	}
	// In the order the parent asked for them: its turns and call ids are
	// time-ordered and assigned in source order (a fanned-out batch starts
	// its delegates in any order).
	slices.SortFunc(scopes, func(x, y *delegateScope) int {
		if c := strings.Compare(x.parentTurnID, y.parentTurnID); c != 0 {
			return c
		}
		if c := strings.Compare(x.parentToolCallID, y.parentToolCallID); c != 0 {
			return c
		}
		return strings.Compare(x.id, y.id)
	})
	return scopes, nil
}

// storedScope stands for a finished delegation this process no longer
// holds: its stored record, already ended.
func storedScope(d Delegation) *delegateScope {
	done := make(chan struct{})
	close(done)
	return &delegateScope{id: d.ID, name: d.Subagent, parentTurnID: d.ParentTurnID, parentToolCallID: d.ParentToolCallID,
		d: d, done: done, collected: true}
}

func waitSatisfied(scopes []*delegateScope, all bool) bool {
	n := 0
	for _, s := range scopes {
		if s.finished() {
			n++
		}
	}
	if all {
		return n == len(scopes)
	}
	return n > 0 || len(scopes) == 0
}

func pendingDone(scopes []*delegateScope) []<-chan struct{} {
	var out []<-chan struct{}
	for _, s := range scopes {
		if !s.finished() {
			out = append(out, s.done)
		}
	}
	return out
}

// waitAny blocks until one of chans is closed (true), the timer fires or
// ctx ends (false).
func waitAny(ctx context.Context, timer <-chan time.Time, chans []<-chan struct{}) (closed, timedOut bool) {
	cases := []reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(timer)},
	}
	for _, c := range chans {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c)})
	}
	i, _, _ := reflect.Select(cases)
	return i >= 2, i == 1
}

// ModelText is the wait's result as the parent's model reads it: each
// finished delegate's state and report (at most MaxReportChars each, its
// cut marker included), then the ones still running; the whole at most
// MaxWaitResultChars. A report is the delegate's model's text, so any
// delegation marker in it is neutralised: it cannot close its own block and
// pose as another delegate's report or as the host's words.
func (w WaitResult) ModelText() string {
	var b strings.Builder
	for _, d := range w.Finished {
		fmt.Fprintf(&b, "<delegation id=%q subagent=%q state=%q turns=%d tools=%d>\n", d.ID, d.Subagent, d.State, d.TurnsUsed, d.ToolCount)
		if d.State != DelegationDone {
			fmt.Fprintf(&b, "It did not finish (%s: %s). The report below is partial; start a new Task that says what is left to resume the work.\n",
				d.ErrorCode, neutralise(d.ErrorMessage))
		}
		b.WriteString(boundedReport(d.Report))
		b.WriteString("\n</delegation>\n")
	}
	if len(w.Running) > 0 {
		b.WriteString("Still running:")
		for _, d := range w.Running {
			fmt.Fprintf(&b, " %s (%s)", d.ID, d.Subagent)
		}
		b.WriteString(". Call TaskWait again for them, or TaskStop to stop one.\n")
	} else if len(w.Finished) == 0 {
		b.WriteString("No delegate is waiting to report.\n")
	}
	return withinRunes(b.String(), MaxWaitResultChars,
		fmt.Sprintf("\n[TaskWait result cut at %d characters; wait for fewer ids at a time to read every report whole]", MaxWaitResultChars))
}

// boundedReport is one report as the parent reads it: markers neutralised,
// at most MaxReportChars with its cut marker.
func boundedReport(report string) string {
	if report == "" {
		return "(no report: the delegate wrote no text)"
	}
	return withinRunes(neutralise(report), MaxReportChars, fmt.Sprintf("\n[report cut at %d characters]", MaxReportChars))
}

// withinRunes returns s when it has at most n characters, else s cut so
// that it and marker together have n.
func withinRunes(s string, n int, marker string) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return truncate.Runes(s, n-utf8.RuneCountInString(marker)) + marker
}

// delegationMarker matches the start of an opening or closing delegation
// tag, in any case.
var delegationMarker = regexp.MustCompile(`(?i)<(\s*/?\s*delegation)`)

// neutralise spells a delegation tag in text so it no longer reads as one.
func neutralise(text string) string {
	return delegationMarker.ReplaceAllString(text, "&lt;$1")
}

// ForgetSession drops what the agent keeps of a deleted session's
// delegates: the ids of reports no wait read and the scopes of finished
// delegates. Running ones were stopped by Stop; they are not forgotten
// here, since they still store how they ended.
func (a *Agent) ForgetSession(sessionID string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.unread, sessionID)
	for id, s := range a.delegs {
		if s.d.SessionID == sessionID && s.finished() {
			delete(a.delegs, id)
		}
	}
}
