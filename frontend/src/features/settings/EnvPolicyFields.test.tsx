import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { bridgeModule as bridge, resetFakeBridge } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';
import { envNamesError, parseEnvNames } from './EnvPolicyFields';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge({ settings: { envPassthrough: ['GITHUB_TOKEN'], envDrop: [] } });
});

async function openSettings() {
  const app = await renderApp();
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  await screen.findByRole('textbox', { name: 'Pass through anyway' });
  return app;
}

describe('command environment settings', () => {
  it('shows the stored lists and what is dropped by default', async () => {
    await openSettings();
    const pass = screen.getByRole('textbox', { name: 'Pass through anyway' });
    expect(pass).toHaveValue('GITHUB_TOKEN');
    expect(screen.getByRole('textbox', { name: 'Also remove' })).toHaveValue('');
    expect(pass).toHaveAccessibleDescription(/_API_KEY.*AWS_SECRET_ACCESS_KEY.*everything else \(PATH, HOME, LANG, …\) is kept/);
  });

  // Settings save as they are made: a list saves when its field is left.
  it('saves the edited lists as names', async () => {
    const { user } = await openSettings();
    const pass = screen.getByRole('textbox', { name: 'Pass through anyway' });
    await user.clear(pass);
    await user.type(pass, 'GITHUB_TOKEN,  NPM_TOKEN ');
    await user.type(screen.getByRole('textbox', { name: 'Also remove' }), 'DATABASE_URL KUBECONFIG');
    await user.tab();
    await waitFor(() =>
      expect(bridge.updateSettings).toHaveBeenLastCalledWith(
        expect.objectContaining({ envPassthrough: ['GITHUB_TOKEN', 'NPM_TOKEN'], envDrop: ['DATABASE_URL', 'KUBECONFIG'] }),
      ),
    );
    expect(await screen.findByText('Also remove saved.')).toBeInTheDocument();
    expect(pass).toHaveValue('GITHUB_TOKEN, NPM_TOKEN');
  });

  it('refuses an invalid name before calling the backend', async () => {
    const { user } = await openSettings();
    const drop = screen.getByRole('textbox', { name: 'Also remove' });
    await user.type(drop, 'MY-VAR');
    await user.tab();
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    expect(drop).toHaveAttribute('aria-invalid', 'true');
    expect(drop).toHaveAccessibleDescription(/“MY-VAR” is not a variable name/);
    // Editing the field clears its error.
    await user.clear(drop);
    expect(drop).not.toHaveAttribute('aria-invalid');
  });

  it('shows the backend’s refusal next to the list it names', async () => {
    const { user } = await openSettings();
    bridge.updateSettings.mockRejectedValueOnce(
      new BridgeError('INVALID_ARGUMENT', 'GITHUB_TOKEN is both passed through and dropped; remove it from one of the two lists', { field: 'envDrop' }),
    );
    const drop = screen.getByRole('textbox', { name: 'Also remove' });
    await user.type(drop, 'GITHUB_TOKEN');
    await user.tab();
    await waitFor(() => expect(drop).toHaveAttribute('aria-invalid', 'true'));
    expect(drop).toHaveAccessibleDescription(/both passed through and dropped/);
  });
});

describe('envNamesError', () => {
  it.each([
    ['', null],
    ['A, _B c1', null],
    ['1A', '“1A” is not a variable name: use letters, digits and underscores, not starting with a digit.'],
    ['A=B', '“A=B” is not a variable name: use letters, digits and underscores, not starting with a digit.'],
    ['*_TOKEN', '“*_TOKEN” is not a variable name: use letters, digits and underscores, not starting with a digit.'],
    ['X, X', 'X is listed twice; remove one.'],
  ])('%j → %j', (text, want) => {
    expect(envNamesError(text)).toBe(want);
  });

  it('splits on commas and whitespace', () => {
    expect(parseEnvNames(' A,B\n C ,, ')).toEqual(['A', 'B', 'C']);
  });
});
