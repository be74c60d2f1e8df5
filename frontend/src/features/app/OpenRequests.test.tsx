import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, pluginSummary, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000), session('s2', 'p1', 'Write the docs', NOW - 120_000)],
  });
});

describe('What other starts hand to the window', () => {
  it('opens a folder named on the command line as a project with a new session', async () => {
    backend.opens.push({ kind: 'folder', path: '/home/dev/beta', session: null, message: '' });
    await renderApp();
    expect(await screen.findByRole('heading', { level: 1, name: 'New session' })).toBeInTheDocument();
    expect(bridge.addProject).toHaveBeenCalledWith('/home/dev/beta');
    const beta = backend.projects.find((p) => p.path === '/home/dev/beta');
    expect(bridge.createSession).toHaveBeenCalledWith({ projectId: beta!.id, title: '' });
    expect(backend.opens).toEqual([]); // read once
  });

  it('shows a session handed over later, and says why an argument was refused', async () => {
    await renderApp();
    expect(bridge.pendingOpens).toHaveBeenCalledTimes(1);
    backend.opens.push(
      { kind: 'session', path: '', session: backend.sessions.find((s) => s.id === 's2')!, message: '' },
      { kind: 'refused', path: 'notes.txt', session: null, message: 'PI-Desktop opens a project folder or a .piplug plugin; notes.txt is neither' },
    );
    act(() => backend.emit('app:open'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Write the docs' })).toBeInTheDocument();
    expect(await screen.findByText(/notes.txt is neither/)).toBeInTheDocument();
    expect(bridge.pendingOpens).toHaveBeenCalledTimes(2);
  });

  it('sends a .piplug to its consent card in Settings → Plugins, installing nothing until allowed', async () => {
    backend = resetFakeBridge({ projects: [project('p1', 'alpha-app')], pluginStages: [pluginSummary('dev.acme.tools')] });
    const { user } = await renderApp();
    backend.opens.push({ kind: 'plugin', path: '/home/dev/Downloads/acme.piplug', session: null, message: '' });
    act(() => backend.emit('app:open'));
    const card = within(await screen.findByRole('region', { name: 'Plugin consent' }));
    expect(bridge.stagePluginFile).toHaveBeenCalledWith('/home/dev/Downloads/acme.piplug');
    expect(backend.plugins).toEqual([]);
    await user.click(card.getByRole('button', { name: 'Install and allow' }));
    await waitFor(() => expect(backend.plugins.map((p) => p.summary.id)).toEqual(['dev.acme.tools']));
  });
});
