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

// ParseQuestions validates asktool's arguments. Options may be strings or
// {label, description?} objects; labels must be unique within a question.
func ParseQuestions(args json.RawMessage) ([]Question, error) {
	obj, err := object(args, "", "asktool's arguments", "questions")
	if err != nil {
		return nil, err
	}
	items, err := array(obj, "", "questions", true, 1, maxQuestions)
	if err != nil {
		return nil, err
	}
	qs := make([]Question, 0, len(items))
	for i, raw := range items {
		p := index("questions", i)
		it, err := object(raw, p, p, "question", "options", "multiSelect")
		if err != nil {
			return nil, err
		}
		var q Question
		if q.Question, err = str(it, p, "question", true, maxQuestionLen); err != nil {
			return nil, err
		}
		if q.MultiSelect, err = boolean(it, p, "multiSelect"); err != nil {
			return nil, err
		}
		opts, err := array(it, p, "options", false, 0, maxOptions)
		if err != nil {
			return nil, err
		}
		for j, oraw := range opts {
			op := index(p+".options", j)
			var o Option
			var label string
			if json.Unmarshal(oraw, &label) == nil {
				if strings.TrimSpace(label) == "" || utf8.RuneCountInString(label) > maxLabelLen {
					return nil, invalid(op, "%s must be a non-empty label of at most %d characters", op, maxLabelLen)
				}
				o.Label = label
			} else {
				ob, err := object(oraw, op, op+" (a string or {label, description})", "label", "description")
				if err != nil {
					return nil, err
				}
				if o.Label, err = str(ob, op, "label", true, maxLabelLen); err != nil {
					return nil, err
				}
				if o.Description, err = str(ob, op, "description", false, maxDescLen); err != nil {
					return nil, err
				}
			}
			if slices.ContainsFunc(q.Options, func(x Option) bool { return x.Label == o.Label }) {
				return nil, invalid(op, "%s repeats the label %q; every option needs its own label", op, o.Label)
			}
			q.Options = append(q.Options, o)
		}
		if q.MultiSelect && len(q.Options) == 0 {
			return nil, invalid(p+".multiSelect", "%s.multiSelect needs options to choose from", p)
		}
		qs = append(qs, q)
	}
	return qs, nil
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

func (r *run) ask(ctx context.Context, c *prepared, m *rtCall) tools.Result {
	qs, err := ParseQuestions(c.args)
	if err != nil {
		return tools.Failure(err)
	}
	a := r.a
	pq := &pendingQuestion{ch: make(chan []Answer, 1), ev: QuestionEvent{SessionID: r.sessionID, TurnID: r.turnID, ToolCallID: c.id,
		QuestionID: a.newID(), Questions: qs, State: QuestionPending, CreatedAt: a.now().UnixMilli()}}
	a.mu.Lock()
	a.questions[pq.ev.QuestionID] = pq
	a.mu.Unlock()
	a.emit(EventQuestion, pq.ev)
	m.prompted = true
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
	m.wait = time.Since(waitStart)
	if skipped {
		answers, _ = checkAnswers(qs, nil)
		m.decision = "cancelled"
	} else {
		m.decision = "user"
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
