import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, mergePreviewRaw, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    gitProjects: ['p1'],
    sessions: [
      session('s1', 'p1', 'Isolated work', NOW - 60_000, { isolated: true }),
      session('s2', 'p1', 'Shared work', NOW - 120_000),
    ],
    previews: {
      s1: mergePreviewRaw('s1', { uncommitted: ['notes.txt'] }),
    },
  });
});

async function openSession(title: string) {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: new RegExp(`^${title}`) }));
  await waitFor(() => expect(screen.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-busy', 'false'));
  return r;
}

async function openMergeDialog(title = 'Isolated work') {
  const r = await openSession(title);
  await r.user.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Merge…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Merge pi-desktop/s1' });
  return { ...r, dialog: within(dialog) };
}

describe('Isolated session header and merge', () => {
  it('shows the branch and a Merge button only for isolated sessions', async () => {
    const { user } = await openSession('Isolated work');
    const header = within(screen.getByRole('banner'));
    expect(header.getByText('pi-desktop/s1')).toBeInTheDocument();
    expect(header.getByRole('button', { name: 'Merge…' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Shared work/ }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Shared work' })).toBeInTheDocument());
    expect(within(screen.getByRole('banner')).queryByRole('button', { name: 'Merge…' })).not.toBeInTheDocument();
    expect(screen.queryByText(/^pi-desktop\//)).not.toBeInTheDocument();
  });

  it('previews commits, files, diff and uncommitted files, then merges with the preview token', async () => {
    const { user, dialog } = await openMergeDialog();
    expect(bridge.mergePreview).toHaveBeenCalledWith('s1');
    const commits = within(dialog.getByRole('list', { name: 'Commits' }));
    expect(commits.getByText('Add login form')).toBeInTheDocument();
    expect(commits.getByText('abcdef1')).toBeInTheDocument();
    expect(commits.getByText('Fix typo in README')).toBeInTheDocument();
    expect(commits.getByText('0123456')).toBeInTheDocument();
    const files = within(dialog.getByRole('list', { name: 'Changed files' }));
    expect(files.getByText('src/login.ts')).toBeInTheDocument();
    expect(files.getByText('+40')).toBeInTheDocument();
    expect(dialog.getByLabelText('Diff')).toHaveTextContent('+the');
    expect(dialog.getByText(/only commits are merged/)).toBeInTheDocument();
    expect(within(dialog.getByRole('list', { name: 'Uncommitted files' })).getByText('notes.txt')).toBeInTheDocument();

    await user.click(dialog.getByRole('button', { name: 'Merge into main' }));
    expect(bridge.merge).toHaveBeenCalledWith('s1', 'tok-1');
    expect(await dialog.findByText(/Merged 2 commits into/)).toBeInTheDocument();
    expect(dialog.queryByRole('button', { name: 'Merge into main' })).not.toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the conflicting files of a WORKTREE_CONFLICT and says they stay in the worktree', async () => {
    bridge.merge.mockRejectedValueOnce(
      new BridgeError('WORKTREE_CONFLICT', 'merging main into the worktree conflicts in 2 file(s)', { files: ['src/a.ts', 'src/b.ts'] }),
    );
    const { user, dialog } = await openMergeDialog();
    await user.click(await dialog.findByRole('button', { name: 'Merge into main' }));
    const alert = within(await dialog.findByRole('alert'));
    expect(alert.getByText(/conflicts stay in the worktree/)).toBeInTheDocument();
    const conflicting = within(alert.getByRole('list', { name: 'Conflicting files' }));
    expect(conflicting.getByText('src/a.ts')).toBeInTheDocument();
    expect(conflicting.getByText('src/b.ts')).toBeInTheDocument();
    expect(alert.getByText('WORKTREE_CONFLICT')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Merge into main' })).toBeDisabled();
  });

  it('offers Refresh for a stale preview and merges with the new token', async () => {
    const { user, dialog } = await openMergeDialog();
    await dialog.findByRole('button', { name: 'Merge into main' });
    backend.previews.s1 = mergePreviewRaw('s1', { token: 'tok-2' });
    await user.click(dialog.getByRole('button', { name: 'Merge into main' }));
    expect(bridge.merge).toHaveBeenCalledWith('s1', 'tok-1');
    const alert = within(await dialog.findByRole('alert'));
    expect(alert.getByText('WORKTREE_STALE_PREVIEW')).toBeInTheDocument();
    await user.click(alert.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(bridge.mergePreview).toHaveBeenCalledTimes(2));
    await user.click(await dialog.findByRole('button', { name: 'Merge into main' }));
    expect(bridge.merge).toHaveBeenLastCalledWith('s1', 'tok-2');
    expect(await dialog.findByText(/Merged 2 commits into/)).toBeInTheDocument();
  });

  it('shows a preview error with its code and message', async () => {
    bridge.mergePreview.mockRejectedValueOnce(new BridgeError('WORKTREE_MISSING', 'the worktree folder is gone'));
    const { user } = await openSession('Isolated work');
    await user.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Merge…' }));
    const alert = within(await screen.findByRole('alert'));
    expect(alert.getByText('the worktree folder is gone')).toBeInTheDocument();
    expect(alert.getByText('WORKTREE_MISSING')).toBeInTheDocument();
  });
});

describe('Worktree setup notice', () => {
  it('shows a quiet note while running and a notice with command, exit code and output when it fails', async () => {
    await openSession('Isolated work');
    act(() => backend.emit('worktree:setup', { sessionId: 's1', state: 'running', command: 'npm ci', exitCode: 0 }));
    expect(await screen.findByText(/Running the setup command/)).toBeInTheDocument();

    // Another session's failure is not shown here.
    act(() => backend.emit('worktree:setup', { sessionId: 's2', state: 'failed', command: 'make', exitCode: 2, output: 'nope' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    const output = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    act(() => backend.emit('worktree:setup', { sessionId: 's1', state: 'failed', command: 'npm ci', exitCode: 1, output }));
    const alert = within(await screen.findByRole('alert'));
    expect(alert.getByText(/setup command failed/)).toBeInTheDocument();
    expect(alert.getByText(/exit code 1/)).toBeInTheDocument();
    expect(alert.getByText('npm ci')).toBeInTheDocument();
    const out = alert.getByLabelText('Setup output');
    expect(out).toHaveTextContent('line 1');
    expect(out).toHaveTextContent('line 8');
    expect(out).not.toHaveTextContent('line 9');
    expect(screen.queryByText(/Running the setup command/)).not.toBeInTheDocument();
  });
});
