// The decision surfaces in the whole window: mounted above the composer input, the
// input gating while the agent waits, the mode switch after an approval, and the
// sidebar badge for sessions in the background.
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, project, proposalRaw, questionRaw, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [
      session('s1', 'p1', 'Fix login bug', NOW - 60_000, { operatingMode: 'plan' }),
      session('s2', 'p1', 'Background job', NOW - 120_000),
    ],
  });
});

function emit(name: string, payload: Record<string, unknown>) {
  act(() => backend.emit(name, payload));
}

async function openSession() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
  await waitFor(() => expect(screen.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-busy', 'false'));
  return r;
}

const dbQuestion = { question: 'Which database?', options: [{ label: 'SQLite', description: 'One file' }, 'Postgres'] };

describe('decision surfaces in the window', () => {
  it('sit in the composer directly above the input; while one waits the user can only Stop', async () => {
    const { user } = await openSession();
    emit('agent:turn', { sessionId: 's1', turnId: 't1', state: 'running' });
    backend.questions.push(questionRaw('q1', 's1', [dbQuestion]));
    emit('agent:question', questionRaw('q1', 's1', [dbQuestion]));
    const composer = screen.getByRole('form', { name: 'Composer' });
    const surfaces = within(composer).getByRole('region', { name: 'Waiting for you' });
    const input = within(composer).getByRole('textbox', { name: 'Message' });
    expect(surfaces.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(surfaces).getByRole('radio', { name: 'SQLite' })).toHaveFocus();
    expect(within(composer).queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();

    // Space chooses, Enter answers the card.
    await user.keyboard(' {Enter}');
    expect(bridge.answerQuestion).toHaveBeenCalledWith('s1', 'q1', [{ selected: ['SQLite'], text: '' }]);

    backend.questions.push(questionRaw('q2', 's1', [dbQuestion]));
    emit('agent:question', questionRaw('q2', 's1', [dbQuestion]));
    await user.click(within(composer).getByRole('button', { name: 'Stop' }));
    expect(bridge.stopSession).toHaveBeenCalledWith('s1');
    emit('agent:question', { ...questionRaw('q2', 's1', [dbQuestion]), state: 'skipped', answers: [{ selected: [], text: '' }] });
    expect(within(surfaces).getByText('Skipped — the turn was stopped before an answer.')).toBeInTheDocument();
  });

  it('after an approval the mode selector and permission chip show Agent with the chosen mode', async () => {
    backend.proposals.push(proposalRaw('p1', 's1'));
    const { user } = await openSession();
    expect(screen.getByRole('radio', { name: 'Plan' })).toBeChecked();
    const card = await screen.findByRole('region', { name: 'Plan: Add a login form' });
    await user.click(within(card).getByRole('radio', { name: 'Auto' }));
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Agent' })).toBeChecked());
    expect(screen.getByRole('button', { name: 'Permission mode: Auto' })).toBeInTheDocument();
  });

  it('reopening a session shows only what still waits: settled cards stay behind, pending ones elsewhere stay', async () => {
    backend.proposals.push(proposalRaw('p1', 's1'), proposalRaw('p9', 's2', { title: 'Migrate the database' }));
    backend.questions.push(questionRaw('q1', 's1', [dbQuestion]));
    const { user } = await openSession();
    const plan = await screen.findByRole('region', { name: 'Plan: Add a login form' });
    await user.click(within(plan).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(within(plan).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument());
    const surfaces = screen.getByRole('region', { name: 'Waiting for you' });
    await user.click(within(surfaces).getByRole('radio', { name: 'SQLite' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(bridge.answerQuestion).toHaveBeenCalledWith('s1', 'q1', [{ selected: ['SQLite'], text: '' }]));
    await waitFor(() => expect(within(surfaces).queryByRole('radio', { name: 'SQLite' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: /^Background job/ }));
    expect(await screen.findByRole('region', { name: 'Plan: Migrate the database' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    await waitFor(() => expect(bridge.proposals).toHaveBeenLastCalledWith('s1'));
    await waitFor(() => expect(screen.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-busy', 'false'));
    await act(async () => {});
    expect(screen.queryByRole('region', { name: 'Waiting for you' })).not.toBeInTheDocument();
    // The other session's plan still waits: in its badge here, as a card there.
    const row = screen.getByRole('button', { name: /^Background job/ });
    expect(within(row).getByLabelText('1 plan or goal to approve')).toHaveTextContent('1');
    await user.click(row);
    const other = await screen.findByRole('region', { name: 'Plan: Migrate the database' });
    expect(within(other).getByRole('button', { name: 'Approve' })).toBeEnabled();
  });

  it("a background session's questions and plans count in its sidebar badge, not as cards here", async () => {
    backend.proposals.push(proposalRaw('p9', 's2'), proposalRaw('p8', 's2', { state: 'rejected', version: 0 }));
    await openSession();
    const row = screen.getByRole('button', { name: /^Background job/ });
    expect(await within(row).findByLabelText('1 plan or goal to approve')).toHaveTextContent('1');

    emit('agent:question', questionRaw('q9', 's2', [dbQuestion]));
    emit('permission:request', { id: 'r1', sessionId: 's2', turnId: 't1', tool: 'Bash', risk: 'high' });
    expect(within(row).getByLabelText('1 pending approval, 1 question waiting, 1 plan or goal to approve')).toHaveTextContent('3');
    expect(screen.queryByRole('region', { name: 'Waiting for you' })).not.toBeInTheDocument();

    emit('agent:question', { ...questionRaw('q9', 's2', [dbQuestion]), state: 'answered', answers: [{ selected: ['SQLite'], text: '' }] });
    expect(within(row).getByLabelText('1 pending approval, 1 plan or goal to approve')).toHaveTextContent('2');
    // Questions and plans live as long as their turn.
    emit('agent:turn', { sessionId: 's2', turnId: 't1', state: 'aborted' });
    expect(within(row).getByLabelText('1 pending approval')).toHaveTextContent('1');
  });
});
