import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge({
    projects: [project('p1', 'alpha-app'), project('p2', 'plain-folder')],
    gitProjects: ['p1'],
    sessions: [
      session('s-iso', 'p1', 'Isolated work', NOW - 60_000, { isolated: true }),
      session('s-plain', 'p1', 'Shared work', NOW - 120_000),
    ],
  });
});

const ISOLATED = 'New isolated session (git worktree)';

describe('Isolated sessions in the sidebar', () => {
  it('offers the isolated option for a git project and creates the session with isolated: true', async () => {
    const { user } = await renderApp();
    await user.click(await screen.findByRole('button', { name: 'Project actions for alpha-app' }));
    const item = await screen.findByRole('menuitem', { name: ISOLATED });
    expect(bridge.projectIsGit).toHaveBeenCalledWith('p1');
    await user.click(item);
    expect(bridge.createSession).toHaveBeenCalledWith({ projectId: 'p1', title: '', isolated: true });
    // The new session opens with its branch in the header.
    const main = screen.getByRole('main');
    expect(await within(main).findByText(/^pi-desktop\/fake-session-/)).toBeInTheDocument();
  });

  it('does not offer it for a folder that is not a git repository', async () => {
    const { user } = await renderApp();
    await user.click(await screen.findByRole('button', { name: 'Project actions for plain-folder' }));
    await waitFor(() => expect(bridge.projectIsGit).toHaveBeenCalledWith('p2'));
    await Promise.resolve();
    expect(screen.getByRole('menuitem', { name: 'New session' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: ISOLATED })).not.toBeInTheDocument();
  });

  it('marks isolated sessions with a branch icon', async () => {
    await renderApp();
    const list = within(screen.getByRole('list', { name: 'Sessions in alpha-app' }));
    const iso = await list.findByRole('button', { name: /^Isolated work/ });
    expect(within(iso).getByRole('img', { name: 'Isolated session' })).toHaveAttribute('title', expect.stringContaining('pi-desktop/s-iso'));
    const plain = list.getByRole('button', { name: /^Shared work/ });
    expect(within(plain).queryByRole('img', { name: 'Isolated session' })).not.toBeInTheDocument();
  });
});
