package provider

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// accumulator assembles the response and forwards events in order.
type accumulator struct {
	onEvent  func(Event) error
	blocks   []*Block
	finished map[*Block]bool // tool_use blocks whose input is complete
	resp     Response
}

func newAccumulator(onEvent func(Event) error) *accumulator {
	if onEvent == nil {
		onEvent = func(Event) error { return nil }
	}
	return &accumulator{onEvent: onEvent, finished: map[*Block]bool{}}
}

// callerError marks an error returned by onEvent: it is returned unchanged.
type callerError struct{ err error }

func (e callerError) Error() string { return e.err.Error() }
func (e callerError) Unwrap() error { return e.err }

// callerResult returns an error from onEvent unchanged.
func callerResult(r Response, err error) (Response, error) {
	var ce callerError
	if errors.As(err, &ce) {
		return r, ce.err
	}
	return r, err
}

func (a *accumulator) emit(ev Event) error {
	if err := a.onEvent(ev); err != nil {
		return callerError{err}
	}
	return nil
}

func (a *accumulator) add(b *Block) { a.blocks = append(a.blocks, b) }

func (a *accumulator) finishTool(b *Block) { a.finished[b] = true }

func (a *accumulator) text(b *Block, delta string) error {
	if delta == "" {
		return nil
	}
	b.Text += delta
	return a.emit(Event{Type: EventText, Text: delta})
}

func (a *accumulator) thinking(b *Block, delta string) error {
	if delta == "" {
		return nil
	}
	b.Text += delta
	return a.emit(Event{Type: EventThinking, Text: delta})
}

// message is the assistant message so far: every text and thinking block,
// and the tool calls whose input is complete.
func (a *accumulator) message() Message {
	m := Message{Role: RoleAssistant, Content: []Block{}}
	for _, b := range a.blocks {
		switch b.Type {
		case BlockToolUse:
			if !a.finished[b] {
				continue
			}
		case BlockText, BlockThinking:
			if b.Text == "" && b.Signature == "" {
				continue
			}
		}
		m.Content = append(m.Content, *b)
	}
	return m
}

// partial is what a failed or stopped stream returns next to its error.
func (a *accumulator) partial() Response {
	r := a.resp
	r.Message = a.message()
	return r
}

func (a *accumulator) finish() (Response, error) {
	r := a.partial()
	if r.StopReason == "" {
		r.StopReason = StopEndTurn
	}
	empty := true
	for _, b := range r.Message.Content {
		if b.Type == BlockToolUse || (b.Type == BlockText && strings.TrimSpace(b.Text) != "") {
			empty = false
			break
		}
	}
	if empty {
		e := errs.New(errs.EmptyModelResponse, "The model returned no text and no tool calls (stop reason %s). Send the message again; if it keeps happening, try another model.", r.StopReason)
		return r, e.With("stopReason", string(r.StopReason))
	}
	return r, nil
}

// toolInput turns the streamed argument text into the block's input: valid
// JSON as is, nothing as {}, and anything else as a JSON string, so the
// tool's schema check reports it to the model instead of failing the turn.
func toolInput(raw string) json.RawMessage {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return json.RawMessage(`{}`)
	}
	if json.Valid([]byte(raw)) {
		return json.RawMessage(raw)
	}
	enc, _ := json.Marshal(raw)
	return enc
}
