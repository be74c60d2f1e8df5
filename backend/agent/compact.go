package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// The context budget. Tokens are estimated at four characters each, lifted
// by what the provider last reported; when the next request would exceed
// the model's window minus its output allowance, the context is compacted
// at the request boundary into a checkpoint: the user's messages (newest
// kept whole, the oldest clipped with a marker), a summary written by the
// model in a dedicated call without tools, and, mid-turn, a note to go on.
const (
	charsPerToken = 4
	// retainShare is the part of the budget the retained user messages may
	// take (1/retainShare).
	retainShare = 5
	// summary input: per-block clips of the rendered conversation.
	clipToolResult = 2000
	clipToolInput  = 1000
)

const summarySystem = "You summarize a coding-agent session so the work can continue in a fresh context window. " +
	"Do not call tools. Write a concise but complete summary in Markdown with these sections: " +
	"Goal (what the user asked for, with constraints and preferences), Progress (what was done: files read and changed with their paths, " +
	"commands run and their outcomes, decisions and why), Errors (what failed and how it was resolved or not), " +
	"Current state, and Next steps. Keep exact paths, identifiers and error codes."

// promptsSince are the user's messages the next checkpoint builds on: the
// last checkpoint's retained ones, then every later prompt but those of the
// turns in skip (a resent one counts once, as in the context).
func promptsSince(t Transcript, skip map[string]bool) []string {
	var out []string
	var upto int64
	if t.Checkpoint != nil {
		out = append(out, t.Checkpoint.Retained...)
		upto = t.Checkpoint.UptoSeq
	}
	for _, m := range t.Messages {
		if m.Seq > upto && m.Kind == KindPrompt && !skip[m.TurnID] {
			out = append(out, textOf(provider.Message{Content: m.Content}))
		}
	}
	return out
}

func (r *run) budget() int {
	if r.model.ContextWindow <= 0 {
		return 0
	}
	return max(r.model.ContextWindow-r.model.MaxOutputTokens, 1)
}

func (r *run) contextChars(msgs []provider.Message) int {
	n := len(r.system)
	for _, t := range r.tools {
		n += len(t.Name) + len(t.Description) + len(t.Schema)
	}
	images := imageBudget(msgs, r.model.SupportsImages)
	for i, m := range msgs {
		for j, b := range m.Content {
			n += len(b.Text) + len(b.Input) + len(b.Signature) + len(b.ToolName) + 16 + imageChars(b, r.model.SupportsImages, images[[2]int{i, j}])
		}
	}
	return n
}

// estimate is the token count of the next request.
func (r *run) estimate() int {
	chars := r.contextChars(r.msgs)
	est := chars / charsPerToken
	if r.reported > 0 {
		est = max(est, r.reported+(chars-r.reportedAt)/charsPerToken)
	}
	return est
}

// noteUsage records the provider's count after a response was appended.
func (r *run) noteUsage(u provider.Usage) {
	if u.InputTokens > 0 {
		r.reported = u.InputTokens + u.OutputTokens
		r.reportedAt = r.contextChars(r.msgs)
	}
}

// canCompact reports whether a checkpoint would drop anything: at the
// start of a turn there must be history before the prompt.
func (r *run) canCompact() bool {
	if r.delegation != nil {
		return false // checkpoints belong to the session's conversation
	}
	return !r.firstCall || len(r.historyBeforePrompt()) > 0
}

// historyBeforePrompt is the context without this turn's prompt (which
// may have been merged into the last user message).
func (r *run) historyBeforePrompt() []provider.Message {
	n := len(r.msgs)
	if n == 0 {
		return nil
	}
	h := append([]provider.Message(nil), r.msgs[:n-1]...)
	last := r.msgs[n-1]
	if k := len(last.Content); k > 0 && last.Role == provider.RoleUser {
		if rest := last.Content[:k-1]; len(rest) > 0 {
			h = append(h, provider.Message{Role: last.Role, Content: rest})
		}
	}
	return h
}

// maybeCompact compacts when the next request would not fit, or when it
// was asked for (new_context).
func (r *run) maybeCompact(ctx context.Context) error {
	asked := r.delegation == nil && r.a.takeCompactionRequest(r.sessionID)
	b := r.budget()
	over := b > 0 && r.estimate() > b
	if !over && !asked {
		return nil
	}
	if !r.canCompact() {
		if over {
			return errs.New(errs.ContextTooLarge, "the prompt alone (about %d tokens) does not fit the model's context window of %d tokens with %d reserved for output; shorten it or choose a model with a larger window",
				r.estimate(), r.model.ContextWindow, r.model.MaxOutputTokens)
		}
		return nil
	}
	if err := r.compact(ctx); err != nil {
		return err
	}
	if b > 0 && r.estimate() > b {
		return errs.New(errs.ContextTooLarge, "even after compacting, the context (about %d tokens) does not fit the model's window of %d tokens with %d reserved for output; shorten the prompt or choose a model with a larger window",
			r.estimate(), r.model.ContextWindow, r.model.MaxOutputTokens)
	}
	return nil
}

// compact asks the model for a summary, stores the checkpoint and swaps the
// context for it.
func (r *run) compact(ctx context.Context) error {
	a := r.a
	before := r.estimate()
	a.emit(EventContext, ContextEvent{SessionID: r.sessionID, TurnID: r.turnID, State: "compacting", TokensBefore: before})
	fail := func(err error) error {
		a.emit(EventContext, ContextEvent{SessionID: r.sessionID, TurnID: r.turnID, State: "failed", TokensBefore: before, Code: errs.CodeOf(err)})
		return err
	}
	// At the start of a turn the prompt stays live after the checkpoint;
	// mid-turn everything so far is summarized.
	history, live, upto := r.msgs, []provider.Message(nil), r.lastSeq
	if r.firstCall {
		history, live, upto = r.historyBeforePrompt(), []provider.Message{promptMessage(promptContent(r.prompt, r.attachments))}, r.promptSeq-1
	}
	inBudget := r.model.ContextWindow - r.model.MaxOutputTokens - len(summarySystem)/charsPerToken - 500
	if r.model.ContextWindow <= 0 {
		inBudget = 100_000
	}
	// Characters per token vary; render with a safety margin.
	transcript := renderForSummary(history, max(inBudget, 1000)*3)
	req := provider.Request{System: summarySystem, Messages: []provider.Message{userText(
		"Summarize this conversation between a user and a coding agent so the agent can continue from the summary alone.\n\n<conversation>\n" +
			transcript + "\n</conversation>")}}
	var summary string
	var used provider.Usage
	for attempt := 0; attempt < 2; attempt++ {
		r.calls++
		resp, err := r.prov.Stream(ctx, req, func(provider.Event) error { return nil })
		if err == nil {
			if summary = strings.TrimSpace(textOf(resp.Message)); summary == "" {
				err = errs.New(errs.EmptyModelResponse, "the model returned an empty summary while compacting the context; send the prompt again")
			} else {
				r.usage = r.usage.Plus(resp.Usage)
				used = resp.Usage
				break
			}
		}
		if ctx.Err() != nil {
			return fail(errs.Wrap(err, errs.TurnAborted, "the turn was stopped while compacting"))
		}
		if c := errs.CodeOf(err); attempt == 1 || (c != errs.StreamFailed && c != errs.EmptyModelResponse) {
			p := errs.ToPayload(err)
			return fail(errs.Wrap(err, p.Code, "compacting the context failed: %s", p.Message))
		}
	}

	earlier := r.prompts
	if live != nil && len(earlier) > 0 {
		earlier = earlier[:len(earlier)-1] // this turn's prompt stays live
	}
	retained := retainPrompts(earlier, r.budget()*charsPerToken/retainShare)
	cpMsgs := []provider.Message{userText(retainedText(retained))}
	cpMsgs = append(cpMsgs, provider.Message{Role: provider.RoleAssistant, Content: []provider.Block{{Type: provider.BlockText,
		Text: "Summary of the conversation so far:\n\n" + summary}}})
	if live == nil {
		cpMsgs = append(cpMsgs, userText("[Context checkpoint: the conversation above was summarized to fit the context window. "+
			"Continue the current request from where the summary leaves off. Earlier tool results are no longer shown; Read a file again if you need its content or tag.]"))
	}
	dbctx := context.WithoutCancel(ctx)
	now := a.now().UnixMilli()
	sumID := a.newID()
	cp := Checkpoint{ID: a.newID(), TurnID: r.turnID, UptoSeq: upto, Messages: cpMsgs, Summary: summary, Retained: retained,
		TokensBefore: before, CreatedAt: now}
	seq, err := a.st.insertMessage(dbctx, Message{ID: sumID, SessionID: r.sessionID, TurnID: r.turnID, Role: provider.RoleAssistant,
		Kind: KindSummary, Content: []provider.Block{{Type: provider.BlockText, Text: summary}}, StopReason: string(provider.StopEndTurn), CreatedAt: now,
		Usage: used, priced: r.price(used)}) // the summary's call is paid for like any other
	if err != nil {
		return fail(err)
	}
	r.lastSeq = seq
	if err := a.st.insertCheckpoint(dbctx, r.sessionID, cp); err != nil {
		return fail(err)
	}
	msgs := append([]provider.Message(nil), cpMsgs...)
	for _, m := range live {
		msgs = appendMessage(msgs, m)
	}
	r.msgs, r.prompts, r.reported = msgs, retained, 0
	// The results that carried path instructions are summarized away: the
	// next call under those folders loads them again.
	r.instr = pathInstructions{}
	if live != nil {
		r.prompts = append(slices.Clone(retained), r.prompt)
	}
	a.emit(EventMessage, MessageEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: sumID, Role: provider.RoleAssistant, Kind: KindSummary, State: string(provider.StopEndTurn)})
	a.emit(EventContext, ContextEvent{SessionID: r.sessionID, TurnID: r.turnID, State: "done", CheckpointID: cp.ID, TokensBefore: before, TokensAfter: r.estimate()})
	return nil
}

// retainPrompts keeps the newest user messages within limit characters;
// the oldest one kept may be clipped, and a marker counts those left out.
func retainPrompts(prompts []string, limit int) []string {
	limit = max(limit, 2000)
	var kept []string
	used := 0
	for i := len(prompts) - 1; i >= 0; i-- {
		p := prompts[i]
		if used+len(p) <= limit {
			kept = append(kept, p)
			used += len(p)
			continue
		}
		omitted := i
		if room := limit - used; room > 200 {
			cut := truncate.Bytes(p, room)
			kept = append(kept, fmt.Sprintf("%s\n[clipped: only the first %d of %d characters of this message are kept]", cut, len(cut), len(p)))
		} else {
			omitted = i + 1
		}
		if omitted > 0 {
			kept = append(kept, fmt.Sprintf("[clipped: %d earlier messages omitted]", omitted))
		}
		break
	}
	slices.Reverse(kept)
	return kept
}

func retainedText(retained []string) string {
	var b strings.Builder
	b.WriteString("[Context checkpoint] The conversation was summarized to fit the model's context window. The user's messages so far, oldest first:\n")
	for _, p := range retained {
		b.WriteString("\n<user-message>\n" + p + "\n</user-message>\n")
	}
	return b.String()
}

// renderForSummary writes the conversation as text for the summary call
// (the history has tool blocks, which a request without tools may not
// carry), clipping long tool traffic and, past limit, the middle.
func renderForSummary(msgs []provider.Message, limit int) string {
	var b strings.Builder
	for _, m := range msgs {
		for _, blk := range m.Content {
			switch blk.Type {
			case provider.BlockText:
				fmt.Fprintf(&b, "[%s]\n%s\n\n", m.Role, blk.Text)
			case provider.BlockToolUse:
				fmt.Fprintf(&b, "[assistant called %s]\n%s\n\n", blk.ToolName, clip(compactJSON(blk.Input), clipToolInput))
			case provider.BlockToolResult:
				label := "result"
				if blk.IsError {
					label = "error"
				}
				fmt.Fprintf(&b, "[tool %s]\n%s\n", label, clip(blk.Text, clipToolResult))
				// The summary keeps the text; an image's bytes do not survive it.
				for _, ref := range blk.ImageRefs {
					fmt.Fprintf(&b, "[with an image %s %d×%d, not kept after this summary]\n", ref.MediaType, ref.Width, ref.Height)
				}
				b.WriteString("\n")
			}
		}
	}
	s := b.String()
	if len(s) <= limit {
		return s
	}
	head := truncate.Bytes(s, limit/5)
	tailStart := len(s) - len(truncate.Tail(s, limit-len(head)))
	return head + fmt.Sprintf("\n[… %d characters of the middle of the conversation omitted …]\n", tailStart-len(head)) + s[tailStart:]
}

func compactJSON(raw json.RawMessage) string {
	return strings.TrimSpace(string(raw))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := truncate.Bytes(s, n)
	return cut + fmt.Sprintf(" [… %d more characters]", len(s)-len(cut))
}
