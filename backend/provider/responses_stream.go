package provider

import (
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3/responses"
)

// responsesReader turns Responses stream events into the provider's events
// and blocks, as the Chat Completions loop does with its deltas. Events
// name their output item; each item is one block.
type responsesReader struct {
	acc   *accumulator
	items map[string]*responsesItem // by item id
	calls []*responsesItem          // function calls, in order
}

type responsesItem struct {
	block   *Block
	args    strings.Builder // function_call: the streamed arguments
	summary int64           // reasoning: the summary part being streamed
}

func newResponsesReader(onEvent func(Event) error) *responsesReader {
	return &responsesReader{acc: newAccumulator(onEvent), items: map[string]*responsesItem{}}
}

// item returns the block of an output item, opening it (of type t) when an
// event names an item not announced before, as lenient servers do.
func (r *responsesReader) item(id string, t BlockType) *responsesItem {
	if it := r.items[id]; it != nil {
		return it
	}
	it := &responsesItem{block: &Block{Type: t}}
	if t == BlockThinking {
		it.block.ReasoningID = id
	}
	r.items[id] = it
	r.acc.add(it.block)
	return it
}

// event handles one stream event; done is true once the response ended
// (completed or incomplete). Error events are the caller's.
func (r *responsesReader) event(ev responses.ResponseStreamEventUnion) (done bool, err error) {
	acc := r.acc
	switch ev.Type {
	case "response.output_item.added":
		switch ev.Item.Type {
		case "function_call":
			return false, r.startCall(ev.Item)
		case "reasoning":
			r.item(ev.Item.ID, BlockThinking)
		case "message":
			r.item(ev.Item.ID, BlockText)
		}
	case "response.output_text.delta", "response.refusal.delta":
		// A refusal is the model's answer: shown as its text.
		return false, acc.text(r.item(ev.ItemID, BlockText).block, ev.Delta)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		it := r.item(ev.ItemID, BlockThinking)
		delta := ev.Delta
		if ev.Type == "response.reasoning_summary_text.delta" && ev.SummaryIndex != it.summary {
			it.summary = ev.SummaryIndex
			if it.block.Text != "" {
				delta = "\n\n" + delta // the next summary part
			}
		}
		return false, acc.thinking(it.block, delta)
	case "response.function_call_arguments.delta":
		it := r.items[ev.ItemID]
		if it == nil || it.block.Type != BlockToolUse || ev.Delta == "" {
			return false, nil
		}
		it.args.WriteString(ev.Delta)
		return false, acc.emit(Event{Type: EventToolUseDelta, ToolUseID: it.block.ToolUseID, Text: ev.Delta})
	case "response.function_call_arguments.done":
		if it := r.items[ev.ItemID]; it != nil && it.block.Type == BlockToolUse && ev.Arguments != "" {
			it.args.Reset()
			it.args.WriteString(ev.Arguments)
		}
	case "response.output_item.done":
		return false, r.itemDone(ev.Item)
	case "response.completed", "response.incomplete":
		u := ev.Response.Usage
		// input_tokens includes the cached ones, as on Chat Completions.
		acc.resp.Usage = Usage{InputTokens: int(u.InputTokens), OutputTokens: int(u.OutputTokens),
			CacheReadTokens: int(u.InputTokensDetails.CachedTokens)}
		acc.resp.StopReason = StopEndTurn
		if ev.Type == "response.incomplete" {
			acc.resp.StopReason = StopOther // content_filter and the rest
			if ev.Response.IncompleteDetails.Reason == "max_output_tokens" {
				acc.resp.StopReason = StopMaxTokens
			}
		} else if len(r.calls) > 0 {
			acc.resp.StopReason = StopToolUse
		}
		// Calls cut by the output limit are finished too: the caller fails
		// them with a "re-issue" result.
		return true, r.finishCalls()
	}
	return false, nil
}

func (r *responsesReader) startCall(item responses.ResponseOutputItemUnion) error {
	if it := r.items[item.ID]; it != nil {
		return nil
	}
	id := item.CallID
	if id == "" {
		id = fmt.Sprintf("call_%d", len(r.calls))
	}
	it := &responsesItem{block: &Block{Type: BlockToolUse, ToolUseID: id, ToolName: item.Name}}
	r.items[item.ID] = it
	r.calls = append(r.calls, it)
	r.acc.add(it.block)
	return r.acc.emit(Event{Type: EventToolUseStart, ToolUseID: id, ToolName: item.Name})
}

// itemDone completes an item from its final form: a call's whole
// arguments, a reasoning item's encrypted content (and its summary when no
// delta carried it).
func (r *responsesReader) itemDone(item responses.ResponseOutputItemUnion) error {
	switch item.Type {
	case "function_call":
		if err := r.startCall(item); err != nil {
			return err
		}
		it := r.items[item.ID]
		if a := item.Arguments.OfString; a != "" {
			it.args.Reset()
			it.args.WriteString(a)
		}
		return r.finishCall(it)
	case "reasoning":
		it := r.item(item.ID, BlockThinking)
		it.block.Signature = item.EncryptedContent
		if it.block.Text == "" {
			var parts []string
			for _, s := range item.Summary {
				if s.Text != "" {
					parts = append(parts, s.Text)
				}
			}
			return r.acc.thinking(it.block, strings.Join(parts, "\n\n"))
		}
	}
	return nil
}

func (r *responsesReader) finishCall(it *responsesItem) error {
	if r.acc.finished[it.block] {
		return nil
	}
	it.block.Input = toolInput(it.args.String())
	r.acc.finishTool(it.block)
	return r.acc.emit(Event{Type: EventToolUseFinish, ToolUseID: it.block.ToolUseID, ToolName: it.block.ToolName, Input: it.block.Input})
}

func (r *responsesReader) finishCalls() error {
	for _, it := range r.calls {
		if err := r.finishCall(it); err != nil {
			return err
		}
	}
	return nil
}
