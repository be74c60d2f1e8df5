package agent

import (
	"context"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// streamRecorder follows one model response as it streams: it inserts the
// assistant message at the first event, shows every delta and tool call to
// the UI, and writes the blocks so far at most every flushEvery (and at
// each finished tool call), so a crash loses little of the stream.
type streamRecorder struct {
	r         *run
	msgID     string
	blocks    []provider.Block
	inserted  bool
	lastFlush time.Time
	err       error             // the first failed transcript write
	callIDs   map[string]string // tool_use id → tool call id shown to the UI
	names     map[string]string // tool_use id → tool name
}

func newStreamRecorder(r *run, msgID string) *streamRecorder {
	return &streamRecorder{r: r, msgID: msgID, callIDs: map[string]string{}, names: map[string]string{}}
}

// insert stores the (empty) message once and announces it.
func (s *streamRecorder) insert(ctx context.Context) {
	if s.inserted {
		return
	}
	s.inserted = true
	r, a := s.r, s.r.a
	seq, err := a.st.insertMessage(ctx, Message{ID: s.msgID, SessionID: r.sessionID, TurnID: r.turnID, Role: provider.RoleAssistant,
		Kind: KindModel, CreatedAt: a.now().UnixMilli()})
	if err != nil {
		s.err = err
		return
	}
	r.lastSeq = seq
	s.lastFlush = time.Now()
	r.emit(EventMessage, MessageEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: s.msgID, Role: provider.RoleAssistant, Kind: KindModel, State: "streaming"})
}

// flush writes the blocks so far, when forced or flushEvery has passed.
func (s *streamRecorder) flush(ctx context.Context, force bool) {
	if s.err != nil || (!force && time.Since(s.lastFlush) < s.r.a.flushEvery) {
		return
	}
	s.lastFlush = time.Now()
	s.err = s.r.a.st.updateMessage(ctx, s.msgID, s.blocks, stopStreaming, provider.Usage{}, pricing{})
}

// appendDelta extends the last block of type t, or starts one.
func (s *streamRecorder) appendDelta(t provider.BlockType, text string) {
	if n := len(s.blocks); n > 0 && s.blocks[n-1].Type == t {
		s.blocks[n-1].Text += text
		return
	}
	s.blocks = append(s.blocks, provider.Block{Type: t, Text: text})
}

// event records one streamed event; an error stops the stream (a
// transcript we cannot write is not worth streaming).
func (s *streamRecorder) event(ctx context.Context, ev provider.Event) error {
	s.insert(ctx)
	if s.err != nil {
		return s.err
	}
	r, a := s.r, s.r.a
	switch ev.Type {
	case provider.EventText:
		s.appendDelta(provider.BlockText, ev.Text)
		r.emit(EventText, DeltaEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: s.msgID, Delta: ev.Text})
	case provider.EventThinking:
		s.appendDelta(provider.BlockThinking, ev.Text)
		r.emit(EventThinking, DeltaEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: s.msgID, Delta: ev.Text})
	case provider.EventToolUseStart:
		if _, dup := s.callIDs[ev.ToolUseID]; !dup {
			s.callIDs[ev.ToolUseID], s.names[ev.ToolUseID] = a.newID(), ev.ToolName
		}
		r.emit(EventToolCall, ToolCallEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: s.msgID, ToolCallID: s.callIDs[ev.ToolUseID],
			ToolUseID: ev.ToolUseID, Tool: ev.ToolName, Phase: PhaseStreaming, MCP: r.origin(ev.ToolName)})
	case provider.EventToolUseDelta:
		r.emit(EventToolCall, ToolCallEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: s.msgID, ToolCallID: s.callIDs[ev.ToolUseID],
			ToolUseID: ev.ToolUseID, Tool: s.names[ev.ToolUseID], Phase: PhaseStreaming, ArgsDelta: ev.Text, MCP: r.origin(s.names[ev.ToolUseID])})
	case provider.EventToolUseFinish:
		if _, ok := s.callIDs[ev.ToolUseID]; !ok {
			s.callIDs[ev.ToolUseID] = a.newID()
		}
		s.blocks = append(s.blocks, provider.Block{Type: provider.BlockToolUse, ToolUseID: ev.ToolUseID, ToolName: ev.ToolName, Input: ev.Input})
		r.emit(EventToolCall, ToolCallEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: s.msgID, ToolCallID: s.callIDs[ev.ToolUseID],
			ToolUseID: ev.ToolUseID, Tool: ev.ToolName, Phase: PhaseReady, Args: ev.Input, MCP: r.origin(ev.ToolName)})
		s.flush(ctx, true)
		return s.err
	}
	s.flush(ctx, false)
	return s.err
}

// streamOnce makes one model request, streaming to the UI and persisting
// the response as it arrives.
func (r *run) streamOnce(ctx context.Context) (provider.Response, string, error) {
	a := r.a
	dbctx := context.WithoutCancel(ctx)
	msgID := a.newID()
	r.calls++
	rec := newStreamRecorder(r, msgID)
	loader, _ := a.host.(ImageLoader)
	req := provider.Request{System: r.system, Messages: withImages(ctx, r.msgs, r.model.SupportsImages, loader), Tools: r.tools,
		CacheKey: r.cacheKey()}
	resp, err := r.prov.Stream(ctx, req, func(ev provider.Event) error { return rec.event(dbctx, ev) })
	if err == nil && rec.err != nil {
		err = rec.err
	}
	if err == nil && emptyResponse(resp.Message) {
		err = errs.New(errs.EmptyModelResponse, "the model returned no text and no tool calls; send the prompt again or try another model")
	}
	if err != nil {
		if ctx.Err() != nil && !errs.Is(err, errs.StorageUnavailable) {
			err = errs.Wrap(err, errs.TurnAborted, "the turn was stopped")
		}
		if t := textOf(provider.Message{Content: rec.blocks}); t != "" && r.delegation != nil {
			r.lastText = t // a delegate's partial report
		}
		if rec.inserted {
			stop := stopFailed
			if ctx.Err() != nil {
				stop = stopAborted
			}
			_ = a.st.updateMessage(dbctx, msgID, rec.blocks, stop, provider.Usage{}, pricing{})
			r.emit(EventMessage, MessageEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: msgID, Role: provider.RoleAssistant, Kind: KindModel, State: stop})
		}
		return resp, msgID, err
	}
	// The assembled response is authoritative (thinking signatures); the
	// call ids given to the UI while streaming are kept.
	resp.Message.Role = provider.RoleAssistant
	rec.insert(dbctx)
	if rec.err != nil {
		return resp, msgID, rec.err
	}
	priced := r.price(resp.Usage)
	if err := a.st.updateMessage(dbctx, msgID, resp.Message.Content, string(resp.StopReason), resp.Usage, priced); err != nil {
		return resp, msgID, err
	}
	r.callIDs = rec.callIDs
	r.usage = r.usage.Plus(resp.Usage)
	r.stopReason = resp.StopReason
	if t := textOf(resp.Message); t != "" {
		r.lastText = t
		r.keepPartialReport(dbctx, t)
	}
	r.emit(EventMessage, MessageEvent{SessionID: r.sessionID, TurnID: r.turnID, MessageID: msgID, Role: provider.RoleAssistant, Kind: KindModel,
		State: string(resp.StopReason), Usage: resp.Usage, CostUSD: priced.usd()})
	return resp, msgID, nil
}

// cacheKey names the conversation whose cached prompt a request continues:
// the session, or a delegate's own run (its prompt differs).
func (r *run) cacheKey() string {
	if r.delegation != nil {
		return r.delegation.id
	}
	return r.sessionID
}
