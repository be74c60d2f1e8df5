import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp, renderRoot } from '../../test/render';
import { createQueryClient } from '../../state/queryClient';
import { queryKeys } from '../../state/queryKeys';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [
      session('s1', 'p1', 'Fix login bug', NOW - 60_000, { operatingMode: 'plan' }),
      session('t1', '', 'Scratch idea', NOW - 120_000),
    ],
  });
});

describe('App shell', () => {
  it('shows only a full-window error when Info rejects with SCHEMA_TOO_NEW', async () => {
    bridge.info.mockRejectedValueOnce(
      new BridgeError('SCHEMA_TOO_NEW', 'The database was written by PI-Desktop 0.9. Install that version or newer.'),
    );
    renderRoot();
    const screenAlert = await screen.findByRole('alert');
    expect(screenAlert).toHaveTextContent('The database was written by PI-Desktop 0.9. Install that version or newer.');
    expect(screenAlert).toHaveTextContent('SCHEMA_TOO_NEW');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(bridge.listProjects).not.toHaveBeenCalled();
  });

  it('shows STORAGE_CORRUPT with its own heading', async () => {
    bridge.info.mockRejectedValueOnce(new BridgeError('STORAGE_CORRUPT', 'Move pi.db aside and restart.'));
    renderRoot();
    expect(await screen.findByRole('heading', { name: 'The database is damaged' })).toBeInTheDocument();
    expect(screen.getByText('Move pi.db aside and restart.')).toBeInTheDocument();
  });

  it('welcomes with actions when nothing is selected', async () => {
    const { user } = await renderApp();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { name: 'What are we working on?' })).toBeInTheDocument();
    await user.click(within(main).getByRole('button', { name: 'Start a temporary session' }));
    expect(bridge.createSession).toHaveBeenCalledWith({ projectId: '', title: '' });
    expect(await screen.findByRole('heading', { level: 1, name: 'New session' })).toBeInTheDocument();
  });

  it('welcome "Add project" runs the folder flow', async () => {
    const { user } = await renderApp();
    bridge.chooseFolder.mockResolvedValueOnce('/home/dev/beta');
    await user.click(within(screen.getByRole('main')).getByRole('button', { name: 'Add project' }));
    expect(await screen.findByRole('button', { name: 'beta' })).toBeInTheDocument();
    expect(bridge.addProject).toHaveBeenCalledWith('/home/dev/beta');
  });

  it('shows the selected session with project, mode selector, empty transcript and a ready composer', async () => {
    const { user } = await renderApp();
    await user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { level: 1, name: 'Fix login bug' })).toBeInTheDocument();
    expect(within(main).getByText('alpha-app')).toBeInTheDocument();
    expect(within(main).getByText('/home/dev/alpha-app')).toBeInTheDocument();
    expect(within(main).getByRole('radio', { name: 'Plan' })).toHaveAttribute('aria-checked', 'true');
    expect(await within(main).findByText('No messages yet')).toBeInTheDocument();
    expect(bridge.transcriptPage).toHaveBeenCalledWith('s1', { limit: 300 });
    expect(bridge.pendingApprovals).toHaveBeenCalledWith('s1');
    // Send waits for text, not for a runtime.
    expect(within(main).getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(within(main).getByRole('textbox', { name: 'Message' }), 'hi');
    expect(within(main).getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('labels a temporary session in the header', async () => {
    const { user } = await renderApp();
    await user.click(screen.getByRole('button', { name: /^Scratch idea/ }));
    const main = screen.getByRole('main');
    expect(within(main).getByText('Temporary session')).toBeInTheDocument();
    expect(within(main).getByText('Agent')).toBeInTheDocument();
  });

  it('deselects a session that is deleted', async () => {
    const { user } = await renderApp();
    await user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    await user.click(screen.getByRole('button', { name: 'Session actions for Fix login bug' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Delete session' }));
    expect(await screen.findByRole('heading', { name: 'What are we working on?' })).toBeInTheDocument();
  });

  it("drops a deleted session's cached data and keeps the others'", async () => {
    const client = createQueryClient();
    const { user } = await renderApp(client);
    for (const id of ['s1', 't1']) {
      client.setQueryData(queryKeys.review(id), []);
      client.setQueryData(queryKeys.mergePreview(id), null);
    }
    const cached = (id: string) => client.getQueryCache().findAll({ queryKey: queryKeys.session(id) }).length;
    expect(cached('s1')).toBe(2);
    await user.click(screen.getByRole('button', { name: 'Session actions for Fix login bug' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Delete session' }));
    await waitFor(() => expect(bridge.deleteSession).toHaveBeenCalledWith('s1'));
    await waitFor(() => expect(cached('s1')).toBe(0));
    expect(cached('t1')).toBe(2);
  });

  it('applies the theme from settings and follows settings:changed', async () => {
    backend.settings.theme = 'dark';
    await renderApp();
    expect(document.documentElement.dataset.theme).toBe('dark');
    backend.emit('settings:changed', { ...backend.settings, theme: 'light' });
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
  });

  it('still starts when settings fail to load, and says so', async () => {
    bridge.getSettings.mockRejectedValueOnce(new BridgeError('INTERNAL', 'settings table missing'));
    await renderApp();
    expect(await screen.findByRole('alert')).toHaveTextContent('settings table missing');
  });
});
