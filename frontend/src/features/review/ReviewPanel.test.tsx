import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import type { ReviewChange } from '../../bridge/types';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, reviewChange, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;

const loginChange = reviewChange('snapA', 'src/login.ts', {
  messageId: 'm1', toolCallId: 'c1', additions: 2, deletions: 1, createdAt: NOW - 300_000,
  hunks: [{ oldStart: 9, oldLines: 4, newStart: 9, newLines: 5, lines: [' ctx9', '-old10', '+new10', '+new11', ' ctx11', ' ctx12'] }],
});
const utilChange = reviewChange('snapB', 'src/util.ts', {
  messageId: 'm2', toolCallId: 'c2', status: 'added', additions: 1, deletions: 0, createdAt: NOW - 60_000,
  hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, lines: ['+export const x = 1;'] }],
});
const logoChange = reviewChange('snapC', 'assets/logo.png', { messageId: 'm2', toolCallId: 'c3', binary: true, additions: 0, deletions: 0, createdAt: NOW - 59_000 });

beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000), session('s2', 'p1', 'Other', NOW - 120_000)],
    reviews: [structuredClone(loginChange), structuredClone(utilChange), structuredClone(logoChange)],
  });
});

async function openPanel() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
  const toggle = await screen.findByRole('button', { name: 'Changes (3)' });
  expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await r.user.click(toggle);
  const panel = screen.getByRole('complementary', { name: 'Changes' });
  return { ...r, toggle, panel: within(panel), panelEl: panel };
}

function card(panel: ReturnType<typeof within>, path: string) {
  return within(panel.getByRole('listitem', { name: path }));
}

describe('Review pane', () => {
  it('opens from the session header and groups the records by message, newest last, each with its recorded diff', async () => {
    const { toggle, panel, panelEl } = await openPanel();
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(panelEl).toHaveFocus();
    const headings = panel.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    // No transcript holds these messages' prompts: they are numbered.
    expect(headings).toEqual([expect.stringMatching(/^Message 1/), expect.stringMatching(/^Message 2/)]);
    const groups = panel.getAllByRole('region', { name: /^Message/ });
    expect(within(groups[0]!).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual(['src/login.ts']);
    expect(within(groups[1]!).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual(['src/util.ts', 'assets/logo.png']);
    expect(panel.getByText(/3 active changes/)).toBeInTheDocument();

    const login = card(panel, 'src/login.ts');
    expect(login.getByLabelText('2 added, 1 removed lines')).toHaveTextContent('+2 −1');
    expect(login.getByText('Modified')).toBeInTheDocument();
    // The recorded hunk, numbered from its starts: context 9, removed old 10, added new 10 and 11, context 11/12.
    const diff = login.getByRole('region', { name: 'Diff of src/login.ts' });
    const rows = within(diff).getAllByRole('row').map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent));
    expect(rows).toEqual([
      ['@@ −9,4 +9,5 @@'],
      ['9', '9', ' ', 'ctx9'],
      ['10', '', '−', 'old10'],
      ['', '10', '+', 'new10'],
      ['', '11', '+', 'new11'],
      ['11', '12', ' ', 'ctx11'],
      ['12', '13', ' ', 'ctx12'],
    ]);
    expect(within(diff).getByText('new10').closest('tr')).toHaveClass('diff-line-add');
    expect(within(diff).getByText('old10').closest('tr')).toHaveClass('diff-line-del');
    expect(card(panel, 'src/util.ts').getByText('Added')).toBeInTheDocument();
    expect(card(panel, 'assets/logo.png').getByText('Binary file: no diff is shown.')).toBeInTheDocument();
    // Never recomputed: the pane reads the stored records only.
    expect(bridge.reviewChanges).toHaveBeenCalledWith('s1', '');
  });

  it('collapses and expands a diff from the keyboard, and Escape closes the pane back to its button', async () => {
    const { user, toggle, panel } = await openPanel();
    const head = card(panel, 'src/login.ts').getByRole('button', { name: 'src/login.ts' });
    expect(head).toHaveAttribute('aria-expanded', 'true');
    head.focus();
    await user.keyboard('{Enter}');
    expect(head).toHaveAttribute('aria-expanded', 'false');
    expect(card(panel, 'src/login.ts').queryByRole('region', { name: 'Diff of src/login.ts' })).not.toBeInTheDocument();
    await user.keyboard(' ');
    expect(card(panel, 'src/login.ts').getByRole('region', { name: 'Diff of src/login.ts' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('complementary', { name: 'Changes' })).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });

  it('rolls back only after confirming, then marks the entry rolled back here and in the transcript', async () => {
    backend.transcripts.s1 = {
      sessionId: 's1',
      turns: [{ id: 't1', sessionId: 's1', prompt: 'edit', state: 'done', createdAt: 1 }],
      messages: [{
        seq: 1, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'end_turn', content: [],
        toolCalls: [{ id: 'c1', turnId: 't1', messageId: 'm1', toolUseId: 'u1', position: 0, tool: 'Write', args: { path: 'src/login.ts' }, state: 'done', result: { ok: true, root: 'workspace', path: 'src/login.ts', review: [loginChange] } }],
      }],
    };
    const { user, panel } = await openPanel();
    // The message is named by its turn's prompt; the other one, whose prompt is not in the transcript, by its number.
    expect(await panel.findByRole('heading', { level: 3, name: /^edit/ })).toBeInTheDocument();
    expect(panel.getByRole('heading', { level: 3, name: /^Message 2/ })).toBeInTheDocument();
    const rollbackBtn = card(panel, 'src/login.ts').getByRole('button', { name: 'Roll back src/login.ts' });

    await user.click(rollbackBtn);
    let dialog = within(screen.getByRole('alertdialog', { name: 'Roll back this change?' }));
    expect(dialog.getByText('Restores the previous content of src/login.ts (undoes 2 added lines and 1 removed line).')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(bridge.rollbackChange).not.toHaveBeenCalled();
    expect(backend.reviews[0]!.state).toBe('active');

    await user.click(rollbackBtn);
    dialog = within(screen.getByRole('alertdialog'));
    await user.click(dialog.getByRole('button', { name: 'Roll back' }));
    expect(bridge.rollbackChange).toHaveBeenCalledWith('s1', 'snapA');
    const done = await card(panel, 'src/login.ts').findByRole('status');
    expect(done).toHaveTextContent('Rolled back: src/login.ts is as before this change.');
    expect(done).toHaveFocus();
    expect(card(panel, 'src/login.ts').getByText('Rolled back')).toBeInTheDocument();
    expect(card(panel, 'src/login.ts').queryByRole('button', { name: /Roll back/ })).not.toBeInTheDocument();
    expect(panel.getByRole('listitem', { name: 'src/login.ts' })).toHaveClass('is-rolled-back');
    expect(panel.getByText(/2 active changes/)).toHaveTextContent('· 1 rolled back');
    // The header counts what is still applied.
    expect(screen.getByRole('button', { name: 'Changes (2)' })).toBeInTheDocument();
    // The other entries are untouched.
    expect(card(panel, 'src/util.ts').getByRole('button', { name: 'Roll back src/util.ts' })).toBeEnabled();
    // The transcript's inline row shows the same state.
    const log = within(screen.getByRole('log', { name: 'Transcript' }));
    expect(within(log.getByRole('list', { name: 'Changes' })).getByText('Rolled back')).toBeInTheDocument();
  });

  it('shows a conflict with its reason and what changed since, and changes nothing else', async () => {
    const { user, panel } = await openPanel();
    bridge.rollbackChange.mockRejectedValueOnce(
      new BridgeError('CONFLICT', 'src/login.ts was changed after this edit, so the rollback was refused and the file left untouched; review its current content', {
        path: 'src/login.ts', snapshotId: 'snapA', reason: 'changed',
        since: { status: 'modified', additions: 1, deletions: 0, hunks: [{ oldStart: 12, oldLines: 2, newStart: 12, newLines: 3, lines: [' ctx11', ' ctx12', '+// the user added this'] }] },
      }),
    );
    const before = structuredClone(backend.reviews);
    const reads = bridge.reviewChanges.mock.calls.length;
    await user.click(card(panel, 'src/login.ts').getByRole('button', { name: 'Roll back src/login.ts' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Roll back' }));

    const alert = within(await card(panel, 'src/login.ts').findByRole('alert'));
    expect(alert.getByText('CONFLICT')).toBeInTheDocument();
    expect(alert.getByText(/was changed after this edit, so the rollback was refused/)).toBeInTheDocument();
    expect(alert.getByText('The file was changed after this edit.')).toBeInTheDocument();
    expect(alert.getByText('Nothing was rolled back; the file was left as it is.')).toBeInTheDocument();
    expect(alert.getByLabelText('1 added, 0 removed lines')).toHaveTextContent('+1 −0');
    const since = alert.getByRole('region', { name: 'Changes to src/login.ts since the agent’s edit' });
    expect(within(since).getByText('// the user added this').closest('tr')).toHaveClass('diff-line-add');
    expect(within(since).getByText('// the user added this').closest('tr')!.querySelectorAll('td')[1]).toHaveTextContent('14');

    // Nothing else changed: the entry is still active and can be retried, the others as before, no re-read.
    expect(bridge.rollbackChange).toHaveBeenCalledTimes(1);
    expect(card(panel, 'src/login.ts').getByRole('button', { name: 'Roll back src/login.ts' })).toBeEnabled();
    expect(card(panel, 'src/login.ts').queryByText('Rolled back')).not.toBeInTheDocument();
    expect(panel.getByRole('listitem', { name: 'src/login.ts' })).not.toHaveClass('is-rolled-back');
    expect(card(panel, 'src/util.ts').getByRole('button', { name: 'Roll back src/util.ts' })).toBeEnabled();
    expect(panel.getByText(/3 active changes/)).toBeInTheDocument();
    expect(backend.reviews).toEqual(before);
    expect(bridge.reviewChanges).toHaveBeenCalledTimes(reads);
  });

  it('rolls back both halves of a move together and says so before', async () => {
    const from = reviewChange('mvA', 'old/name.ts', { messageId: 'm3', status: 'deleted', operation: 'delete', groupId: 'g1', additions: 0, deletions: 4 });
    const to = reviewChange('mvB', 'new/name.ts', { messageId: 'm3', status: 'added', operation: 'edit', groupId: 'g1', additions: 4, deletions: 0 });
    backend.reviews.push(from, to);
    bridge.rollbackChange.mockImplementationOnce(async () => {
      for (const c of backend.reviews) if (c.groupId === 'g1') c.state = 'rolledBack';
      return backend.reviews.filter((c) => c.groupId === 'g1').map((c) => ({ ...c }));
    });
    const r = await renderApp();
    await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    await r.user.click(await screen.findByRole('button', { name: 'Changes (5)' }));
    const panel = within(screen.getByRole('complementary', { name: 'Changes' }));
    await r.user.click(card(panel, 'new/name.ts').getByRole('button', { name: 'Roll back new/name.ts' }));
    const dialog = within(screen.getByRole('alertdialog'));
    expect(dialog.getByText(/half of a move/)).toHaveTextContent('old/name.ts is rolled back with it');
    await r.user.click(dialog.getByRole('button', { name: 'Roll back' }));
    expect(await card(panel, 'new/name.ts').findByRole('status')).toHaveTextContent('Rolled back: old/name.ts and new/name.ts are as before this change.');
    expect(card(panel, 'old/name.ts').getByText('Rolled back')).toBeInTheDocument();
    expect(card(panel, 'new/name.ts').getByText('Rolled back')).toBeInTheDocument();
  });

  it('refreshes when a tool result with review evidence arrives', async () => {
    backend.reviews.splice(0);
    const r = await renderApp();
    await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    await r.user.click(await screen.findByRole('button', { name: 'Changes (0)' }));
    const panel = within(screen.getByRole('complementary', { name: 'Changes' }));
    expect(await panel.findByText(/No changes yet/)).toBeInTheDocument();

    const fresh: ReviewChange = reviewChange('snapN', 'README.md', { messageId: 'm9', additions: 5, deletions: 0 });
    backend.reviews.push(fresh);
    // Another session's result does not concern this pane.
    act(() => backend.emit('agent:tool_result', { sessionId: 's2', turnId: 't', messageId: 'x', toolCallId: 'z', tool: 'Write', state: 'done', result: { ok: true, review: [fresh] } }));
    expect(panel.queryByRole('listitem', { name: 'README.md' })).not.toBeInTheDocument();
    act(() => backend.emit('agent:tool_result', { sessionId: 's1', turnId: 't', messageId: 'm9', toolCallId: 'c9', tool: 'Write', state: 'done', result: { ok: true, root: 'workspace', path: 'README.md', review: [fresh] } }));
    expect(await panel.findByRole('listitem', { name: 'README.md' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Changes (1)' })).toBeInTheDocument();
  });

  it('says when a change cannot be rolled back', async () => {
    backend.reviews.push(reviewChange('big', 'data/huge.csv', { messageId: 'm4', reversible: false, truncated: true, additions: 90_000, deletions: 2 }));
    const r = await renderApp();
    await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    await r.user.click(await screen.findByRole('button', { name: 'Changes (4)' }));
    const huge = card(within(screen.getByRole('complementary', { name: 'Changes' })), 'data/huge.csv');
    expect(huge.getByText('Not reversible')).toBeInTheDocument();
    expect(huge.queryByRole('button', { name: /Roll back/ })).not.toBeInTheDocument();
    expect(huge.getByRole('button', { name: 'data/huge.csv' })).toHaveAttribute('aria-expanded', 'true');
    expect(huge.getByText(/too large to show completely; the counts are exact/)).toBeInTheDocument();
  });
});
