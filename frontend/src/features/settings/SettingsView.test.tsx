import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { bridgeModule as bridge, resetFakeBridge } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

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
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
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

  it('saves the full settings object after changing the permission mode', async () => {
    const { user } = await openSettings();
    await user.click(screen.getByRole('radio', { name: 'Accept edits' }));
    expect(screen.getByRole('radio', { name: 'Accept edits' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      defaultPermissionMode: 'accept-edits',
      defaultCommandShell: 'zsh',
      inlineVisualizations: false,
      permissionTimeoutSeconds: 120,
      theme: 'system',
      envPassthrough: [],
      envDrop: [],
    });
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('sends edited shell, toggle, timeout and theme', async () => {
    const { user } = await openSettings();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Default command shell' }), 'pwsh');
    await user.click(screen.getByRole('switch', { name: 'Inline visualizations' }));
    const timeout = screen.getByRole('spinbutton', { name: /Permission card timeout/ });
    await user.clear(timeout);
    await user.type(timeout, '0');
    await user.click(within(screen.getByRole('radiogroup', { name: 'Theme' })).getByRole('radio', { name: 'Dark' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      defaultPermissionMode: 'ask',
      defaultCommandShell: 'pwsh',
      inlineVisualizations: true,
      permissionTimeoutSeconds: 0,
      theme: 'dark',
      envPassthrough: [],
      envDrop: [],
    });
    // The saved theme is applied to the document.
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  });

  it('shows a rejected field next to that field', async () => {
    const { user } = await openSettings();
    bridge.updateSettings.mockRejectedValueOnce(
      new BridgeError('COMMAND_SHELL_INVALID', 'shell "pwsh" is not installed', { field: 'defaultCommandShell' }),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Default command shell' }), 'pwsh');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const select = screen.getByRole('combobox', { name: 'Default command shell' });
    await waitFor(() => expect(select).toHaveAttribute('aria-invalid', 'true'));
    expect(select).toHaveAccessibleDescription('shell "pwsh" is not installed');
    expect(screen.getByRole('spinbutton', { name: /Permission card timeout/ })).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Settings saved')).not.toBeInTheDocument();

    // Editing the field clears its error.
    await user.selectOptions(select, 'bash');
    expect(select).not.toHaveAttribute('aria-invalid');
  });

  it('validates the timeout locally before calling the backend', async () => {
    const { user } = await openSettings();
    const timeout = screen.getByRole('spinbutton', { name: /Permission card timeout/ });
    await user.clear(timeout);
    await user.type(timeout, '90000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    expect(timeout).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/from 0 to 86400/)).toBeInTheDocument();
  });

  it('a rejection without a field shows a form-level error', async () => {
    const { user } = await openSettings();
    bridge.updateSettings.mockRejectedValueOnce(new BridgeError('INVALID_ARGUMENT', 'settings are invalid'));
    await user.click(screen.getByRole('radio', { name: 'Auto' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('settings are invalid')).toBeInTheDocument();
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
