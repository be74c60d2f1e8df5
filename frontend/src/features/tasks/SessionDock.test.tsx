// The container in the real app: mounted in the composer above the input, per session,
// and its view state survives leaving the session (the store lives above the pane).
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000), session('s2', 'p1', 'Quiet session', NOW - 120_000)],
    todos: { s1: [{ content: 'Reproduce the bug', status: 'completed' }, { content: 'Fix it', status: 'in_progress', activeForm: 'Fixing it' }] },
    tasks: [{ id: 'k1', sessionId: 's1', command: 'npm run dev', state: 'running', startedAt: new Date(NOW - 3_000).toISOString() }],
  });
});

async function open(r: Awaited<ReturnType<typeof renderApp>>, title: string) {
  await r.user.click(screen.getByRole('button', { name: new RegExp(`^${title}`) }));
}

describe('the todo + task container in the session pane', () => {
  it('sits inside the composer, above the message input, and only for a session with something to show', async () => {
    const r = await renderApp();
    await open(r, 'Fix login bug');
    const dock = await screen.findByRole('region', { name: 'Todos and background tasks' });
    const composer = screen.getByRole('form', { name: 'Composer' });
    expect(composer).toContainElement(dock);
    const input = within(composer).getByRole('textbox', { name: 'Message' });
    expect(dock.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(dock).getByText('Fixing it')).toBeInTheDocument();
    expect(dock).toHaveTextContent('1/2');
    expect(dock).toHaveTextContent('1 running');

    await r.user.click(within(dock).getByRole('tab', { name: 'Tasks' }));
    await open(r, 'Quiet session');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Todos and background tasks' })).not.toBeInTheDocument());
    // A task of s1 starting while s2 is on screen shows nowhere here, and s1 remembers its tab.
    act(() => backend.emit('task:started', { id: 'k2', sessionId: 's1', command: 'npm test', state: 'running', startedAt: new Date(NOW).toISOString() }));
    expect(screen.queryByRole('region', { name: 'Todos and background tasks' })).not.toBeInTheDocument();
    await open(r, 'Fix login bug');
    const again = await screen.findByRole('region', { name: 'Todos and background tasks' });
    expect(within(again).getByRole('tab', { name: 'Tasks' })).toHaveAttribute('aria-selected', 'true');
    expect(within(again).getByRole('listitem', { name: 'npm test' })).toBeInTheDocument();
    expect(again).toHaveTextContent('2 running');
  });
});
