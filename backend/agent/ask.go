package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// asktool (spec §3): an interactive multi-question tool. It waits for the
// user's answers with no deadline; Stop resolves the questions as skipped
// (empty fields). The answers return as a bounded structured result.

// Question is one question of an asktool call.
type Question struct {
	Question    string   `json:"question"`
	Options     []Option `json:"options,omitempty"`
	MultiSelect bool     `json:"multiSelect,omitempty"`
}

// Option is a choice; the model may send a plain string (the label).
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// UnmarshalJSON reads an option sent as a plain label or as an object.
func (o *Option) UnmarshalJSON(b []byte) error {
	if json.Unmarshal(b, &o.Label) == nil {
		return nil
	}
	type plain Option
	return json.Unmarshal(b, (*plain)(o))
}

// Answer is the user's answer to one question: the labels of the chosen
// options (at most one unless multiSelect) and any text they typed. A
// skipped question is the zero Answer.
type Answer struct {
	Selected []string `json:"selected"`
	Text     string   `json:"text"`
}

// Question states of QuestionEvent.
const (
	QuestionPending  = "pending"
	QuestionAnswered = "answered"
	QuestionSkipped  = "skipped"
)

// QuestionEvent reports an asktool call waiting for the user (State
// pending), then its resolution (answered, or skipped by Stop).
type QuestionEvent struct {
	SessionID  string     `json:"sessionId"`
	TurnID     string     `json:"turnId"`
	ToolCallID string     `json:"toolCallId"`
	QuestionID string     `json:"questionId"`
	Questions  []Question `json:"questions"`
	State      string     `json:"state"`
	Answers    []Answer   `json:"answers,omitempty"`
	CreatedAt  int64      `json:"createdAt"`
}

type pendingQuestion struct {
	ev QuestionEvent
	ch chan []Answer // buffered 1; receives exactly once
}

// checkAnswers validates the user's answers against the questions; fewer
// answers than questions skip the rest.
func checkAnswers(qs []Question, answers []Answer) ([]Answer, error) {
	if len(answers) > len(qs) {
		return nil, invalid("answers", "%d answers for %d questions", len(answers), len(qs))
	}
	out := make([]Answer, len(qs))
	for i, a := range answers {
		p := index("answers", i)
		q := qs[i]
		if !q.MultiSelect && len(a.Selected) > 1 {
			return nil, invalid(p+".selected", "question %d allows one option, %d were selected", i+1, len(a.Selected))
		}
		for _, s := range a.Selected {
			if !slices.ContainsFunc(q.Options, func(o Option) bool { return o.Label == s }) {
				return nil, invalid(p+".selected", "%q is not an option of question %d", s, i+1)
			}
		}
		if n := len(a.Selected); n > 1 && len(slices.Compact(slices.Sorted(slices.Values(a.Selected)))) != n {
			return nil, invalid(p+".selected", "question %d has an option selected twice", i+1)
		}
		if n := utf8.RuneCountInString(a.Text); n > maxAnswerLen {
			return nil, invalid(p+".text", "the answer to question %d is %d characters long; at most %d are allowed", i+1, n, maxAnswerLen)
		}
		out[i] = Answer{Selected: slices.Clone(a.Selected), Text: a.Text}
	}
	for i := range out {
		if out[i].Selected == nil {
			out[i].Selected = []string{}
		}
	}
	return out, nil
}

// ask shows the validated questions of args and waits for the answers.
func (r *run) ask(ctx context.Context, c *prepared, args json.RawMessage, m *tools.Outcome) tools.Result {
	var in struct {
		Questions []Question `json:"questions"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return tools.Failure(errs.Wrap(err, errs.InvalidArgument, "asktool's arguments do not decode"))
	}
	qs := in.Questions
	a := r.a
	pq := &pendingQuestion{ch: make(chan []Answer, 1), ev: QuestionEvent{SessionID: r.sessionID, TurnID: r.turnID, ToolCallID: c.id,
		QuestionID: a.newID(), Questions: qs, State: QuestionPending, CreatedAt: a.now().UnixMilli()}}
	a.mu.Lock()
	a.questions[pq.ev.QuestionID] = pq
	a.mu.Unlock()
	a.emit(EventQuestion, pq.ev)
	m.Prompted = true
	waitStart := time.Now()

	var answers []Answer
	skipped := false
	select {
	case answers = <-pq.ch:
	case <-ctx.Done():
		a.mu.Lock()
		select {
		case answers = <-pq.ch: // answered just before the stop
		default:
			delete(a.questions, pq.ev.QuestionID)
			skipped = true
		}
		a.mu.Unlock()
	}
	m.Wait = time.Since(waitStart)
	if skipped {
		answers, _ = checkAnswers(qs, nil)
		m.Decision = decisionCancelled
	} else {
		m.Decision = decisionUser
	}
	done := pq.ev
	done.State, done.Answers = QuestionAnswered, answers
	if skipped {
		done.State = QuestionSkipped
	}
	a.emit(EventQuestion, done)

	type qa struct {
		Question string   `json:"question"`
		Selected []string `json:"selected"`
		Text     string   `json:"text"`
	}
	out := make([]qa, len(qs))
	for i, q := range qs {
		out[i] = qa{Question: q.Question, Selected: answers[i].Selected, Text: answers[i].Text}
	}
	body, _ := json.Marshal(map[string]any{"answers": out})
	res := tools.Result{OK: true, Content: string(body), Fields: map[string]any{"questionId": pq.ev.QuestionID, "skipped": skipped}}
	if skipped {
		res.Notice = "the turn was stopped before the user answered, so every answer is empty"
	}
	return res
}

// Answer delivers the user's answers to a pending asktool call of the
// session (in question order; fewer answers skip the rest, and a zero
// Answer skips its question). A question that is no longer waiting
// (answered, or its turn stopped) is NOT_FOUND.
func (a *Agent) Answer(sessionID, questionID string, answers []Answer) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	pq := a.questions[questionID]
	if pq == nil || pq.ev.SessionID != sessionID {
		return errs.New(errs.NotFound, "this question is no longer waiting: it was answered, or its turn was stopped").
			With("sessionId", sessionID).With("questionId", questionID)
	}
	checked, err := checkAnswers(pq.ev.Questions, answers)
	if err != nil {
		return err
	}
	delete(a.questions, questionID)
	pq.ch <- checked
	return nil
}

// PendingQuestions lists the session's questions waiting for an answer,
// oldest first (a reloaded UI shows them again).
func (a *Agent) PendingQuestions(sessionID string) []QuestionEvent {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []QuestionEvent
	for _, pq := range a.questions {
		if pq.ev.SessionID == sessionID {
			out = append(out, pq.ev)
		}
	}
	slices.SortFunc(out, func(x, y QuestionEvent) int {
		if x.CreatedAt != y.CreatedAt {
			if x.CreatedAt < y.CreatedAt {
				return -1
			}
			return 1
		}
		return strings.Compare(x.QuestionID, y.QuestionID)
	})
	return out
}
