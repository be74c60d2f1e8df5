import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, project, provider, resetFakeBridge, session, type FakeBackend, type Seed } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
const providers = [
  provider('a', 'Claude', { model: 'claude-sonnet-4-5', isDefault: true }),
  provider('b', 'GPT', { api: 'openai', model: 'gpt-5' }),
];

function seed(extra: Seed = {}) {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'First', NOW - 60_000), session('s2', 'p1', 'Second', NOW - 120_000)],
    providers,
    ...extra,
  });
}

beforeEach(() => seed());

async function open(title: string) {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: new RegExp(`^${title}`) }));
  return { ...r, composer: within(screen.getByRole('form', { name: 'Composer' })) };
}

describe('Model picker', () => {
  it('shows the default for a new session and pins a choice with the keyboard', async () => {
    const { user, composer } = await open('First');
    const chip = await composer.findByRole('button', { name: 'Model: Claude (default)' });
    chip.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Model' });
    const items = within(menu).getAllByRole('menuitemradio');
    expect(items.map((i) => i.textContent)).toEqual([
      'Default (Claude)Follows the default provider from Settings',
      'Claudeclaude-sonnet-4-5',
      'GPTgpt-5',
    ]);
    expect(items[0]).toHaveAttribute('aria-checked', 'true');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(bridge.setSessionProvider).toHaveBeenCalledWith('s1', 'b');
    expect(await composer.findByRole('button', { name: 'Model: GPT' })).toBeInTheDocument();
    expect(backend.sessionProviders).toEqual({ s1: 'b' });
  });

  it('keeps the choice per session and can follow the default again', async () => {
    seed({ sessionProviders: { s1: 'b' } });
    const { user, composer } = await open('First');
    await user.click(await composer.findByRole('button', { name: 'Model: GPT' }));
    const menu = await screen.findByRole('menu', { name: 'Model' });
    expect(within(menu).getByRole('menuitemradio', { name: /^GPT/ })).toHaveAttribute('aria-checked', 'true');
    await user.click(within(menu).getByRole('menuitemradio', { name: /^Default \(Claude\)/ }));
    expect(bridge.setSessionProvider).toHaveBeenCalledWith('s1', '');
    expect(await composer.findByRole('button', { name: 'Model: Claude (default)' })).toBeInTheDocument();

    // The other session never chose: it shows the default.
    await user.click(screen.getByRole('button', { name: /^Second/ }));
    expect(await within(screen.getByRole('form', { name: 'Composer' })).findByRole('button', { name: 'Model: Claude (default)' })).toBeInTheDocument();
    expect(bridge.getSessionProvider).toHaveBeenCalledWith('s2');
  });

  it('goes back and reports the error when the choice cannot be stored', async () => {
    bridge.setSessionProvider.mockRejectedValueOnce(new BridgeError('NOT_FOUND', 'no saved provider has the id "b"'));
    const { user, composer } = await open('First');
    await user.click(await composer.findByRole('button', { name: 'Model: Claude (default)' }));
    await user.click(within(await screen.findByRole('menu', { name: 'Model' })).getByRole('menuitemradio', { name: /^GPT/ }));
    expect(await screen.findByText(/no saved provider has the id/)).toBeInTheDocument();
    expect(await composer.findByRole('button', { name: 'Model: Claude (default)' })).toBeInTheDocument();
  });

  it('follows a new default from Settings', async () => {
    const { composer } = await open('First');
    await composer.findByRole('button', { name: 'Model: Claude (default)' });
    await bridge.setDefaultProvider('b');
    backend.emit('providers:changed');
    expect(await composer.findByRole('button', { name: 'Model: GPT (default)' })).toBeInTheDocument();
  });

  it('names the environment’s model, or offers to add one when nothing is configured', async () => {
    seed({ providers: [], environment: { api: 'anthropic', model: 'claude-env', baseUrl: '', hasKey: true } });
    const first = await open('First');
    expect(await first.composer.findByText('claude-env (environment)')).toBeInTheDocument();
    first.unmount();

    seed({ providers: [] });
    const { user, composer } = await open('First');
    await user.click(await composer.findByRole('button', { name: 'Add a model…' }));
    expect(await screen.findByRole('group', { name: 'Models' })).toBeInTheDocument();
  });
});

describe('Model picker and sending', () => {
  it('the picker does not get in the way of sending', async () => {
    const { user, composer } = await open('First');
    await composer.findByRole('button', { name: 'Model: Claude (default)' });
    await user.type(composer.getByRole('textbox', { name: 'Message' }), 'hello{Enter}');
    await waitFor(() => expect(bridge.sendPrompt).toHaveBeenCalledWith('s1', 'hello'));
  });
});
