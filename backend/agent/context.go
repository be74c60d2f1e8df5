package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// Context returns the messages the next model request starts from: the
// latest checkpoint (if any) followed by every later message, with each
// assistant message's tool results as the user message after it, in source
// order. Partial output of a stopped or interrupted response is kept as
// text; a broken stream that was retried is left out; a turn that did not
// finish is followed by a short note, so the model knows.
func (t Transcript) Context() []provider.Message { return t.contextWithout(t.resentTurns(nil)) }

// contextWithout is Context leaving out the turns in skip: those
// resentTurns names. A turn that did not finish and left the model nothing
// to read (its first request failed, or it was stopped before any output)
// is left out, failure note included, when the prompt after it is the same
// one sent again (Retry, or the user sending it again): the model reads the
// prompt once, and the rule holds for every later request too, so the
// prefix stays the same from the retry on.
func (t Transcript) contextWithout(skip map[string]bool) []provider.Message {
	var out []provider.Message
	var upto int64
	if t.Checkpoint != nil {
		out = append(out, t.Checkpoint.Messages...)
		upto = t.Checkpoint.UptoSeq
	}
	states := map[string]Turn{}
	for _, tu := range t.Turns {
		states[tu.ID] = tu
	}
	lastTurn := ""
	flushNote := func(next string) {
		if lastTurn == "" || lastTurn == next {
			return
		}
		if note := turnNote(states[lastTurn]); note != "" {
			out = appendMessage(out, userText(note))
		}
	}
	for _, m := range t.Messages {
		if m.Seq <= upto || m.Kind == KindSummary || skip[m.TurnID] {
			continue
		}
		flushNote(m.TurnID)
		lastTurn = m.TurnID
		switch m.Kind {
		case KindPrompt:
			out = appendMessage(out, promptMessage(m.Content))
		case KindModel:
			am, results := modelContext(m)
			if len(am.Content) > 0 {
				out = appendMessage(out, am)
			}
			if len(results.Content) > 0 {
				out = appendMessage(out, results)
			}
		}
	}
	flushNote("")
	return out
}

// resentTurns are the turns the context leaves out: unfinished, with
// nothing for the model, and followed by the same prompt (the next stored
// turn's, or next after the last turn).
func (t Transcript) resentTurns(next []provider.Block) map[string]bool {
	type turnView struct {
		id     string
		prompt []provider.Block
		empty  bool
	}
	var order []*turnView
	byID := map[string]*turnView{}
	for _, m := range t.Messages {
		v := byID[m.TurnID]
		if v == nil {
			v = &turnView{id: m.TurnID, empty: true}
			byID[m.TurnID] = v
			order = append(order, v)
		}
		switch m.Kind {
		case KindPrompt:
			v.prompt = m.Content
		case KindModel:
			if am, res := modelContext(m); len(am.Content)+len(res.Content) > 0 {
				v.empty = false
			}
		default:
			v.empty = false
		}
	}
	unfinished := map[string]bool{}
	for _, tu := range t.Turns {
		unfinished[tu.ID] = tu.State == TurnFailed || tu.State == TurnAborted || tu.State == TurnInterrupted
	}
	var out map[string]bool
	for i, v := range order {
		after := next
		if i+1 < len(order) {
			after = order[i+1].prompt
		}
		if unfinished[v.id] && v.empty && v.prompt != nil && after != nil && samePrompt(v.prompt, after) {
			if out == nil {
				out = map[string]bool{}
			}
			out[v.id] = true
		}
	}
	return out
}

// samePrompt compares two prompts as stored: text and attachments.
func samePrompt(a, b []provider.Block) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// modelContext is an assistant message as the model sees it again, and the
// tool results that answered it.
func modelContext(m Message) (provider.Message, provider.Message) {
	am := provider.Message{Role: provider.RoleAssistant}
	res := provider.Message{Role: provider.RoleUser}
	if m.StopReason == stopFailed {
		return am, res
	}
	complete := m.StopReason != stopStreaming && m.StopReason != stopAborted && m.StopReason != stopInterrupted
	calls := map[string]ToolCallRecord{}
	for _, c := range m.ToolCalls {
		if _, dup := calls[c.ToolUseID]; !dup {
			calls[c.ToolUseID] = c
		}
	}
	for _, b := range m.Content {
		switch b.Type {
		case provider.BlockText:
			if b.Text != "" {
				am.Content = append(am.Content, b)
			}
		case provider.BlockToolUse:
			c, ok := calls[b.ToolUseID]
			if !complete && !ok {
				continue // cut mid-stream: it never ran and has no result
			}
			am.Content = append(am.Content, b)
			text, isErr := interruptedPendingText, true
			var images []tools.ImageRef
			if ok && c.State != CallPending && c.State != CallRunning {
				text, isErr, images = c.ModelText, c.IsError, c.images
			} else if ok && c.State == CallRunning {
				text = interruptedRunningText
			}
			res.Content = append(res.Content, toolResult(b.ToolUseID, text, isErr, images))
		default: // thinking: only a finished response's, with its signature
			if complete {
				am.Content = append(am.Content, b)
			}
		}
	}
	return am, res
}

func turnNote(t Turn) string {
	switch t.State {
	case TurnAborted:
		return "[The user stopped the previous turn before it finished.]"
	case TurnInterrupted:
		return "[The previous turn was interrupted: PI-Desktop stopped before it finished.]"
	case TurnFailed:
		return fmt.Sprintf("[The previous turn ended with an error: %s %s]", t.ErrorCode, t.ErrorMessage)
	}
	return ""
}

func userText(s string) provider.Message {
	return provider.Message{Role: provider.RoleUser, Content: []provider.Block{{Type: provider.BlockText, Text: s}}}
}

// toolResult is a call's result block; its images stay references until
// a request is built (withImages).
func toolResult(toolUseID, text string, isErr bool, images []tools.ImageRef) provider.Block {
	if text == "" {
		text = "(no output)"
	}
	return provider.Block{Type: provider.BlockToolResult, ToolUseID: toolUseID, Text: text, IsError: isErr, ImageRefs: providerRefs(images)}
}

// appendMessage appends m, merging it into the last message when both have
// the same role (both wire protocols want alternating turns; tool results
// stay first in a user message).
func appendMessage(msgs []provider.Message, m provider.Message) []provider.Message {
	if n := len(msgs); n > 0 && msgs[n-1].Role == m.Role {
		last := msgs[n-1]
		merged := make([]provider.Block, 0, len(last.Content)+len(m.Content))
		merged = append(append(merged, last.Content...), m.Content...)
		msgs[n-1] = provider.Message{Role: m.Role, Content: merged}
		return msgs
	}
	return append(msgs, m)
}

// ModelText is the tool result the model reads for res: the content, any
// notice, and on failure the code and message. A user's denial says so
// explicitly (spec §8).
func ModelText(tool string, res tools.Result) (string, bool) {
	var b strings.Builder
	if !res.OK {
		if res.Code == errs.ToolDenied && res.Decision == "denied" {
			fmt.Fprintf(&b, "user denied permission: the user did not allow this %s call, so it did not run. Do not retry it; continue without it or ask the user how to proceed.", tool)
		} else {
			fmt.Fprintf(&b, "Error %s: %s", cmp(res.Code, errs.ToolFailed), res.Message)
			if len(res.Details) > 0 {
				if d, err := json.Marshal(res.Details); err == nil {
					b.WriteString("\ndetails: " + string(d))
				}
			}
		}
	}
	if res.Content != "" {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(res.Content)
	}
	if res.OK && res.Content == "" {
		// A tool without text (none today): its structured fields.
		plain := res
		plain.TraceID, plain.Decision, plain.Approval = "", "", nil
		if d, err := json.Marshal(plain); err == nil {
			b.Write(d)
		}
	}
	if res.Notice != "" {
		b.WriteString("\n\n[notice: " + res.Notice + "]")
	}
	return b.String(), !res.OK
}

func cmp(c, def errs.Code) errs.Code {
	if c == "" {
		return def
	}
	return c
}

// guardTerminates reports whether res ends the turn after its batch: the
// edit loop guard's terminating result, or the host refusing a mutation
// because the prompt's budget is used up.
func guardTerminates(res tools.Result) bool {
	if res.Code == errs.MutationRetryBudgetExhausted {
		return true
	}
	switch g := res.Fields["guard"].(type) {
	case hashline.GuardState:
		return g.Terminate
	case *hashline.GuardState:
		return g != nil && g.Terminate
	case map[string]any:
		t, _ := g["terminate"].(bool)
		return t
	}
	return false
}
