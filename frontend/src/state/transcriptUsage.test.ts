import { describe, expect, it } from 'vitest';
import { agentEvent, transcript as normTranscript } from '../bridge/normalize';
import { initialTranscript, transcriptReducer, type TranscriptAction, type TranscriptState } from './transcript';

const S = 's1';
let clock = 1_000;

function ev(name: string, payload: Record<string, unknown>): TranscriptAction {
  const event = agentEvent(name, { sessionId: S, turnId: 't1', ...payload });
  if (!event) throw new Error(`unknown event ${name}`);
  clock += 100;
  return { type: 'event', event, at: clock };
}

const run = (state: TranscriptState, ...actions: TranscriptAction[]) => actions.reduce(transcriptReducer, state);
const empty = () => run(initialTranscript(S), { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] } });

// m1: text and a Read, priced, with cache figures; m2: a call and no text, no price known;
// m3: the answer, priced; m4: cut off before the provider reported any usage.
const u1 = { inputTokens: 3200, outputTokens: 41, cacheReadTokens: 2800, cacheWriteTokens: 350 };
const u2 = { inputTokens: 4100, outputTokens: 12, cacheReadTokens: 3150, cacheWriteTokens: 0 };
const u3 = { inputTokens: 5000, outputTokens: 90, cacheReadTokens: 4100, cacheWriteTokens: 800 };
const ended = (messageId: string, state: string, extra: Record<string, unknown> = {}) =>
  ev('agent:message', { messageId, role: 'assistant', kind: 'model', state, ...extra });
const call = (messageId: string, id: string, phase: string) =>
  ev('agent:tool_call', { messageId, toolCallId: id, toolUseId: `u-${id}`, tool: 'Read', phase, args: { path: 'a.go' } });
const result = (messageId: string, id: string) =>
  ev('agent:tool_result', { messageId, toolCallId: id, toolUseId: `u-${id}`, tool: 'Read', state: 'done', result: { ok: true }, modelText: 'x' });

function live(): TranscriptState {
  return run(
    empty(),
    { type: 'promptSubmitted', text: 'Why?' },
    ev('agent:turn', { state: 'running' }),
    ev('agent:message', { messageId: 'p1', role: 'user', kind: 'prompt', state: 'end_turn' }),
    ended('m1', 'streaming'),
    ev('agent:text', { messageId: 'm1', delta: 'Let me read it.' }),
    call('m1', 'c1', 'ready'),
    ended('m1', 'tool_use', { usage: u1, costUsd: 0.0042 }),
    call('m1', 'c1', 'running'),
    result('m1', 'c1'),
    ended('m2', 'streaming'),
    call('m2', 'c2', 'ready'),
    ended('m2', 'tool_use', { usage: u2 }),
    call('m2', 'c2', 'running'),
    result('m2', 'c2'),
    ended('m3', 'streaming'),
    ev('agent:text', { messageId: 'm3', delta: 'It checks the token first.' }),
    ended('m3', 'end_turn', { usage: u3, costUsd: 0.0000312 }),
    ended('m4', 'streaming'),
    ev('agent:text', { messageId: 'm4', delta: 'And' }),
    ended('m4', 'aborted'),
    ev('agent:turn', { state: 'done' }),
  );
}

function stored(): TranscriptState {
  const rec = (seq: number, id: string, content: unknown[], stopReason: string, extra: Record<string, unknown> = {}) => ({
    seq, id, sessionId: S, turnId: 't1', role: 'assistant', kind: 'model', content, stopReason, ...extra,
  });
  const callRec = (messageId: string, id: string) => ({
    id, turnId: 't1', messageId, toolUseId: `u-${id}`, tool: 'Read', args: { path: 'a.go' }, state: 'done', result: { ok: true }, modelText: 'x',
  });
  const toolUse = (id: string) => ({ type: 'tool_use', toolUseId: `u-${id}`, toolName: 'Read', input: { path: 'a.go' } });
  const t = normTranscript({
    sessionId: S,
    turns: [{ id: 't1', sessionId: S, prompt: 'Why?', state: 'done', createdAt: 1 }],
    messages: [
      { seq: 1, id: 'p1', sessionId: S, turnId: 't1', role: 'user', kind: 'prompt', content: [{ type: 'text', text: 'Why?' }], stopReason: 'end_turn', usage: {} },
      rec(2, 'm1', [{ type: 'text', text: 'Let me read it.' }, toolUse('c1')], 'tool_use', { toolCalls: [callRec('m1', 'c1')], usage: u1, costUsd: 0.0042 }),
      rec(3, 'm2', [toolUse('c2')], 'tool_use', { toolCalls: [callRec('m2', 'c2')], usage: u2 }),
      rec(4, 'm3', [{ type: 'text', text: 'It checks the token first.' }], 'end_turn', { usage: u3, costUsd: 0.0000312 }),
      rec(5, 'm4', [{ type: 'text', text: 'And' }], 'aborted', { usage: { inputTokens: 0, outputTokens: 0 } }),
    ],
  });
  return run(initialTranscript(S), { type: 'loaded', transcript: t });
}

/** Where each message's usage landed: the item kind and message it sits on. */
const placed = (st: TranscriptState) =>
  st.items.flatMap((it) => ('usage' in it && it.usage ? [{ kind: it.kind, messageId: it.messageId, usage: it.usage }] : []));

describe('transcriptReducer: usage of each model response', () => {
  it('puts each response on its last text, else its last call, and leaves one without figures bare', () => {
    expect(placed(live())).toEqual([
      { kind: 'text', messageId: 'm1', usage: { usage: u1, costUsd: 0.0042 } },
      { kind: 'tool', messageId: 'm2', usage: { usage: u2, costUsd: null } },
      { kind: 'text', messageId: 'm3', usage: { usage: u3, costUsd: 0.0000312 } },
    ]);
  });

  it('a reload of the stored transcript shows what the live events showed', () => {
    expect(placed(stored())).toEqual(placed(live()));
    // And a reload over the live view (the turn ended) keeps the same figures.
    const reloaded = run(live(), { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] }, reload: true });
    expect(placed(reloaded)).toEqual(placed(live()));
  });

  it('a response still streaming carries no usage yet', () => {
    const st = run(empty(), ev('agent:turn', { state: 'running' }), ended('m1', 'streaming'), ev('agent:text', { messageId: 'm1', delta: 'Hel' }));
    expect(placed(st)).toEqual([]);
  });
});
