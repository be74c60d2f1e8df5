import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { bridgeModule as bridge, resetFakeBridge } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

type User = Awaited<ReturnType<typeof renderApp>>['user'];

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge({
    settings: { defaultPermissionMode: 'ask', defaultCommandShell: 'zsh', permissionTimeoutSeconds: 120, theme: 'system' },
    info: {
      version: '1.2.3',
      dataDir: '/data/pi',
      commandShells: [
        { id: 'bash', label: 'Bash (/bin/bash)' },
        { id: 'zsh', label: 'Zsh (/bin/zsh)' },
        { id: 'pwsh', label: 'PowerShell 7' },
      ],
    },
  });
});

async function openSettings() {
  const app = await renderApp();
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  await screen.findByRole('heading', { level: 1, name: 'Settings' });
  await screen.findByRole('radiogroup', { name: 'Default permission mode' });
  return app;
}

describe('SettingsView', () => {
  it('loads the stored values and app facts', async () => {
    await openSettings();
    expect(screen.getByRole('radio', { name: 'Ask' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('radio', { name: 'Auto' })).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByRole('combobox', { name: 'Default command shell' })).toHaveValue('zsh');
    expect(screen.getByRole('spinbutton', { name: /Permission card timeout/ })).toHaveValue(120);
    expect(screen.getByRole('switch', { name: 'Inline visualizations' })).toHaveAttribute('aria-checked', 'false');
    expect(within(screen.getByRole('radiogroup', { name: 'Theme' })).getByRole('radio', { name: 'System' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByText('1.2.3')).toBeInTheDocument();
    expect(screen.getByText('/data/pi')).toBeInTheDocument();
    expect(screen.getByText('Changes save as you make them')).toBeInTheDocument();
  });

  it('offers the shells from Info', async () => {
    await openSettings();
    const options = within(screen.getByRole('combobox', { name: 'Default command shell' })).getAllByRole('option');
    expect(options.map((o) => [o.getAttribute('value'), o.textContent])).toEqual([
      ['bash', 'Bash (/bin/bash)'],
      ['zsh', 'Zsh (/bin/zsh)'],
      ['pwsh', 'PowerShell 7'],
    ]);
  });

  it('saves a choice at once, says so, and Undo puts the previous value back', async () => {
    const { user } = await openSettings();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Accept edits' }));
    expect(bridge.updateSettings).toHaveBeenLastCalledWith({
      defaultPermissionMode: 'accept-edits',
      defaultCommandShell: 'zsh',
      inlineVisualizations: false,
      permissionTimeoutSeconds: 120,
      theme: 'system',
      envPassthrough: [],
      envDrop: [],
    });
    expect(await screen.findByText('Default permission mode saved.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(bridge.updateSettings).toHaveBeenLastCalledWith(expect.objectContaining({ defaultPermissionMode: 'ask' })));
    expect(await screen.findByText('Default permission mode restored.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Ask' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it.each([
    ['shell', async (user: User) => user.selectOptions(screen.getByRole('combobox', { name: 'Default command shell' }), 'pwsh'), { defaultCommandShell: 'pwsh' }],
    ['visualizations', async (user: User) => user.click(screen.getByRole('switch', { name: 'Inline visualizations' })), { inlineVisualizations: true }],
    ['theme', async (user: User) => user.click(within(screen.getByRole('radiogroup', { name: 'Theme' })).getByRole('radio', { name: 'Dark' })), { theme: 'dark' }],
  ])('the %s saves when chosen, alone', async (_name, act, changed) => {
    const { user } = await openSettings();
    await act(user);
    await waitFor(() => expect(bridge.updateSettings).toHaveBeenCalledTimes(1));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      defaultPermissionMode: 'ask',
      defaultCommandShell: 'zsh',
      inlineVisualizations: false,
      permissionTimeoutSeconds: 120,
      theme: 'system',
      envPassthrough: [],
      envDrop: [],
      ...changed,
    });
  });

  it('applies a saved theme to the document', async () => {
    const { user } = await openSettings();
    await user.click(within(screen.getByRole('radiogroup', { name: 'Theme' })).getByRole('radio', { name: 'Dark' }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  });

  it('a text field saves when left or on Enter, not while typing', async () => {
    const { user } = await openSettings();
    const timeout = screen.getByRole('spinbutton', { name: /Permission card timeout/ });
    await user.clear(timeout);
    await user.type(timeout, '0');
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    await user.tab();
    await waitFor(() => expect(bridge.updateSettings).toHaveBeenCalledWith(expect.objectContaining({ permissionTimeoutSeconds: 0 })));
    expect(await screen.findByText('Permission card timeout saved.')).toBeInTheDocument();

    const pass = screen.getByRole('textbox', { name: 'Pass through anyway' });
    await user.type(pass, 'GITHUB_TOKEN{Enter}');
    await waitFor(() => expect(bridge.updateSettings).toHaveBeenLastCalledWith(expect.objectContaining({ envPassthrough: ['GITHUB_TOKEN'], permissionTimeoutSeconds: 0 })));
    expect(bridge.updateSettings).toHaveBeenCalledTimes(2);
    // Leaving a field that did not change saves nothing.
    await user.click(pass);
    await user.tab();
    expect(bridge.updateSettings).toHaveBeenCalledTimes(2);
  });

  it('shows a rejected field next to that field', async () => {
    const { user } = await openSettings();
    bridge.updateSettings.mockRejectedValueOnce(
      new BridgeError('COMMAND_SHELL_INVALID', 'shell "pwsh" is not installed', { field: 'defaultCommandShell' }),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Default command shell' }), 'pwsh');
    const select = screen.getByRole('combobox', { name: 'Default command shell' });
    await waitFor(() => expect(select).toHaveAttribute('aria-invalid', 'true'));
    expect(select).toHaveAccessibleDescription('shell "pwsh" is not installed');
    expect(screen.getByRole('spinbutton', { name: /Permission card timeout/ })).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Default command shell saved.')).not.toBeInTheDocument();

    // Choosing again clears its error and saves.
    await user.selectOptions(select, 'bash');
    await waitFor(() => expect(select).not.toHaveAttribute('aria-invalid'));
    expect(await screen.findByText('Default command shell saved.')).toBeInTheDocument();
  });

  it('validates the timeout locally before calling the backend', async () => {
    const { user } = await openSettings();
    const timeout = screen.getByRole('spinbutton', { name: /Permission card timeout/ });
    await user.clear(timeout);
    await user.type(timeout, '90000');
    await user.tab();
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    expect(timeout).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/from 0 to 86400/)).toBeInTheDocument();
  });

  it('a rejection without a field is a toast in words, with its details', async () => {
    const { user } = await openSettings();
    bridge.updateSettings.mockRejectedValueOnce(new BridgeError('STORAGE_UNAVAILABLE', 'disk I/O error'));
    await user.click(screen.getByRole('radio', { name: 'Auto' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('PI-Desktop could not read or write its data.');
    expect(alert).toHaveTextContent('disk I/O error');
    // Retry sends the same change again.
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(bridge.updateSettings).toHaveBeenCalledTimes(2));
    expect(bridge.updateSettings).toHaveBeenLastCalledWith(expect.objectContaining({ defaultPermissionMode: 'auto' }));
    expect(await screen.findByText('Default permission mode saved.')).toBeInTheDocument();
  });

  it('a failed load says so in words and Retry reads again', async () => {
    const stored = bridge.getSettings.getMockImplementation();
    if (!stored) throw new Error('the fake bridge has no getSettings');
    bridge.getSettings.mockRejectedValue(new BridgeError('STORAGE_UNAVAILABLE', 'database is locked'));
    const app = await renderApp();
    await app.user.click(screen.getByRole('button', { name: 'Settings' }));
    const alert = (await screen.findByText('Settings could not be loaded.')).closest<HTMLElement>('[role="alert"]');
    if (!alert) throw new Error('no alert around the load error');
    expect(alert).toHaveTextContent('database is locked');
    bridge.getSettings.mockImplementation(stored);
    await app.user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('radiogroup', { name: 'Default permission mode' })).toBeInTheDocument();
  });

  it('goes back to the previous pane', async () => {
    const { user } = await openSettings();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByRole('heading', { name: 'Settings' })).not.toBeInTheDocument();
    // No project and no model here: the previous pane is the first-run welcome.
    expect(screen.getByRole('heading', { name: 'Welcome to PI-Desktop' })).toBeInTheDocument();
  });

  it('keyboard arrows move the permission mode', async () => {
    const { user } = await openSettings();
    screen.getByRole('radio', { name: 'Ask' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Accept edits' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('radio', { name: 'Accept edits' })).toHaveFocus();
  });
});
