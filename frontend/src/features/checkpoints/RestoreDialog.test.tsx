import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, checkpointRow, project, resetFakeBridge, restoreFile, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;

const turn = (id: string, prompt: string, at: number) => ({
  turn: { id, sessionId: 's1', prompt, state: 'done', createdAt: at },
  messages: [
    { seq: at, id: `p-${id}`, turnId: id, role: 'user', kind: 'prompt', stopReason: 'end_turn', content: [{ type: 'text', text: prompt }] },
    { seq: at + 1, id: `m-${id}`, turnId: id, role: 'assistant', kind: 'model', stopReason: 'end_turn', content: [{ type: 'text', text: `Done: ${prompt}` }] },
  ],
});

function seed(extra: Parameters<typeof resetFakeBridge>[0] = {}) {
  const t1 = turn('t1', 'Rename the handler', 1);
  const t2 = turn('t2', 'Just explain it', 10);
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)],
    transcripts: { s1: { sessionId: 's1', turns: [t1.turn, t2.turn], messages: [...t1.messages, ...t2.messages] } },
    checkpoints: {
      s1: [
        checkpointRow('cp-end', { turnId: 't1', kind: 'end-of-turn' }),
        checkpointRow('cp-bash', { turnId: 't1', kind: 'after-bash' }),
        checkpointRow('cp-first', { turnId: 't1', kind: 'before-first-mutation' }),
      ],
    },
    restorePlans: {
      'cp-first': [
        restoreFile('src/login.ts', { additions: 1, deletions: 1, diff: '@@ -1,2 +1,2 @@\n-export const handler = 2;\n+export const handler = 1;\n ctx\n' }),
        restoreFile('gen/out.js', { action: 'delete', modeThen: '', note: 'deletes the file', deletions: 3 }),
        restoreFile('old.txt', { action: 'create', modeNow: '', note: 'new file', additions: 1, diff: '@@ -0,0 +1,1 @@\n+old\n' }),
        restoreFile('notes.md', { conflict: true, additions: 2, diff: '@@ -1,1 +1,2 @@\n-mine\n+theirs\n+more\n' }),
        restoreFile('big.bin', { action: 'create', modeNow: '', skipped: 'a file the checkpoints exclude (ignored or over the size limit) is there now; it is left alone' }),
      ],
    },
    ...extra,
  });
}

beforeEach(() => seed());

async function openSession() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
  const log = within(await screen.findByRole('log', { name: 'Transcript' }));
  await log.findByText('Rename the handler');
  return { ...r, log };
}

function promptRow(log: ReturnType<typeof within>, text: string) {
  return within(log.getByText(text).closest('.msg-user') as HTMLElement);
}

describe('Restore files to before this message', () => {
  it('is offered under each prompt since which files changed, and previews every file before anything changes', async () => {
    const { user, log } = await openSession();
    const first = promptRow(log, 'Rename the handler');
    const button = await first.findByRole('button', { name: 'Restore files to before this message' });
    // The second turn changed nothing and no later turn did: nothing to restore there.
    expect(promptRow(log, 'Just explain it').queryByRole('button', { name: 'Restore files to before this message' })).not.toBeInTheDocument();

    await user.click(button);
    const dialog = within(await screen.findByRole('dialog', { name: 'Restore files to before this message' }));
    expect(bridge.previewRestore).toHaveBeenCalledWith('s1', 'cp-first');
    await dialog.findByText(/3 files change/);
    // Files to delete, to write back and to change back are named plainly, each with its diff.
    const deleted = within(dialog.getByRole('region', { name: 'Deleted (created since) (1)' }));
    expect(deleted.getByRole('listitem', { name: 'gen/out.js' })).toHaveTextContent('Deletes the file.');
    const created = within(dialog.getByRole('region', { name: 'Written back (missing now) (1)' }));
    expect(within(created.getByRole('listitem', { name: 'old.txt' })).getByRole('region', { name: 'Diff of old.txt' })).toHaveTextContent('old');
    const modified = within(dialog.getByRole('region', { name: 'Changed back (1)' }));
    const diff = within(modified.getByRole('region', { name: 'Diff of src/login.ts' }));
    expect(diff.getByText('export const handler = 1;').closest('tr')).toHaveClass('diff-line-add');
    expect(diff.getByText('export const handler = 2;').closest('tr')).toHaveClass('diff-line-del');
    // The conflict is listed, kept by default.
    const conflicts = within(dialog.getByRole('region', { name: /Changed by someone other than the agent \(1\)/ }));
    expect(conflicts.getByRole('listitem', { name: 'notes.md' })).toBeInTheDocument();
    expect(conflicts.getByRole('checkbox', { name: 'Overwrite notes.md' })).not.toBeChecked();
    expect(dialog.getByRole('listitem', { name: 'big.bin' })).toHaveTextContent('left alone');
    expect(bridge.restoreCheckpoint).not.toHaveBeenCalled();
    expect(dialog.getByRole('button', { name: 'Restore 3 files' })).toBeEnabled();
  });

  it('restores keeping the conflict, reports it, and Undo restores the checkpoint the restore took first', async () => {
    const { user, log } = await openSession();
    await user.click(await promptRow(log, 'Rename the handler').findByRole('button', { name: 'Restore files to before this message' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.click(await dialog.findByRole('button', { name: 'Restore 3 files' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.restores).toEqual([{ sessionId: 's1', checkpointId: 'cp-first', overwrite: [] }]);
    const note = await screen.findByText(/Restored 3 files/);
    expect(note.closest('[role="status"]')).toHaveTextContent('Restored 3 files · 2 files kept as they were');
    expect(note.closest('[role="status"]')).toHaveFocus();
    // The checkpoints are read again: the before-restore one is now the newest.
    await waitFor(() => expect(bridge.checkpoints.mock.calls.length).toBeGreaterThan(1));

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText(/Undone: 3 files back as before the restore/);
    const before = backend.restores[1]!;
    expect(before.checkpointId).toMatch(/^cp-before-/);
    expect(before.overwrite).toEqual([]);
    expect(backend.checkpoints.s1!.some((c) => c.id === before.checkpointId && c.kind === 'before-restore')).toBe(true);
  });

  it('overwrites conflicts only when chosen, file by file', async () => {
    const { user, log } = await openSession();
    await user.click(await promptRow(log, 'Rename the handler').findByRole('button', { name: 'Restore files to before this message' }));
    const dialog = within(await screen.findByRole('dialog'));
    const tick = await dialog.findByRole('checkbox', { name: 'Overwrite notes.md' });
    await user.click(tick);
    expect(dialog.getByRole('button', { name: 'Restore 4 files' })).toBeEnabled();
    await user.click(dialog.getByRole('button', { name: 'Keep all' }));
    expect(tick).not.toBeChecked();
    await user.click(dialog.getByRole('button', { name: 'Overwrite all' }));
    expect(tick).toBeChecked();
    await user.click(dialog.getByRole('button', { name: 'Restore 4 files' }));
    await screen.findByText(/Restored 4 files/);
    expect(backend.restores).toEqual([{ sessionId: 's1', checkpointId: 'cp-first', overwrite: ['notes.md'] }]);
  });

  it('closes with Escape or Cancel without restoring, keeps the focus inside, and gives it back', async () => {
    const { user, log } = await openSession();
    const button = await promptRow(log, 'Rename the handler').findByRole('button', { name: 'Restore files to before this message' });
    await user.click(button);
    const dialogEl = await screen.findByRole('dialog');
    const dialog = within(dialogEl);
    await dialog.findByText(/3 files change/);
    expect(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    // Tab from the last control wraps to the first: the focus stays in the dialog.
    dialog.getByRole('button', { name: 'Restore 3 files' }).focus();
    await user.tab();
    expect(dialogEl.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveFocus();

    await user.click(button);
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bridge.restoreCheckpoint).not.toHaveBeenCalled();
  });

  it('shows a refused restore in the dialog and changes nothing', async () => {
    const { user, log } = await openSession();
    bridge.restoreCheckpoint.mockRejectedValueOnce(new BridgeError('CHECKPOINT_NOT_CAPTURED', 'nothing was restored: the checkpoint a restore takes first failed; retry'));
    await user.click(await promptRow(log, 'Rename the handler').findByRole('button', { name: 'Restore files to before this message' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.click(await dialog.findByRole('button', { name: 'Restore 3 files' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('CHECKPOINT_NOT_CAPTURED');
    expect(screen.queryByText(/Restored/)).not.toBeInTheDocument();
  });

  it('says so when the checkpoint before the message was not captured', async () => {
    seed({ checkpoints: { s1: [checkpointRow('cp-first', { turnId: 't1', kind: 'before-first-mutation', captured: false, reason: 'not captured: slow' })] } });
    const { log } = await openSession();
    const row = promptRow(log, 'Rename the handler');
    expect(await row.findByText(/were not captured; they cannot be restored/)).toBeInTheDocument();
    expect(row.queryByRole('button', { name: 'Restore files to before this message' })).not.toBeInTheDocument();
  });
});
