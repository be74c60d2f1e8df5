import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { bridgeModule as bridge, project, resetFakeBridge, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';
import { formatBytes } from './CheckpointsSection';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app'), project('p2', 'beta-lib')],
    checkpointUsage: { p1: { projectId: 'p1', bytes: 3_460_000, checkpoints: 42, shadows: 2 } },
  });
});

async function openSection() {
  const app = await renderApp();
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const list = await screen.findByRole('list', { name: 'Checkpoint disk use by project' });
  return { ...app, list: within(list) };
}

describe('Settings → Checkpoints', () => {
  it.each([
    [0, '0 B'],
    [940, '940 B'],
    [12_595, '12.3 KB'],
    [4 * 1024 * 1024, '4.0 MB'],
    [1.25 * 1024 ** 3, '1.3 GB'],
  ])('formats %d bytes as %s', (n, want) => {
    expect(formatBytes(n)).toBe(want);
  });

  it('shows each project’s disk use and clears one only after confirming', async () => {
    const { user, list } = await openSection();
    const alpha = within(list.getByRole('listitem', { name: 'alpha-app' }));
    expect(alpha.getByText('3.3 MB · 42 checkpoints')).toBeInTheDocument();
    expect(within(list.getByRole('listitem', { name: 'beta-lib' })).getByRole('button', { name: 'Clear checkpoints of beta-lib' })).toBeDisabled();

    await user.click(alpha.getByRole('button', { name: 'Clear checkpoints of alpha-app' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Clear the checkpoints of alpha-app?' }));
    expect(confirm.getByText(/42 checkpoints \(3.3 MB\)/)).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(bridge.clearCheckpoints).not.toHaveBeenCalled();

    await user.click(alpha.getByRole('button', { name: 'Clear checkpoints of alpha-app' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Clear checkpoints' }));
    expect(await alpha.findByRole('status')).toHaveTextContent('Cleared: 3.3 MB freed.');
    expect(bridge.clearCheckpoints).toHaveBeenCalledWith('p1');
    await waitFor(() => expect(alpha.getByText('0 B · 0 checkpoints')).toBeInTheDocument());
    expect(backend.checkpointUsage.p1!.bytes).toBe(0);
  });

  it('shows a refused clear with its code', async () => {
    const { user, list } = await openSection();
    bridge.clearCheckpoints.mockRejectedValueOnce(new BridgeError('STORAGE_UNAVAILABLE', 'cannot read or write checkpoints in the database; check free disk space and retry'));
    const alpha = within(list.getByRole('listitem', { name: 'alpha-app' }));
    await user.click(alpha.getByRole('button', { name: 'Clear checkpoints of alpha-app' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Clear checkpoints' }));
    expect(await alpha.findByRole('alert')).toHaveTextContent('STORAGE_UNAVAILABLE');
  });
});
