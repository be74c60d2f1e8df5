import { describe, expect, it } from 'vitest';
import { agentEvent, delegation, delegationPage, permissionEvent } from '../bridge/normalize';
import { delegateElapsed, delegateReport, delegatesByCall, sessionTranscriptReducer } from './delegates';
import { initialTranscript, pendingApprovalCount, type ToolItem, type TranscriptAction, type TranscriptState } from './transcript';

const S = 's1';
let clock = 1_000;

function ev(name: string, payload: Record<string, unknown>): TranscriptAction {
  const event = name.startsWith('permission:') ? permissionEvent(name, payload) : agentEvent(name, payload);
  if (!event) throw new Error(`unknown event ${name}`);
  clock += 100;
  return { type: 'event', event, at: clock };
}

function run(state: TranscriptState, ...actions: TranscriptAction[]): TranscriptState {
  return actions.reduce(sessionTranscriptReducer, state);
}

function ready(): TranscriptState {
  return run(initialTranscript(S), { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] } });
}

const parentTurn = (state: string) => ev('agent:turn', { sessionId: S, turnId: 't1', state });
const started = (n: number, extra: Record<string, unknown> = {}) =>
  ev('agent:delegation', {
    sessionId: S, delegationId: `d${n}`, parentTurnId: 't1', parentToolCallId: `tc${n}`, turnId: `dt${n}`, subagent: `sub${n}`,
    description: `job ${n}`, state: 'running', elapsedMs: 0, toolCount: 0, ...extra,
  });
/** An event of delegate dN's own run. */
const own = (n: number, name: string, payload: Record<string, unknown>) => ev(name, { sessionId: S, turnId: `dt${n}`, delegationId: `d${n}`, ...payload });
const request = (id: string, turnId: string, toolCallId: string) =>
  ev('permission:request', { id, sessionId: S, turnId, toolCallId, tool: 'Write', delegate: 'sub', createdAt: 1 });

describe('sessionTranscriptReducer', () => {
  it('builds a delegate’s own run from its events and never the parent’s items or turn', () => {
    let st = run(ready(), parentTurn('running'), started(1));
    st = run(
      st,
      own(1, 'agent:turn', { state: 'running' }),
      own(1, 'agent:message', { messageId: 'dm1', role: 'assistant', kind: 'model', state: 'streaming' }),
      own(1, 'agent:text', { messageId: 'dm1', delta: 'looking' }),
      own(1, 'agent:tool_call', { messageId: 'dm1', toolCallId: 'dc1', toolUseId: 'du1', tool: 'Read', phase: 'running' }),
      ev('tool:output', { sessionId: S, toolCallId: 'dc1', stream: 'stdout', seq: 1, text: 'live' }),
      own(1, 'agent:tool_result', { messageId: 'dm1', toolCallId: 'dc1', toolUseId: 'du1', tool: 'Read', state: 'done', result: { ok: true } }),
      own(1, 'agent:turn', { state: 'done' }),
    );
    expect(st.items).toEqual([]);
    expect(st.activeTurnId).toBe('t1');
    expect(st.reloadWanted).toBe(false);
    const d = st.delegates.d1!;
    expect(d.run.items.map((it) => it.kind)).toEqual(['text', 'tool']);
    const tool = d.run.items.find((it) => it.kind === 'tool') as ToolItem;
    expect(tool).toMatchObject({ toolCallId: 'dc1', status: 'done' });
    expect(tool.output.map((o) => o.text)).toEqual(['live']);
    expect(delegatesByCall(st.delegates).tc1).toBe(d);
    expect(delegateReport(d)).toBe('');
  });

  it('puts a delegate’s card in its run, by turn or by tool call, counts it, and settles it wherever it is', () => {
    let st = run(ready(), parentTurn('running'), started(1), started(2));
    st = run(st, own(2, 'agent:tool_call', { messageId: 'dm', toolCallId: 'dc2', toolUseId: 'du2', tool: 'Write', phase: 'running' }));
    st = run(
      st,
      request('r1', 'dt1', 'dc1'), // by the delegate's turn
      request('r2', '', 'dc2'), // by its tool call
      request('r0', 't1', 'c0'), // the parent's own
      request('rx', 'unknown-turn', 'nowhere'), // nobody's: kept visible in the parent's list, never lost
    );
    expect(st.items.filter((it) => it.kind === 'approval').map((it) => it.key)).toEqual(['approval:s1:r0', 'approval:s1:rx']);
    expect(st.delegates.d1!.run.items.map((it) => it.key)).toEqual(['approval:s1:r1']);
    expect(st.delegates.d2!.run.items.filter((it) => it.kind === 'approval').map((it) => it.key)).toEqual(['approval:s1:r2']);
    expect(pendingApprovalCount(st)).toBe(4);
    st = run(st, ev('permission:resolved', { sessionId: S, id: 'r2', outcome: 'allow-once' }), ev('permission:resolved', { sessionId: S, id: 'r0', outcome: 'deny' }));
    expect(pendingApprovalCount(st)).toBe(2);
    // The parent's turn ending cancels its own cards only; a delegate's card waits on.
    st = run(st, parentTurn('aborted'));
    expect(pendingApprovalCount(st.delegates.d1!.run)).toBe(1);
  });

  it('restores pending delegate cards after a reload into their delegate’s run', () => {
    const list = [delegation({ id: 'd1', sessionId: S, parentToolCallId: 'tc1', turnId: 'dt1', subagent: 'general', state: 'waiting', createdAt: 500 })];
    let st = run(initialTranscript(S), { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] }, delegations: list });
    const req = permissionEvent('permission:request', { id: 'r1', sessionId: S, turnId: 'dt1', toolCallId: 'dc1', tool: 'Write', delegate: 'general' });
    st = run(st, { type: 'approvalsLoaded', requests: [req && req.type === 'permission_request' ? req.request : (null as never)] });
    expect(st.items).toEqual([]);
    expect(pendingApprovalCount(st.delegates.d1!.run)).toBe(1);
  });

  it('keeps stored delegates incomplete until their conversation is loaded, and a live state over a stale record', () => {
    const record = { id: 'd1', sessionId: S, parentToolCallId: 'tc1', turnId: 'dt1', subagent: 'explore', state: 'running', createdAt: 500 };
    let st = run(initialTranscript(S), { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] }, delegations: [delegation(record)] });
    expect(st.delegates.d1).toMatchObject({ complete: false, state: 'running', seenAt: 500, seenLive: false });
    expect(delegateElapsed(st.delegates.d1!, 2_500)).toBe(2_000);
    st = run(st, started(1, { subagent: 'explore', state: 'done', elapsedMs: 1_234, toolCount: 1 }));
    // The stored page, read before the delegate ended, does not move it back.
    st = run(st, {
      type: 'delegateLoaded',
      page: delegationPage({
        delegation: record,
        turns: [{ id: 'dt1', sessionId: S, prompt: 'go', state: 'done', createdAt: 500 }],
        messages: [{ seq: 1, id: 'dm1', sessionId: S, turnId: 'dt1', role: 'assistant', kind: 'model', stopReason: 'end_turn', content: [{ type: 'text', text: 'All found.' }] }],
      }),
    });
    const d = st.delegates.d1!;
    expect(d).toMatchObject({ complete: true, state: 'done', toolCount: 1 });
    expect(delegateElapsed(d, 99_999)).toBe(1_234);
    expect(delegateReport(d)).toBe('All found.');
  });

  it('a reload’s list read before the last event never moves a live delegate back; a finished record is final', () => {
    let st = run(ready(), parentTurn('running'), started(1), started(1, { state: 'waiting', elapsedMs: 300 }));
    const stale = delegation({ id: 'd1', sessionId: S, parentToolCallId: 'tc1', turnId: 'dt1', subagent: 'sub1', state: 'running', createdAt: 500 });
    st = run(st, { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] }, reload: true, delegations: [stale] });
    expect(st.delegates.d1).toMatchObject({ state: 'waiting', elapsedMs: 300 });
    const done = delegation({ ...stale, state: 'done', report: 'ok', createdAt: 500, finishedAt: 2_500 });
    st = run(st, { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] }, reload: true, delegations: [done] });
    expect(st.delegates.d1).toMatchObject({ state: 'done', elapsedMs: 2_000, report: 'ok' });
  });

  it('never takes another session’s delegation', () => {
    const other = delegation({ id: 'dz', sessionId: 's2', parentToolCallId: 'tz', state: 'done' });
    let st = run(initialTranscript(S), { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] }, delegations: [other] });
    st = run(st, { type: 'delegateLoaded', page: delegationPage({ delegation: { id: 'dz', sessionId: 's2' } }) });
    expect(st.delegates).toEqual({});
  });
});
