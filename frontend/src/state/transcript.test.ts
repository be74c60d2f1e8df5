import { describe, expect, it } from 'vitest';
import { agentEvent, permissionEvent, transcript as normTranscript } from '../bridge/normalize';
import type { ApprovalRequest } from '../bridge/types';
import {
  approvalKey,
  initialTranscript,
  transcriptReducer,
  type ApprovalItem,
  type TextItem,
  type ToolItem,
  type TranscriptAction,
  type TranscriptState,
  type TurnStatusItem,
} from './transcript';

const S = 's1';
let clock = 1_000;

function ev(name: string, payload: Record<string, unknown>): TranscriptAction {
  const event = name.startsWith('permission:') ? permissionEvent(name, payload) : agentEvent(name, payload);
  if (!event) throw new Error(`unknown event ${name}`);
  clock += 100;
  return { type: 'event', event, at: clock };
}

function run(state: TranscriptState, ...actions: TranscriptAction[]): TranscriptState {
  return actions.reduce(transcriptReducer, state);
}

function ready(): TranscriptState {
  return run(initialTranscript(S), { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] } });
}

const turn = (state: string, extra: Record<string, unknown> = {}) => ev('agent:turn', { sessionId: S, turnId: 't1', state, ...extra });
const msg = (messageId: string, kind: string, state: string) =>
  ev('agent:message', { sessionId: S, turnId: 't1', messageId, role: kind === 'prompt' ? 'user' : 'assistant', kind, state });
const text = (messageId: string, delta: string) => ev('agent:text', { sessionId: S, turnId: 't1', messageId, delta });
const thinking = (messageId: string, delta: string) => ev('agent:thinking', { sessionId: S, turnId: 't1', messageId, delta });
const call = (toolCallId: string, phase: string, extra: Record<string, unknown> = {}) =>
  ev('agent:tool_call', { sessionId: S, turnId: 't1', messageId: 'm1', toolCallId, toolUseId: `u-${toolCallId}`, tool: 'Read', phase, ...extra });
const result = (toolCallId: string, state: string, res: Record<string, unknown>) =>
  ev('agent:tool_result', { sessionId: S, turnId: 't1', messageId: 'm1', toolCallId, toolUseId: `u-${toolCallId}`, tool: 'Read', state, result: res, modelText: 'x', isError: state !== 'done' });

function started(): TranscriptState {
  return run(ready(), { type: 'promptSubmitted', text: 'Fix the bug' }, turn('running'), msg('p1', 'prompt', 'end_turn'), msg('m1', 'model', 'streaming'));
}

function tools(st: TranscriptState): ToolItem[] {
  return st.items.filter((i): i is ToolItem => i.kind === 'tool');
}

function request(id: string, extra: Partial<ApprovalRequest> = {}): Record<string, unknown> {
  return {
    id, sessionId: S, turnId: 't1', toolCallId: 'c1', tool: 'Write', risk: 'medium', reason: 'writes a file',
    preview: 'src/a.ts', path: '/w/src/a.ts', external: false, workspace: '/w', createdAt: 1, ...extra,
  };
}

describe('transcriptReducer: streaming', () => {
  it('shows the prompt sent from this window and appends text deltas to one item', () => {
    const st = run(started(), text('m1', 'Hel'), text('m1', 'lo **wor'), text('m1', 'ld**'));
    expect(st.activeTurnId).toBe('t1');
    expect(st.items.map((i) => i.kind)).toEqual(['prompt', 'text']);
    expect(st.items[0]).toMatchObject({ kind: 'prompt', text: 'Fix the bug' });
    expect(st.items[1]).toMatchObject({ kind: 'text', text: 'Hello **world**', streaming: true });
    expect(st.pendingPrompt).toBeNull();
  });

  it('keeps thinking, text and tool calls in stream order and ends streaming with the message', () => {
    let st = run(started(), thinking('m1', 'Let me '), thinking('m1', 'look'), text('m1', 'Reading.'), call('c1', 'streaming'));
    st = run(st, call('c1', 'streaming', { argsDelta: '{"path":' }), call('c1', 'streaming', { argsDelta: '"a.ts"}' }));
    expect(st.items.map((i) => i.kind)).toEqual(['prompt', 'thinking', 'text', 'tool']);
    expect(tools(st)[0]).toMatchObject({ status: 'streaming', argsText: '{"path":"a.ts"}' });
    st = run(st, call('c1', 'ready', { args: { path: 'a.ts' } }), msg('m1', 'model', 'tool_use'));
    expect((st.items[1] as TextItem).streaming).toBe(false);
    expect((st.items[2] as TextItem).streaming).toBe(false);
    expect(tools(st)[0]).toMatchObject({ status: 'pending', args: { path: 'a.ts' } });
  });

  it('a second model message after tool results gets its own items', () => {
    const st = run(started(), text('m1', 'one'), msg('m1', 'model', 'tool_use'), msg('m2', 'model', 'streaming'), text('m2', 'two'));
    expect(st.items.filter((i) => i.kind === 'text').map((i) => (i as TextItem).text)).toEqual(['one', 'two']);
  });

  it('ignores events of another session', () => {
    const st0 = started();
    const other = agentEvent('agent:text', { sessionId: 'other', turnId: 'x', messageId: 'm1', delta: 'nope' })!;
    const st = transcriptReducer(st0, { type: 'event', event: other, at: 1 });
    expect(st).toBe(st0);
  });

  it('a same-turn retry drops the partial message', () => {
    let st = run(started(), text('m1', 'partial'));
    st = run(st, turn('running', { retry: 'PROVIDER_RATE_LIMITED' }));
    expect(st.items.map((i) => i.kind)).toEqual(['prompt', 'notice']);
    expect(st.items[1]).toMatchObject({ code: 'PROVIDER_RATE_LIMITED' });
    st = run(st, msg('m2', 'model', 'streaming'), text('m2', 'again'));
    expect(st.items.at(-1)).toMatchObject({ kind: 'text', text: 'again' });
  });
});

describe('transcriptReducer: tool calls', () => {
  it('tracks status and duration from running to done', () => {
    const st = run(started(), call('c1', 'ready', { args: { path: 'a.ts' } }), call('c1', 'running'), result('c1', 'done', { ok: true, path: 'a.ts', content: '1|x' }));
    const t = tools(st)[0]!;
    expect(t.status).toBe('done');
    expect(t.result).toMatchObject({ ok: true, path: 'a.ts', content: '1|x' });
    expect(t.finishedAt - t.startedAt).toBe(100);
  });

  it('handles results arriving out of order and before their call events', () => {
    let st = run(started(), call('c1', 'ready'), call('c2', 'ready'), call('c1', 'running'), call('c2', 'running'));
    st = run(st, result('c2', 'done', { ok: true }), result('c1', 'failed', { ok: false, code: 'NOT_FOUND', message: 'no such file' }));
    expect(tools(st).map((t) => [t.toolCallId, t.status])).toEqual([['c1', 'failed'], ['c2', 'done']]);
    // A result for a call never announced creates it; its late "running" does not regress it.
    st = run(st, result('c3', 'done', { ok: true }), call('c3', 'running'), call('c3', 'ready'));
    expect(tools(st).map((t) => [t.toolCallId, t.status])).toEqual([['c1', 'failed'], ['c2', 'done'], ['c3', 'done']]);
    expect(tools(st)[0]!.result).toMatchObject({ code: 'NOT_FOUND', message: 'no such file' });
  });

  it('collects live Bash output in order per stream, even when it arrives before the call', () => {
    const out = (seq: number, stream: string, t: string, extra: Record<string, unknown> = {}) =>
      ev('tool:output', { sessionId: S, toolCallId: 'b1', stream, seq, text: t, ...extra });
    let st = run(started(), out(1, 'stdout', 'one\n'));
    expect(tools(st)).toHaveLength(0);
    st = run(st, ev('agent:tool_call', { sessionId: S, turnId: 't1', messageId: 'm1', toolCallId: 'b1', toolUseId: 'u', tool: 'Bash', phase: 'running' }));
    st = run(st, out(3, 'stdout', 'three\n'), out(2, 'stdout', 'two\n'), out(1, 'stderr', 'warn\n'), out(2, 'stdout', 'two\n'), out(4, 'stdout', 'x', { paused: true }));
    const t = tools(st)[0]!;
    expect(t.output.filter((c) => c.stream === 'stdout').map((c) => c.text)).toEqual(['one\n', 'two\n', 'three\n', 'x']);
    expect(t.output.filter((c) => c.stream === 'stderr').map((c) => c.text)).toEqual(['warn\n']);
    expect(t.outputPaused).toBe(true);
    expect(st.pendingOutput).toEqual({});
  });
});

describe('transcriptReducer: MCP calls', () => {
  const origin = { server: 'gh_tools', tool: 'create', title: 'Create an issue' };
  const mcpCall = (phase: string, extra: Record<string, unknown> = {}) =>
    ev('agent:tool_call', { sessionId: S, turnId: 't1', messageId: 'm1', toolCallId: 'c1', toolUseId: 'u-c1', tool: 'mcp_gh_tools_create', phase, ...extra });
  const out = (stream: string, seq: number, t: string) => ev('tool:output', { sessionId: S, toolCallId: 'c1', stream, seq, text: t });

  it('keeps the origin a tool_call event names, through later events that do not', () => {
    let st = run(started(), mcpCall('streaming'));
    expect(tools(st)[0]!.mcp).toBeNull();
    st = run(st, mcpCall('ready', { args: { title: 'x' }, mcp: origin }));
    expect(tools(st)[0]!.mcp).toEqual(origin);
    const before = tools(st)[0]!;
    st = run(st, mcpCall('running'), result('c1', 'done', { ok: true, content: 'created' }));
    expect(tools(st)[0]).toMatchObject({ status: 'done', mcp: origin });
    // The same origin again changes nothing.
    const same = run(started(), mcpCall('running', { mcp: origin }));
    expect(run(same, mcpCall('running', { mcp: { ...origin } }))).toBe(same);
    expect(before.mcp).toBe(tools(st)[0]!.mcp);
  });

  it('other tools have no origin, and a tool_call without one parses to null', () => {
    const st = run(started(), call('c9', 'running'));
    expect(tools(st)[0]!.mcp).toBeNull();
  });

  it('keeps progress lines in their own stream, apart from stdout', () => {
    let st = run(started(), out('progress', 0, 'progress 1/3: warming up\n'), mcpCall('running', { mcp: origin }));
    st = run(st, out('progress', 2, 'progress 3/3\n'), out('progress', 1, 'progress 2/3\n'), out('stdout', 0, 'raw\n'));
    const t = tools(st)[0]!;
    expect(t.output.filter((c) => c.stream === 'progress').map((c) => c.text)).toEqual(['progress 1/3: warming up\n', 'progress 2/3\n', 'progress 3/3\n']);
    expect(t.output.filter((c) => c.stream === 'stdout').map((c) => c.text)).toEqual(['raw\n']);
  });

  it('a reload keeps the origin the stored transcript does not carry', () => {
    let st = run(started(), mcpCall('running', { mcp: origin }), result('c1', 'done', { ok: true }), msg('m1', 'model', 'end_turn'), turn('done'));
    const stored = normTranscript({
      sessionId: S,
      turns: [{ id: 't1', sessionId: S, prompt: 'Fix the bug', state: 'done', createdAt: 1 }],
      messages: [
        { seq: 1, id: 'p1', turnId: 't1', role: 'user', kind: 'prompt', content: [{ type: 'text', text: 'Fix the bug' }], stopReason: 'end_turn' },
        { seq: 2, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'end_turn', content: [],
          toolCalls: [{ id: 'c1', turnId: 't1', messageId: 'm1', toolUseId: 'u-c1', tool: 'mcp_gh_tools_create', state: 'done', result: { ok: true } }] },
      ],
    });
    st = run(st, { type: 'loaded', transcript: stored, reload: true });
    expect(tools(st)[0]).toMatchObject({ tool: 'mcp_gh_tools_create', status: 'done', mcp: origin });
    // A fresh load (another window, the app restarted) has no origin: the catalog names it.
    const fresh = run(initialTranscript(S), { type: 'loaded', transcript: stored });
    expect(tools(fresh)[0]!.mcp).toBeNull();
  });
});

describe('transcriptReducer: stop and errors', () => {
  it('a stopped turn ends streaming, aborts unfinished calls, cancels its cards and shows the outcome', () => {
    let st = run(started(), text('m1', 'Working'), call('c1', 'ready'), call('c1', 'running'), call('c2', 'ready'));
    st = run(st, ev('permission:request', request('r1')));
    st = run(st, result('c2', 'skipped', { ok: false, code: 'TOOL_SKIPPED' }), msg('m1', 'model', 'tool_use'));
    st = run(st, turn('aborted', { code: 'TURN_ABORTED', message: 'the turn was stopped' }));
    expect(st.activeTurnId).toBeNull();
    expect((st.items.find((i) => i.kind === 'text') as TextItem).streaming).toBe(false);
    expect(tools(st).map((t) => t.status)).toEqual(['aborted', 'skipped']);
    expect((st.items.find((i) => i.kind === 'approval') as ApprovalItem).outcome).toBe('cancelled');
    expect(st.items.at(-1)).toMatchObject({ kind: 'turn-status', state: 'aborted', code: 'TURN_ABORTED', message: 'the turn was stopped' });
  });

  it('a failed turn keeps its code and message and whether a retry may help', () => {
    const st = run(started(), turn('failed', { code: 'PROVIDER_RATE_LIMITED', message: 'rate limited; wait a minute and send again', retriable: true }));
    expect(st.items.at(-1)).toMatchObject({ kind: 'turn-status', state: 'failed', code: 'PROVIDER_RATE_LIMITED', retriable: true });
  });

  it('a message cut off mid tool-call marks the call aborted', () => {
    const st = run(started(), call('c1', 'streaming'), msg('m1', 'model', 'aborted'));
    expect(tools(st)[0]!.status).toBe('aborted');
  });

  it('a rejected send forgets the pending prompt', () => {
    const st = run(ready(), { type: 'promptSubmitted', text: 'x' }, { type: 'promptRejected' });
    expect(st.pendingPrompt).toBeNull();
  });
});

describe('transcriptReducer: restore', () => {
  const stored = normTranscript({
    sessionId: S,
    turns: [
      { id: 't0', sessionId: S, prompt: 'Say hi', state: 'done', createdAt: 1, updatedAt: 2 },
      {
        id: 't1', sessionId: S, prompt: 'Run the tests', state: 'interrupted', errorCode: 'TURN_INTERRUPTED',
        errorMessage: 'PI-Desktop stopped while this turn was running; send a new prompt to continue', createdAt: 3, updatedAt: 9,
      },
    ],
    messages: [
      { seq: 1, id: 'p0', turnId: 't0', role: 'user', kind: 'prompt', content: [{ type: 'text', text: 'Say hi' }], stopReason: 'end_turn' },
      { seq: 2, id: 'm0', turnId: 't0', role: 'assistant', kind: 'model', content: [{ type: 'text', text: 'Hi!' }], stopReason: 'end_turn' },
      { seq: 3, id: 'p1', turnId: 't1', role: 'user', kind: 'prompt', content: [{ type: 'text', text: 'Run the tests' }], stopReason: 'end_turn' },
      {
        seq: 4, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'tool_use',
        content: [
          { type: 'thinking', text: 'tests first' },
          { type: 'text', text: 'Running them.' },
          { type: 'tool_use', toolUseId: 'u1', toolName: 'Bash', input: { command: 'go test ./...' } },
        ],
        toolCalls: [{
          id: 'c1', turnId: 't1', messageId: 'm1', toolUseId: 'u1', position: 0, tool: 'Bash', args: { command: 'go test ./...' },
          state: 'interrupted', result: { ok: false, code: 'TURN_INTERRUPTED', message: 'interrupted: PI-Desktop stopped' },
          modelText: 'interrupted', isError: true, errorCode: 'TURN_INTERRUPTED', createdAt: 5, startedAt: 5, finishedAt: 9,
        }],
      },
    ],
  });

  it('rebuilds prompts, text, thinking and tool calls, and marks the interrupted turn', () => {
    const st = run(initialTranscript(S), { type: 'loaded', transcript: stored });
    expect(st.status).toBe('ready');
    expect(st.activeTurnId).toBeNull();
    expect(st.items.map((i) => i.kind)).toEqual(['prompt', 'text', 'prompt', 'thinking', 'text', 'tool', 'turn-status']);
    const t = tools(st)[0]!;
    expect(t).toMatchObject({ tool: 'Bash', status: 'interrupted', args: { command: 'go test ./...' }, startedAt: 5, finishedAt: 9 });
    expect(t.result).toMatchObject({ code: 'TURN_INTERRUPTED' });
    const status = st.items.at(-1) as TurnStatusItem;
    expect(status).toMatchObject({ state: 'interrupted', code: 'TURN_INTERRUPTED' });
    expect(st.items.every((i) => !(i.kind === 'text' && i.streaming))).toBe(true);
  });

  it('restores pending approval cards once, after their tool call', () => {
    let st = run(initialTranscript(S), { type: 'loaded', transcript: stored });
    const req = permissionEvent('permission:request', request('r1', { toolCallId: 'c1', turnId: 't1' }))!;
    st = run(st, { type: 'approvalsLoaded', requests: [req.type === 'permission_request' ? req.request : (null as never)] });
    st = run(st, ev('permission:request', request('r1', { toolCallId: 'c1', turnId: 't1' })));
    const kinds = st.items.map((i) => i.kind);
    expect(kinds.filter((k) => k === 'approval')).toHaveLength(1);
    expect(kinds.indexOf('approval')).toBe(kinds.indexOf('tool') + 1);
    expect(st.items.find((i) => i.key === approvalKey(S, 'r1'))).toBeDefined();
  });

  it('a turn running at load continues live and asks for a reload when it ends', () => {
    const running = normTranscript({
      sessionId: S,
      turns: [{ id: 't1', sessionId: S, prompt: 'go', state: 'running', createdAt: 1 }],
      messages: [
        { seq: 1, id: 'p1', turnId: 't1', role: 'user', kind: 'prompt', content: [{ type: 'text', text: 'go' }], stopReason: 'end_turn' },
        { seq: 2, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', content: [{ type: 'text', text: 'Partial' }], stopReason: '' },
      ],
    });
    let st = run(initialTranscript(S), { type: 'loaded', transcript: running });
    expect(st.activeTurnId).toBe('t1');
    expect(st.items[1]).toMatchObject({ kind: 'text', text: 'Partial', streaming: true });
    st = run(st, text('m1', ' answer'), msg('m1', 'model', 'end_turn'), turn('done'));
    expect(st.items[1]).toMatchObject({ text: 'Partial answer', streaming: false });
    expect(st.reloadWanted).toBe(true);
    st = run(st, { type: 'reloadStarted' });
    expect(st.reloadWanted).toBe(false);
  });

  it('a reload keeps live cards, Bash output and turns not stored yet, and never replaces a running view', () => {
    let st = run(started(), call('c1', 'running'), ev('tool:output', { sessionId: S, toolCallId: 'c1', stream: 'stdout', seq: 1, text: 'out' }));
    st = run(st, ev('permission:request', request('r1')));
    const same = run(st, { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] }, reload: true });
    expect(same).toBe(st); // a turn runs: the live view wins
    st = run(st, turn('aborted', { code: 'TURN_ABORTED', message: 'stopped' }));
    const stored = normTranscript({
      sessionId: S,
      turns: [{ id: 't1', sessionId: S, prompt: 'Fix the bug', state: 'aborted', errorCode: 'TURN_ABORTED', errorMessage: 'stopped', createdAt: 1 }],
      messages: [
        { seq: 1, id: 'p1', turnId: 't1', role: 'user', kind: 'prompt', content: [{ type: 'text', text: 'Fix the bug' }], stopReason: 'end_turn' },
        { seq: 2, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'tool_use', content: [],
          toolCalls: [{ id: 'c1', turnId: 't1', messageId: 'm1', toolUseId: 'u-c1', tool: 'Bash', state: 'aborted' }] },
      ],
    });
    st = run(st, { type: 'loaded', transcript: stored, reload: true });
    expect(st.items.map((i) => i.kind)).toEqual(['prompt', 'tool', 'approval', 'turn-status']);
    expect(tools(st)[0]!.output.map((c) => c.text)).toEqual(['out']);
    expect((st.items[2] as ApprovalItem).outcome).toBe('cancelled');
    // A turn the store does not list yet stays visible.
    const empty = run(st, { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] }, reload: true });
    expect(empty.items.map((i) => i.kind)).toEqual(['prompt', 'tool', 'approval', 'turn-status']);
  });

  it('approval cards resolved elsewhere take their outcome; the first answer wins', () => {
    let st = run(started(), call('c1', 'running'), ev('permission:request', request('r1')), ev('permission:request', request('r2', { toolCallId: 'c9' })));
    st = run(st, ev('permission:resolved', { id: 'r1', sessionId: S, outcome: 'timeout' }));
    st = run(st, ev('permission:resolved', { id: 'r2', sessionId: S, outcome: 'deny' }), ev('permission:resolved', { id: 'r2', sessionId: S, outcome: 'allow-once' }));
    const cards = st.items.filter((i): i is ApprovalItem => i.kind === 'approval');
    expect(cards.map((c) => [c.request.id, c.outcome])).toEqual([['r1', 'timeout'], ['r2', 'deny']]);
    // Another session's card never enters this transcript.
    st = run(st, ev('permission:request', request('r3', { sessionId: 'other' })));
    expect(st.items.filter((i) => i.kind === 'approval')).toHaveLength(2);
  });
});

describe('transcriptReducer: pages', () => {
  const page = (from: number, to: number) =>
    normTranscript({
      sessionId: S,
      turns: Array.from({ length: to - from }, (_, i) => ({ id: `t${from + i}`, sessionId: S, prompt: `q${from + i}`, state: 'done', createdAt: from + i })),
      messages: Array.from({ length: to - from }, (_, i) => ({
        seq: from + i, id: `p${from + i}`, turnId: `t${from + i}`, role: 'user', kind: 'prompt', content: [{ type: 'text', text: `q${from + i}` }], stopReason: 'end_turn',
      })),
    });
  const keys = (s: TranscriptState) => s.items.map((it) => it.key);

  it('puts an older page above what is shown, once, and knows when none is left', () => {
    let s = run(initialTranscript(S), { type: 'loaded', transcript: page(4, 6), more: true });
    expect([s.firstTurnId, s.hasOlder]).toEqual(['t4', true]);
    s = run(s, { type: 'olderRequested' });
    expect(s.loadingOlder).toBe(true);
    s = run(s, { type: 'olderLoaded', before: 't4', transcript: page(2, 4), more: true });
    expect(keys(s)).toEqual(['prompt:p2', 'prompt:p3', 'prompt:p4', 'prompt:p5']);
    expect([s.firstTurnId, s.hasOlder, s.loadingOlder]).toEqual(['t2', true, false]);
    expect(s.turns.t2?.state).toBe('done');
    // A page answered for another first turn (a reload moved it) is dropped.
    s = run(s, { type: 'olderRequested' }, { type: 'olderLoaded', before: 't4', transcript: page(0, 4), more: false });
    expect(keys(s)).toHaveLength(4);
    expect(s.loadingOlder).toBe(false);
    s = run(s, { type: 'olderRequested' }, { type: 'olderLoaded', before: 't2', transcript: page(0, 2), more: false });
    expect(keys(s)[0]).toBe('prompt:p0');
    expect([s.firstTurnId, s.hasOlder]).toEqual(['t0', false]);
    // Nothing left: asking again does nothing.
    expect(run(s, { type: 'olderRequested' })).toBe(s);
  });

  it('a failed older page can be asked for again', () => {
    const s = run(initialTranscript(S), { type: 'loaded', transcript: page(4, 6), more: true }, { type: 'olderRequested' }, { type: 'olderFailed' });
    expect([s.loadingOlder, s.hasOlder, s.firstTurnId]).toEqual([false, true, 't4']);
  });

  it('a reload of the shown turns keeps the first turn and whether older ones exist', () => {
    let s = run(initialTranscript(S), { type: 'loaded', transcript: page(4, 6), more: true });
    s = run(s, { type: 'loaded', transcript: page(4, 7), more: true, reload: true });
    expect(keys(s)).toEqual(['prompt:p4', 'prompt:p5', 'prompt:p6']);
    expect([s.firstTurnId, s.hasOlder]).toEqual(['t4', true]);
  });
});
