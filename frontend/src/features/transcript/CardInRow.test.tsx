import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)],
  });
});

const base = { sessionId: 's1', turnId: 't1' };
const call = { ...base, messageId: 'm1', toolCallId: 'c1', toolUseId: 'u1', tool: 'Write' };

function emit(name: string, payload: Record<string, unknown>) {
  act(() => backend.emit(name, payload));
}

function card(extra: Record<string, unknown> = {}) {
  return {
    id: 'r1', ...base, toolCallId: 'c1', tool: 'Write', risk: 'high', reason: 'changes a file in the workspace',
    preview: 'content="# Changelog\\n\\nfirst", path="CHANGELOG.md"', path: '/home/dev/alpha-app/CHANGELOG.md', external: false,
    workspace: '/home/dev/alpha-app', createdAt: NOW, diff: '@@ -0,0 +1,2 @@\n+# Changelog\n+first\n', diffNote: 'new file', ...extra,
  };
}

async function openWithWaitingWrite() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
  await waitFor(() => expect(screen.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-busy', 'false'));
  emit('agent:turn', { ...base, state: 'running' });
  emit('agent:message', { ...base, messageId: 'm1', role: 'assistant', kind: 'model', state: 'streaming' });
  emit('agent:tool_call', { ...call, phase: 'ready', args: { path: 'CHANGELOG.md', content: '# Changelog\n\nfirst' } });
  emit('agent:tool_call', { ...call, phase: 'running' });
  emit('permission:request', card());
  const log = within(screen.getByRole('log', { name: 'Transcript' }));
  const row = log.getByText('CHANGELOG.md', { selector: '.tool-target' }).closest<HTMLElement>('.tool-block')!;
  return { ...r, log, row };
}

describe('a card inside its tool row', () => {
  it('waits in the row, the footer, the sidebar and the title; says what it will do; keeps the raw arguments behind Details', async () => {
    const { row } = await openWithWaitingWrite();
    const c = within(row).getByRole('region', { name: 'Allow Write?' });
    expect(row.querySelector('.tool-status')).toHaveTextContent('Waiting for your approval');
    expect(row.querySelector('.tool-duration')).toBeNull();
    expect(c).toHaveTextContent('Create CHANGELOG.md');
    expect(c).not.toHaveClass('is-risky');
    expect(within(c).getByRole('region', { name: 'Proposed changes to CHANGELOG.md' })).toBeVisible();
    // The escaped arguments are not repeated above the diff: only inside Details.
    const details = c.querySelector('details')!;
    expect(details).not.toHaveAttribute('open');
    expect(within(details).getByLabelText('Preview')).toHaveTextContent('content="# Changelog');
    // Allow once is the primary answer; every answer shows its key.
    const once = within(c).getByRole('button', { name: 'Allow once' });
    expect(once).toHaveClass('btn-primary');
    expect(once).toHaveAttribute('aria-keyshortcuts', 'Enter');
    expect(within(c).getByRole('button', { name: 'Allow for session' })).toHaveAttribute('aria-keyshortcuts', 'Shift+Enter');
    const deny = within(c).getByRole('button', { name: 'Deny' });
    expect(deny).not.toHaveClass('btn-danger');
    expect(deny).toHaveAttribute('aria-keyshortcuts', 'Escape');
    // The new card took the focus and was announced.
    await waitFor(() => expect(once).toHaveFocus());
    expect(screen.getByText(/^Waiting for your approval: Write: Create CHANGELOG\.md$/)).toHaveAttribute('aria-live', 'polite');
    expect(within(screen.getByRole('form', { name: 'Composer' })).getByText('Waiting for your approval')).toBeInTheDocument();
    const sidebar = screen.getByRole('navigation', { name: 'Sidebar' });
    await waitFor(() => expect(within(sidebar).getByText('Waiting for your approval')).toBeInTheDocument());
    await waitFor(() => expect(document.title).toBe('Waiting for your approval — PI-Desktop'));
  });

  it('answered, the card leaves the row, which says who allowed it and times the run apart from the wait', async () => {
    const { row, user } = await openWithWaitingWrite();
    const c = within(row).getByRole('region', { name: 'Allow Write?' });
    await waitFor(() => expect(within(c).getByRole('button', { name: 'Allow once' })).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(bridge.resolveApproval).toHaveBeenCalledWith('s1', 'r1', 'allow-once');
    emit('permission:resolved', { id: 'r1', sessionId: 's1', outcome: 'allow-once' });
    await waitFor(() => expect(within(row).queryByRole('region')).not.toBeInTheDocument());
    expect(row).toHaveTextContent('Allowed once by you');
    emit('agent:tool_call', { ...call, phase: 'started', waitedMs: 9_000 });
    expect(row).toHaveTextContent('waited 9.0 s for approval');
    emit('agent:tool_result', {
      ...call, state: 'done', modelText: 'ok', isError: false,
      result: { ok: true, path: 'CHANGELOG.md', decision: 'allow-once', approval: { by: 'user', mode: 'ask', waitMs: 9_000 } },
    });
    expect(row.querySelector('.tool-status')).toHaveTextContent('Done');
    expect(row).toHaveTextContent('Allowed once by you');
    expect(row.querySelector('.tool-wait')).toHaveTextContent('waited 9.0 s for approval');
    // The focus went back to the row, not to the page.
    expect(row.querySelector('.tool-head')).toHaveFocus();
    await waitFor(() => expect(document.title).toBe('PI-Desktop'));
  });

  it('Escape denies and Shift+Enter allows for the session, from anywhere in the card', async () => {
    const { row, user } = await openWithWaitingWrite();
    const c = within(row).getByRole('region', { name: 'Allow Write?' });
    const summary = within(c).getByText('Details');
    summary.focus();
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(bridge.resolveApproval).toHaveBeenLastCalledWith('s1', 'r1', 'allow-session');
    await user.keyboard('{Escape}');
    expect(bridge.resolveApproval).toHaveBeenLastCalledWith('s1', 'r1', 'deny');
  });

  it('a Bash card names the command and its folder and is coloured as risky; an outside path says so', async () => {
    const { user } = await renderApp();
    backend.approvals.push(
      card({ id: 'r2', toolCallId: 'c2', tool: 'Bash', path: '', diff: '', diffNote: '', preview: 'command="npm test"',
        command: { decision: 'ask', reason: '', dialect: 'posix', commands: [{ text: 'npm test', wrappers: [], decision: 'ask', reason: 'no rule allows “npm test”', rules: [] }], writes: [], matched: [] } }),
      card({ id: 'r3', toolCallId: 'c3', path: '/etc/hosts', external: true, diffNote: 'outside the session\'s folders: not read before you allow it, so no preview', diff: '' }),
    );
    await user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    const log = within(screen.getByRole('log', { name: 'Transcript' }));
    const bash = await log.findByRole('region', { name: 'Allow Bash?' });
    expect(bash).toHaveTextContent('Run npm test in alpha-app');
    expect(bash).toHaveClass('is-risky');
    expect(bash).toHaveTextContent('Runs a command');
    const outside = log.getByRole('region', { name: 'Allow Write?' });
    expect(outside).toHaveClass('is-risky');
    expect(outside).toHaveTextContent('Overwrite /etc/hosts');
    expect(outside).toHaveTextContent('Outside the workspace');
  });
});

describe('a card that took the focus never takes a message meant for the composer', () => {
  it('a letter goes back to the message box and Space answers nothing', async () => {
    const { row, user } = await openWithWaitingWrite();
    const c = within(row).getByRole('region', { name: 'Allow Write?' });
    await waitFor(() => expect(within(c).getByRole('button', { name: 'Allow once' })).toHaveFocus());
    await user.keyboard(' ');
    expect(within(c).getByRole('button', { name: 'Allow once' })).toHaveFocus();
    await user.keyboard('run the tests');
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(box).toHaveFocus();
    expect(box).toHaveValue('run the tests');
    expect(bridge.resolveApproval).not.toHaveBeenCalled();
    expect(within(row).getByRole('region', { name: 'Allow Write?' })).toBeInTheDocument();
  });

  it('a card arriving while the user types a message leaves the focus in the message box', async () => {
    const r = await renderApp();
    await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    await waitFor(() => expect(screen.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-busy', 'false'));
    const box = screen.getByRole('textbox', { name: 'Message' });
    await r.user.click(box);
    await r.user.keyboard('thanks');
    emit('agent:turn', { ...base, state: 'running' });
    emit('agent:message', { ...base, messageId: 'm1', role: 'assistant', kind: 'model', state: 'streaming' });
    emit('agent:tool_call', { ...call, phase: 'ready', args: { path: 'CHANGELOG.md', content: '# Changelog\n\nfirst' } });
    emit('permission:request', card());
    await screen.findByRole('region', { name: 'Allow Write?' });
    expect(box).toHaveFocus();
    await r.user.keyboard('{Enter}');
    expect(bridge.resolveApproval).not.toHaveBeenCalled();
  });
});
