import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;

function emit(name: string, payload: Record<string, unknown>) {
  act(() => backend.emit(name, payload));
}

const parent = { sessionId: 's1', turnId: 't1' };

async function openSession() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
  await waitFor(() => expect(screen.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-busy', 'false'));
  return r;
}

function log() {
  return within(screen.getByRole('log', { name: 'Transcript' }));
}

function row(name: string) {
  return log().getByRole('region', { name: `Delegate ${name}` });
}

/** The parent's Task call tcN, running. */
function taskCall(n: number, subagent: string, description: string) {
  const call = { ...parent, messageId: 'm1', toolCallId: `tc${n}`, toolUseId: `tu${n}`, tool: 'Task' };
  emit('agent:tool_call', { ...call, phase: 'ready', args: { subagent, description, prompt: `Do ${description}.` } });
  emit('agent:tool_call', { ...call, phase: 'running' });
}

function delegation(n: number, subagent: string, extra: Record<string, unknown> = {}) {
  emit('agent:delegation', {
    sessionId: 's1', delegationId: `d${n}`, parentTurnId: 't1', parentToolCallId: `tc${n}`, turnId: `dt${n}`, subagent,
    description: `task ${n}`, state: 'running', elapsedMs: 0, toolCount: 0, turnsUsed: 0, ...extra,
  });
}

/** An event of delegate dN's own run. */
function own(n: number, name: string, payload: Record<string, unknown>) {
  emit(name, { sessionId: 's1', turnId: `dt${n}`, delegationId: `d${n}`, ...payload });
}

function request(id: string, n: number, delegate: string, path: string) {
  return {
    id, sessionId: 's1', turnId: `dt${n}`, toolCallId: `dc${n}`, tool: 'Write', risk: 'medium', reason: 'writes a file',
    preview: path, path, external: false, workspace: '/home/dev/alpha-app', delegate, createdAt: NOW + n,
  };
}

beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)],
  });
});

// Whole-app renders with many events: a shared, loaded machine needs more than the default 5 s.
describe('DelegateRow', { timeout: 20_000 }, () => {
  it('shows a Task call as its live delegate run; the delegate’s events stay in its row', async () => {
    const { user } = await openSession();
    emit('agent:turn', { ...parent, state: 'running' });
    emit('agent:message', { ...parent, messageId: 'm1', role: 'assistant', kind: 'model', state: 'streaming' });
    taskCall(1, 'explore', 'map the auth code');
    delegation(1, 'explore', { description: 'map the auth code' });

    const head = within(row('explore')).getByRole('button', { name: /explore/ });
    expect(head).toHaveTextContent('map the auth code');
    expect(head).toHaveTextContent('running');
    expect(head).toHaveTextContent('0 tools');

    // The delegate's own run: a turn, text, a Read, its end.
    own(1, 'agent:turn', { state: 'running' });
    own(1, 'agent:message', { messageId: 'dm1', role: 'user', kind: 'prompt', state: 'end_turn' });
    own(1, 'agent:message', { messageId: 'dm2', role: 'assistant', kind: 'model', state: 'streaming' });
    own(1, 'agent:text', { messageId: 'dm2', delta: 'Reading the handler first.' });
    const read = { messageId: 'dm2', toolCallId: 'dc1', toolUseId: 'du1', tool: 'Read' };
    own(1, 'agent:tool_call', { ...read, phase: 'ready', args: { path: 'src/auth.ts' } });
    own(1, 'agent:tool_call', { ...read, phase: 'running' });
    own(1, 'agent:tool_result', { ...read, state: 'done', result: { ok: true, content: '1|export const auth = 1' }, modelText: 'x', isError: false });
    delegation(1, 'explore', { description: 'map the auth code', elapsedMs: 1200, toolCount: 1, turnsUsed: 1 });
    expect(head).toHaveTextContent('1 tool');
    own(1, 'agent:message', { messageId: 'dm3', role: 'assistant', kind: 'model', state: 'streaming' });
    own(1, 'agent:text', { messageId: 'dm3', delta: 'Auth lives in **src/auth.ts**.' });
    own(1, 'agent:message', { messageId: 'dm3', role: 'assistant', kind: 'model', state: 'end_turn' });
    own(1, 'agent:turn', { state: 'done' });
    delegation(1, 'explore', { description: 'map the auth code', state: 'done', elapsedMs: 4200, toolCount: 1, turnsUsed: 2 });

    expect(head).toHaveTextContent('done');
    expect(head).toHaveTextContent('4.2 s');
    // None of it is the parent's: no row of its own, and the parent's turn still runs.
    expect(log().queryByText(/Reading the handler/)).not.toBeInTheDocument();
    expect(log().queryByRole('button', { name: /^Read/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Running' })).toBeInTheDocument();

    await user.click(head);
    const opened = within(row('explore'));
    expect(head).toHaveAttribute('aria-expanded', 'true');
    expect(opened.getByText('Reading the handler first.')).toBeInTheDocument();
    expect(opened.getByRole('button', { name: /Read/ })).toHaveTextContent('src/auth.ts');
    const report = opened.getByRole('group', { name: 'Report of explore' });
    await waitFor(() => expect(within(report).getByText('src/auth.ts', { selector: 'strong' })).toBeInTheDocument());
    // The report is shown once, as the report.
    expect(opened.getAllByText(/Auth lives in/)).toHaveLength(1);
    expect(bridge.delegationTranscript).not.toHaveBeenCalled();

    await user.click(head);
    expect(within(row('explore')).queryByText('Reading the handler first.')).not.toBeInTheDocument();
  });

  it.each([
    ['running', 'running'],
    ['waiting', 'waiting for you'],
    ['done', 'done'],
    ['failed', 'failed'],
    ['stopped', 'stopped'],
    ['interrupted', 'interrupted'],
  ])('labels the state %s as "%s"', async (state, label) => {
    await openSession();
    emit('agent:turn', { ...parent, state: 'running' });
    taskCall(1, 'general', 'fix it');
    delegation(1, 'general', { state, code: state === 'failed' ? 'DELEGATE_MAX_TURNS' : '' });
    expect(within(row('general')).getByRole('button', { name: /general/ })).toHaveTextContent(label);
  });

  it.each([
    ['merged', /merged into this session's files/],
    ['conflict', /kept on branch pi-desktop-delegate\/s1\/d1: they conflict/],
    ['kept', /kept on branch pi-desktop-delegate\/s1\/d1\.$/],
  ])('says where an isolated writer’s work went when it is %s', async (mergeState, text) => {
    const { user } = await openSession();
    emit('agent:turn', { ...parent, state: 'running' });
    taskCall(1, 'general', 'fix it');
    delegation(1, 'general', { state: 'done', branch: 'pi-desktop-delegate/s1/d1', mergeState });
    await user.click(within(row('general')).getByRole('button', { name: /general/ }));
    const outcome = within(row('general')).getByText((_, el) => el?.classList.contains('delegate-worktree') ?? false);
    expect(outcome).toHaveTextContent(text);
  });

  it('ticks the elapsed time while the delegate runs', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: NOW });
    try {
      await openSession();
      emit('agent:turn', { ...parent, state: 'running' });
      taskCall(1, 'explore', 'look');
      delegation(1, 'explore', { elapsedMs: 2000 });
      const head = within(row('explore')).getByRole('button', { name: /explore/ });
      const before = Number(/(\d+\.\d) s/.exec(head.textContent ?? '')?.[1]);
      await act(async () => vi.advanceTimersByTimeAsync(3000));
      const after = Number(/(\d+\.\d) s/.exec(head.textContent ?? '')?.[1]);
      expect(after - before).toBeGreaterThanOrEqual(2.9);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows each delegate’s card in its row and in the composer, queues several and counts them in the badge', async () => {
    const { user } = await openSession();
    emit('agent:turn', { ...parent, state: 'running' });
    taskCall(1, 'explore', 'read');
    taskCall(2, 'general', 'write notes');
    delegation(1, 'explore');
    delegation(2, 'general');
    own(2, 'agent:turn', { state: 'running' });
    own(2, 'agent:tool_call', { messageId: 'dm1', toolCallId: 'dc2', toolUseId: 'du2', tool: 'Write', phase: 'running', args: { path: 'notes.md' } });
    const ask = (r: ReturnType<typeof request>) => {
      backend.approvals.push(r);
      emit('permission:request', r);
    };
    ask(request('r2', 2, 'general', 'notes.md'));
    delegation(2, 'general', { state: 'waiting' });
    ask(request('r1', 1, 'explore', 'a.md'));

    const composer = within(screen.getByRole('region', { name: 'Delegates waiting for you' }));
    expect(composer.getAllByRole('heading', { name: 'Allow Write?' })).toHaveLength(2);
    expect(composer.getByText('requested by general')).toBeInTheDocument();
    expect(composer.getByText('requested by explore')).toBeInTheDocument();
    const general = within(row('general'));
    expect(general.getByRole('button', { name: /general/ })).toHaveTextContent('waiting for you');
    expect(general.getByText('requested by general')).toBeInTheDocument();
    expect(general.queryByText('requested by explore')).not.toBeInTheDocument();
    expect(within(row('explore')).getByText('requested by explore')).toBeInTheDocument();
    // Not the parent's cards: none is a row of the transcript itself.
    expect(log().getAllByRole('heading', { name: 'Allow Write?' })).toHaveLength(2);
    const badge = await screen.findByLabelText('2 pending approvals');
    expect(badge).toHaveTextContent('2');

    const card = composer.getByText('requested by general').closest('section')!;
    await user.click(within(card).getByRole('button', { name: 'Allow once' }));
    expect(bridge.resolveApproval).toHaveBeenCalledWith('s1', 'r2', 'allow-once');
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Delegates waiting for you' })).getAllByRole('heading', { name: 'Allow Write?' })).toHaveLength(1));
    expect(within(row('general')).queryByText('requested by general')).not.toBeInTheDocument();
    expect(within(row('explore')).getByText('requested by explore')).toBeInTheDocument();
    // Answered from the delegate's row this time.
    await user.click(within(row('explore')).getByRole('button', { name: 'Deny' }));
    expect(bridge.resolveApproval).toHaveBeenLastCalledWith('s1', 'r1', 'deny');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Delegates waiting for you' })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByLabelText(/pending approval/)).not.toBeInTheDocument());
  });

  it('rebuilds Task rows from stored data after a reload, loading a delegate’s calls and report when opened', async () => {
    const dm = (seq: number, id: string, extra: Record<string, unknown>) => ({ seq, id, sessionId: 's1', turnId: 'dt1', createdAt: NOW, ...extra });
    backend = resetFakeBridge({
      projects: [project('p1', 'alpha-app')],
      sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)],
      transcripts: {
        s1: {
          sessionId: 's1',
          turns: [{ id: 't1', sessionId: 's1', prompt: 'Map the auth code', state: 'done', createdAt: NOW - 10_000 }],
          messages: [
            { seq: 1, id: 'p1', turnId: 't1', role: 'user', kind: 'prompt', stopReason: 'end_turn', content: [{ type: 'text', text: 'Map the auth code' }] },
            {
              seq: 2, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'tool_use',
              content: [{ type: 'tool_use', toolUseId: 'tu1', toolName: 'Task', input: { subagent: 'explore', description: 'map auth', prompt: 'Map it.' } }],
              toolCalls: [{ id: 'tc1', turnId: 't1', messageId: 'm1', toolUseId: 'tu1', tool: 'Task', args: { subagent: 'explore', description: 'map auth', prompt: 'Map it.' }, state: 'done', result: { ok: true, content: '{"delegationId":"d1"}', delegationId: 'd1' } }],
            },
            { seq: 3, id: 'm2', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'end_turn', content: [{ type: 'text', text: 'The delegate mapped it.' }] },
          ],
        },
      },
      delegations: {
        s1: [{
          delegation: {
            id: 'd1', sessionId: 's1', parentTurnId: 't1', parentToolCallId: 'tc1', turnId: 'dt1', subagent: 'explore', source: 'builtin',
            description: 'map auth', prompt: 'Map it.', state: 'done', report: 'Auth is in **auth.ts**.', toolCount: 1, turnsUsed: 2,
            createdAt: NOW - 9_000, finishedAt: NOW - 5_000,
          },
          turns: [{ id: 'dt1', sessionId: 's1', prompt: 'Map it.', state: 'done', createdAt: NOW - 9_000 }],
          messages: [
            dm(10, 'dp', { role: 'user', kind: 'prompt', stopReason: 'end_turn', content: [{ type: 'text', text: 'Map it.' }] }),
            dm(11, 'dm1', {
              role: 'assistant', kind: 'model', stopReason: 'tool_use',
              content: [{ type: 'tool_use', toolUseId: 'du1', toolName: 'Grep', input: { pattern: 'auth' } }],
              toolCalls: [{ id: 'dc1', turnId: 'dt1', messageId: 'dm1', toolUseId: 'du1', tool: 'Grep', args: { pattern: 'auth' }, state: 'done', result: { ok: true, content: 'src/auth.ts:1' } }],
            }),
            dm(12, 'dm2', { role: 'assistant', kind: 'model', stopReason: 'end_turn', content: [{ type: 'text', text: 'Auth is in **auth.ts**.' }] }),
          ],
        }],
      },
    });
    const { user } = await openSession();
    const head = within(row('explore')).getByRole('button', { name: /explore/ });
    expect(head).toHaveTextContent('map auth');
    expect(head).toHaveTextContent('done');
    expect(head).toHaveTextContent('1 tool');
    expect(head).toHaveTextContent('4.0 s');
    expect(log().getByText('The delegate mapped it.')).toBeInTheDocument();
    expect(log().queryByRole('button', { name: /Grep/ })).not.toBeInTheDocument();

    await user.click(head);
    expect(bridge.delegationTranscript).toHaveBeenCalledWith('s1', 'd1');
    const opened = within(row('explore'));
    expect(await opened.findByRole('button', { name: /Grep/ })).toHaveTextContent('auth');
    const report = opened.getByRole('group', { name: 'Report of explore' });
    await waitFor(() => expect(within(report).getByText('auth.ts', { selector: 'strong' })).toBeInTheDocument());
    expect(opened.queryByText('Map it.')).not.toBeInTheDocument();
  });

  it('says so when a delegate’s conversation cannot be read, and tries again', async () => {
    backend = resetFakeBridge({
      projects: [project('p1', 'alpha-app')],
      sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)],
      transcripts: {
        s1: {
          sessionId: 's1',
          turns: [{ id: 't1', sessionId: 's1', prompt: 'go', state: 'done', createdAt: NOW - 10_000 }],
          messages: [{
            seq: 2, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'tool_use', content: [],
            toolCalls: [{ id: 'tc1', turnId: 't1', messageId: 'm1', toolUseId: 'tu1', tool: 'Task', args: { subagent: 'general' }, state: 'done', result: { ok: true } }],
          }],
        },
      },
      delegations: { s1: [{ delegation: { id: 'd1', sessionId: 's1', parentToolCallId: 'tc1', turnId: 'dt1', subagent: 'general', state: 'failed', errorCode: 'DELEGATE_MAX_TURNS', errorMessage: 'it used its 24 turns' } }] },
    });
    bridge.delegationTranscript.mockRejectedValueOnce(Object.assign(new Error('boom'), { code: 'STORAGE_CORRUPT', message: 'message x cannot be read' }));
    const { user } = await openSession();
    await user.click(within(row('general')).getByRole('button', { name: /general/ }));
    const opened = within(row('general'));
    expect(await opened.findByRole('alert')).toHaveTextContent('STORAGE_CORRUPT');
    expect(opened.getByText('DELEGATE_MAX_TURNS')).toBeInTheDocument();
    await user.click(opened.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(opened.queryByRole('alert')).not.toBeInTheDocument());
    expect(bridge.delegationTranscript).toHaveBeenCalledTimes(2);
  });
});
