import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, reviewChange, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000), session('s2', 'p1', 'Background job', NOW - 120_000)],
  });
});

function emit(name: string, payload: Record<string, unknown>) {
  act(() => backend.emit(name, payload));
}

const base = { sessionId: 's1', turnId: 't1' };

async function openSession(title = 'Fix login bug') {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: new RegExp(`^${title}`) }));
  await waitFor(() => expect(screen.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-busy', 'false'));
  return r;
}

function log() {
  return within(screen.getByRole('log', { name: 'Transcript' }));
}

function request(id: string, extra: Record<string, unknown> = {}) {
  return {
    id, sessionId: 's1', turnId: 't1', toolCallId: 'c1', tool: 'Write', risk: 'medium', reason: 'creates a file outside the workspace',
    preview: '/etc/hosts', path: '/etc/hosts', external: true, workspace: '/home/dev/alpha-app', delegate: 'reviewer', createdAt: NOW, ...extra,
  };
}

describe('Transcript', () => {
  it('sends a prompt, streams the answer as Markdown and shows a tool call that completes', async () => {
    const { user } = await openSession();
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'Why does login fail?{Enter}');
    expect(bridge.sendPrompt).toHaveBeenCalledWith('s1', 'Why does login fail?');
    await waitFor(() => expect(box).toHaveValue(''));

    emit('agent:turn', { ...base, state: 'running' });
    emit('agent:message', { ...base, messageId: 'p1', role: 'user', kind: 'prompt', state: 'end_turn' });
    emit('agent:message', { ...base, messageId: 'm1', role: 'assistant', kind: 'model', state: 'streaming' });
    emit('agent:text', { ...base, messageId: 'm1', delta: 'Let me read ' });
    emit('agent:text', { ...base, messageId: 'm1', delta: '**the handler**.' });
    expect(log().getByText('Why does login fail?')).toBeInTheDocument();
    await waitFor(() => expect(log().getByText('the handler', { selector: 'strong' })).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();

    const call = { ...base, messageId: 'm1', toolCallId: 'c1', toolUseId: 'u1', tool: 'Read' };
    emit('agent:tool_call', { ...call, phase: 'streaming' });
    emit('agent:tool_call', { ...call, phase: 'ready', args: { path: 'src/login.ts' } });
    emit('agent:message', { ...base, messageId: 'm1', role: 'assistant', kind: 'model', state: 'tool_use' });
    emit('agent:tool_call', { ...call, phase: 'running' });
    const head = log().getByRole('button', { name: /Read/ });
    expect(head).toHaveTextContent('src/login.ts');
    expect(head).toHaveTextContent('Running');
    emit('agent:tool_result', { ...call, state: 'done', result: { ok: true, root: 'workspace', path: 'src/login.ts', content: '1|export function login() {}' }, modelText: '…', isError: false });
    expect(head).toHaveTextContent('Done');
    expect(head).toHaveTextContent(/\d+ ms/);
    await user.click(head);
    expect(log().getByLabelText('Result')).toHaveTextContent('export function login() {}');

    emit('agent:message', { ...base, messageId: 'm2', role: 'assistant', kind: 'model', state: 'streaming' });
    emit('agent:text', { ...base, messageId: 'm2', delta: 'Found it.' });
    emit('agent:message', { ...base, messageId: 'm2', role: 'assistant', kind: 'model', state: 'end_turn' });
    emit('agent:turn', { ...base, state: 'done' });
    expect(await log().findByText('Found it.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  });

  it('shows live Bash output while it runs, then the result', async () => {
    const { user } = await openSession();
    emit('agent:turn', { ...base, state: 'running' });
    const call = { ...base, messageId: 'm1', toolCallId: 'b1', toolUseId: 'u1', tool: 'Bash' };
    emit('agent:tool_call', { ...call, phase: 'ready', args: { command: 'go test ./...' } });
    emit('agent:tool_call', { ...call, phase: 'running' });
    emit('tool:output', { sessionId: 's1', toolCallId: 'b1', stream: 'stdout', seq: 1, text: 'ok  pkg/a\n' });
    emit('tool:output', { sessionId: 's1', toolCallId: 'b1', stream: 'stderr', seq: 1, text: 'warning: slow\n' });
    const live = log().getByLabelText('Live output');
    expect(live).toHaveTextContent('ok pkg/a');
    expect(live).toHaveTextContent('warning: slow');
    emit('agent:tool_result', { ...call, state: 'failed', result: { ok: false, code: 'TOOL_FAILED', message: 'the command exited with status 1', exitCode: 1, stdout: 'ok  pkg/a\nFAIL pkg/b\n', stderr: '' }, modelText: 'x', isError: true });
    expect(log().queryByLabelText('Live output')).not.toBeInTheDocument();
    const head = log().getByRole('button', { name: /Bash/ });
    expect(head).toHaveTextContent('go test ./...');
    expect(head).toHaveTextContent('TOOL_FAILED');
    await user.click(head);
    expect(log().getByText('Exit status 1')).toBeInTheDocument();
    expect(log().getByLabelText('stdout')).toHaveTextContent('FAIL pkg/b');
  });

  it('Stop calls StopSession and the stopped turn says so', async () => {
    const { user } = await openSession();
    emit('agent:turn', { ...base, state: 'running' });
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(bridge.stopSession).toHaveBeenCalledWith('s1');
    emit('agent:turn', { ...base, state: 'aborted', code: 'TURN_ABORTED', message: 'the turn was stopped' });
    expect(await log().findByText('Stopped')).toBeInTheDocument();
    expect(log().getByText('TURN_ABORTED')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  });

  it('restores an interrupted turn as interrupted, with its code and next step', async () => {
    backend.transcripts.s1 = {
      sessionId: 's1',
      turns: [{ id: 't1', sessionId: 's1', prompt: 'Run the migration', state: 'interrupted', errorCode: 'TURN_INTERRUPTED', errorMessage: 'PI-Desktop stopped while this turn was running; send a new prompt to continue', createdAt: 1 }],
      messages: [
        { seq: 1, id: 'p1', turnId: 't1', role: 'user', kind: 'prompt', content: [{ type: 'text', text: 'Run the migration' }], stopReason: 'end_turn' },
        {
          seq: 2, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'tool_use',
          content: [{ type: 'text', text: 'Running it now.' }, { type: 'tool_use', toolUseId: 'u1', toolName: 'Bash', input: { command: 'make migrate' } }],
          toolCalls: [{ id: 'c1', turnId: 't1', messageId: 'm1', toolUseId: 'u1', tool: 'Bash', args: { command: 'make migrate' }, state: 'interrupted', result: { ok: false, code: 'TURN_INTERRUPTED', message: 'interrupted' }, isError: true }],
        },
      ],
    };
    await openSession();
    expect(log().getByText('Run the migration')).toBeInTheDocument();
    expect(log().getByText('Running it now.')).toBeInTheDocument();
    expect(log().getByRole('button', { name: /Bash/ })).toHaveTextContent('Interrupted');
    expect(log().getByText('Interrupted', { selector: 'strong' })).toBeInTheDocument();
    expect(log().getAllByText('TURN_INTERRUPTED').length).toBeGreaterThan(0);
    expect(log().getAllByText(/send a new prompt to continue/).length).toBeGreaterThan(0);
  });

  it('shows review records with +/− counts and rolls one back after confirming; a CONFLICT is shown plainly', async () => {
    const change = reviewChange('snap1', 'src/login.ts', { additions: 7, deletions: 2 });
    const other = reviewChange('snap2', 'src/util.ts', { additions: 1, deletions: 0, toolCallId: 'c2' });
    backend.reviews.push(change, other);
    backend.transcripts.s1 = {
      sessionId: 's1',
      turns: [{ id: 't1', sessionId: 's1', prompt: 'edit', state: 'done', createdAt: 1 }],
      messages: [{
        seq: 1, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'end_turn', content: [],
        toolCalls: [
          { id: 'c1', turnId: 't1', messageId: 'm1', toolUseId: 'u1', position: 0, tool: 'Write', args: { path: 'src/login.ts' }, state: 'done', result: { ok: true, root: 'workspace', path: 'src/login.ts', review: [change] } },
          { id: 'c2', turnId: 't1', messageId: 'm1', toolUseId: 'u2', position: 1, tool: 'Edit', args: { path: 'src/util.ts' }, state: 'done', result: { ok: true, root: 'workspace', path: 'src/util.ts', review: [other] } },
        ],
      }],
    };
    const { user } = await openSession();
    const changes = log().getAllByRole('list', { name: 'Changes' });
    expect(changes[0]).toHaveTextContent('src/login.ts');
    expect(within(changes[0]!).getByLabelText('7 added, 2 removed lines')).toHaveTextContent('+7 −2');

    await user.click(log().getByRole('button', { name: 'Roll back src/login.ts' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Roll back' }));
    expect(bridge.rollbackChange).toHaveBeenCalledWith('s1', 'snap1');
    expect(await within(changes[0]!).findByText('Rolled back')).toBeInTheDocument();
    expect(within(changes[0]!).queryByRole('button', { name: /Roll back/ })).not.toBeInTheDocument();

    bridge.rollbackChange.mockRejectedValueOnce(new BridgeError('CONFLICT', 'src/util.ts changed since the agent edited it', { path: 'src/util.ts' }));
    await user.click(log().getByRole('button', { name: 'Roll back src/util.ts' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Roll back' }));
    const alert = await within(changes[1]!).findByRole('alert');
    expect(alert).toHaveTextContent('CONFLICT');
    expect(alert).toHaveTextContent('src/util.ts changed since the agent edited it');
    expect(alert).toHaveTextContent('nothing was rolled back');
  });
});

describe('@ references', () => {
  it("completes files of the open session's workspace and sends the reference in the prompt", async () => {
    backend.files.s1 = ['src/login.ts', 'src/util.ts'];
    backend.files.s2 = ['other/login.go'];
    const { user } = await openSession();
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'Why does @login');
    const option = await screen.findByRole('option', { name: /login\.ts/ });
    expect(bridge.workspaceFiles).toHaveBeenLastCalledWith('s1', 'login', 50);
    expect(screen.queryByRole('option', { name: /login\.go/ })).not.toBeInTheDocument();
    expect(option).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    await user.type(box, 'fail?{Enter}');
    expect(bridge.sendPrompt).toHaveBeenCalledWith('s1', 'Why does @src/login.ts fail?');
  });
});

describe('Long sessions', () => {
  it('opens a 5,000-message session at its latest message with only a window of rows rendered', async () => {
    const turns = [];
    const messages = [];
    for (let t = 0; t < 2500; t++) {
      turns.push({ id: `t${t}`, sessionId: 's1', prompt: `question ${t}`, state: 'done', createdAt: t + 1 });
      messages.push({ seq: 2 * t + 1, id: `p${t}`, turnId: `t${t}`, role: 'user', kind: 'prompt', content: [{ type: 'text', text: `question ${t}` }], stopReason: 'end_turn' });
      messages.push({ seq: 2 * t + 2, id: `m${t}`, turnId: `t${t}`, role: 'assistant', kind: 'model', content: [{ type: 'text', text: `answer ${t}` }], stopReason: 'end_turn' });
    }
    backend.transcripts.s1 = { sessionId: 's1', turns, messages };
    await openSession();
    expect(await log().findByText('answer 2499')).toBeInTheDocument();
    expect(log().queryByText('question 0')).not.toBeInTheDocument();
    const rendered = screen.getByRole('log', { name: 'Transcript' }).querySelectorAll('.transcript-row').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(60);
    // Only the latest turns came over the bridge.
    expect(bridge.transcriptPage).toHaveBeenCalledTimes(1);
    const first = await vi.mocked(bridge.transcriptPage).mock.results[0]!.value;
    expect(first.messages.length).toBe(300);
    expect(first.turns[0].id).toBe('t2350');
    expect(first.more).toBe(true);
  });

  it('loads earlier turns as the user scrolls to the top, down to the first', async () => {
    const turns = [];
    const messages = [];
    for (let t = 0; t < 500; t++) {
      turns.push({ id: `t${t}`, sessionId: 's1', prompt: `question ${t}`, state: 'done', createdAt: t + 1 });
      messages.push({ seq: 2 * t + 1, id: `p${t}`, turnId: `t${t}`, role: 'user', kind: 'prompt', content: [{ type: 'text', text: `question ${t}` }], stopReason: 'end_turn' });
      messages.push({ seq: 2 * t + 2, id: `m${t}`, turnId: `t${t}`, role: 'assistant', kind: 'model', content: [{ type: 'text', text: `answer ${t}` }], stopReason: 'end_turn' });
    }
    backend.transcripts.s1 = { sessionId: 's1', turns, messages };
    await openSession();
    const scroller = screen.getByRole('log', { name: 'Transcript' });
    expect(await log().findByText('answer 499')).toBeInTheDocument();
    await act(async () => {
      scroller.scrollTop = 0;
      await Promise.resolve();
    });
    await waitFor(() => expect(bridge.transcriptPage).toHaveBeenLastCalledWith('s1', { before: 't350', limit: 300 }));
    // Each older page sits above: the view did not jump to its top, so scroll up again.
    for (const before of ['t200', 't50']) {
      await waitFor(() => expect(scroller.scrollTop).toBeGreaterThan(1000));
      await act(async () => {
        scroller.scrollTop = 0;
        await Promise.resolve();
      });
      await waitFor(() => expect(bridge.transcriptPage).toHaveBeenLastCalledWith('s1', { before, limit: 300 }));
    }
    await waitFor(() => expect(scroller.scrollTop).toBeGreaterThan(1000));
    await act(async () => {
      scroller.scrollTop = 0;
      await Promise.resolve();
    });
    expect(await log().findByText('question 0')).toBeInTheDocument();
    // The first turn is shown: nothing more is asked for.
    expect(bridge.transcriptPage).toHaveBeenCalledTimes(4);
  });
});

describe('Approval cards', () => {
  it('restores pending cards on open and answers them with ResolveApproval', async () => {
    backend.approvals.push(request('r1'));
    const { user } = await openSession();
    const card = await log().findByRole('region', { name: 'Allow Write?' });
    // Risk is said where it is earned (an outside path), not as a level.
    expect(card).not.toHaveTextContent('medium risk');
    expect(card).toHaveClass('is-risky');
    expect(card).toHaveTextContent('creates a file outside the workspace');
    expect(card).toHaveTextContent('Outside the workspace');
    expect(within(card).getByText('/etc/hosts')).toBeInTheDocument();
    expect(card).toHaveTextContent('/home/dev/alpha-app');
    expect(card).toHaveTextContent('requested by reviewer');
    const allowOnce = within(card).getByRole('button', { name: 'Allow once' });
    expect(within(card).getByRole('button', { name: 'Allow for session' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Deny' })).toBeInTheDocument();
    // Keyboard: Tab reaches the buttons and Enter answers.
    allowOnce.focus();
    await user.keyboard('{Enter}');
    expect(bridge.resolveApproval).toHaveBeenCalledWith('s1', 'r1', 'allow-once');
    expect(await within(card).findByText('Allowed once')).toBeInTheDocument();
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows a Write/Edit diff with line numbers, the truncation marker and a collapse toggle', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `+row ${i + 1}`).join('\n');
    backend.approvals.push(
      request('r1', { tool: 'Edit', path: '/home/dev/alpha-app/src/greet.go', external: false, diff: '@@ -4,3 +4,3 @@\n func greet() {\n-\treturn "Hello"\n+\treturn "Hi"\n }\n' }),
      request('r2', { toolCallId: 'c2', path: '/home/dev/alpha-app/big.txt', external: false, diff: `@@ -0,0 +1,30 @@\n${rows}\n[diff truncated: 4800 more lines]\n`, diffNote: 'new file' }),
    );
    const { user } = await openSession();
    const edit = await log().findByRole('region', { name: 'Allow Edit?' });
    const diff = within(edit).getByRole('region', { name: 'Proposed changes to greet.go' });
    const removed = within(diff).getByText('return "Hello"').closest('tr')!;
    const added = within(diff).getByText('return "Hi"').closest('tr')!;
    expect(removed).toHaveClass('diff-line-del');
    expect(added).toHaveClass('diff-line-add');
    expect(within(removed).getByLabelText('old line 5')).toBeInTheDocument();
    expect(within(added).getByLabelText('new line 5')).toBeInTheDocument();
    expect(within(added).getByLabelText('added')).toBeInTheDocument();
    expect(within(edit).queryByText(/diff truncated/)).not.toBeInTheDocument();
    expect(within(edit).queryByRole('button', { name: /Expand diff/ })).not.toBeInTheDocument();

    expect(edit).toHaveTextContent('Edit 1 line in src/greet.go');
    const write = log().getByRole('region', { name: 'Allow Write?' });
    expect(write).toHaveTextContent('Create big.txt');
    expect(write).not.toHaveClass('is-risky');
    expect(within(write).getByText('[diff truncated: 4,800 more lines]')).toBeInTheDocument();
    const big = within(write).getByRole('region', { name: 'Proposed changes to big.txt' });
    expect(within(big).getAllByRole('row').filter((r) => r.classList.contains('diff-line-add'))).toHaveLength(30);
    expect(big.parentElement).toHaveClass('is-collapsed');
    const toggle = within(write).getByRole('button', { name: 'Expand diff (30 lines)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', big.id);
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(big.parentElement).not.toHaveClass('is-collapsed');
    // The answer buttons still come first for the keyboard after the diff.
    within(write).getByRole('button', { name: 'Allow once' }).focus();
    await user.keyboard('{Enter}');
    expect(bridge.resolveApproval).toHaveBeenCalledWith('s1', 'r2', 'allow-once');
  });

  it('has no diff section without a diff, and shows a note alone', async () => {
    backend.approvals.push(request('r1'), request('r2', { toolCallId: 'c2', path: '/home/dev/alpha-app/logo.png', external: false, diffNote: 'binary file: no diff preview' }));
    await openSession();
    const cards = await log().findAllByRole('region', { name: 'Allow Write?' });
    expect(cards).toHaveLength(2);
    const [plain, binary] = cards;
    expect(within(plain).queryByRole('region', { name: /Proposed changes/ })).not.toBeInTheDocument();
    expect(plain.querySelector('.approval-diff')).toBeNull();
    expect(binary).toHaveTextContent('binary file: no diff preview');
    expect(within(binary).queryByRole('region', { name: /Proposed changes/ })).not.toBeInTheDocument();
  });

  it('Deny and Allow for session send their answers', async () => {
    backend.approvals.push(request('r1'), request('r2', { toolCallId: 'c2', tool: 'Bash', preview: 'rm -rf build', path: '', external: false }));
    const { user } = await openSession();
    const write = await log().findByRole('region', { name: 'Allow Write?' });
    const bash = log().getByRole('region', { name: 'Allow Bash?' });
    expect(bash).toHaveTextContent('rm -rf build');
    await user.click(within(bash).getByRole('button', { name: 'Allow for session' }));
    expect(bridge.resolveApproval).toHaveBeenCalledWith('s1', 'r2', 'allow-session');
    await user.click(within(write).getByRole('button', { name: 'Deny' }));
    expect(bridge.resolveApproval).toHaveBeenCalledWith('s1', 'r1', 'deny');
    expect(await within(write).findByText('Denied')).toBeInTheDocument();
    expect(within(bash).getByText('Allowed for this session')).toBeInTheDocument();
  });

  it('a card resolved elsewhere turns into its outcome without buttons', async () => {
    await openSession();
    emit('agent:turn', { ...base, state: 'running' });
    emit('permission:request', request('r1'));
    const card = await log().findByRole('region', { name: 'Allow Write?' });
    expect(within(card).getAllByRole('button')).toHaveLength(3);
    emit('permission:resolved', { id: 'r1', sessionId: 's1', outcome: 'timeout' });
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
    expect(card).toHaveTextContent('Timed out');
  });

  it("never shows another session's card; the sidebar counts it instead", async () => {
    await openSession();
    emit('permission:request', request('r9', { sessionId: 's2' }));
    expect(log().queryByRole('region', { name: /Allow/ })).not.toBeInTheDocument();
    const row = screen.getByRole('button', { name: /^Background job/ });
    expect(within(row).getByLabelText('1 pending approval')).toHaveTextContent('1');
    emit('permission:resolved', { id: 'r9', sessionId: 's2', outcome: 'cancelled' });
    expect(within(row).queryByLabelText(/pending approval/)).not.toBeInTheDocument();
  });

  it('the sidebar marks a session whose turn runs', async () => {
    await openSession();
    const row = screen.getByRole('button', { name: /^Background job/ });
    emit('agent:turn', { sessionId: 's2', turnId: 'x', state: 'running' });
    expect(within(row).getByRole('img', { name: 'Running' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    emit('agent:turn', { sessionId: 's2', turnId: 'x', state: 'done' });
    expect(within(row).queryByRole('img', { name: 'Running' })).not.toBeInTheDocument();
  });

  it('the sidebar badge is seeded from PendingApprovals', async () => {
    backend.approvals.push(request('r1', { sessionId: 's2' }), request('r2', { sessionId: 's2' }));
    await renderApp();
    const row = screen.getByRole('button', { name: /^Background job/ });
    expect(await within(row).findByLabelText('2 pending approvals')).toBeInTheDocument();
  });
});
