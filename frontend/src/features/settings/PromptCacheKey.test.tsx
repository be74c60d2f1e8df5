import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bridgeModule as bridge, provider, resetFakeBridge, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    providers: [
      provider('a', 'Claude', { model: 'claude-sonnet-4-5', imagesByDefault: true, isDefault: true }),
      provider('b', 'vLLM', { api: 'openai-compatible', model: 'qwen', baseUrl: 'http://localhost:8000/v1', hasKey: false, keyStorage: '' }),
    ],
  });
});

async function openModels() {
  const app = await renderApp();
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const models = within(await screen.findByRole('group', { name: 'Models' }));
  await waitFor(() => expect(models.queryByText(/Loading the model providers/)).not.toBeInTheDocument());
  return { ...app, models };
}

function lastSaved() {
  return bridge.saveProvider.mock.calls.at(-1)![0];
}

describe('Settings → Models: Prompt cache key', () => {
  it('turns the key on for a compatible server that accepts it, then back to the default', async () => {
    const { user, models } = await openModels();
    await user.click(models.getByRole('button', { name: 'Edit vLLM' }));
    let form = within(models.getByRole('form', { name: 'Edit vLLM' }));
    const select = form.getByRole('combobox', { name: 'Prompt cache key' });
    expect(select).toHaveValue('default');
    expect(select).toHaveAccessibleDescription(/reject fields they do not know/);
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Default (not sent to a compatible server)', 'On', 'Off']);
    await user.selectOptions(select, 'on');
    await user.click(form.getByRole('button', { name: 'Save provider' }));
    expect(lastSaved()).toMatchObject({ id: 'b', promptCacheKey: true });
    await waitFor(() => expect(backend.providers.find((p) => p.id === 'b')?.promptCacheKey).toBe(true));

    await user.click(models.getByRole('button', { name: 'Edit vLLM' }));
    form = within(models.getByRole('form', { name: 'Edit vLLM' }));
    expect(form.getByRole('combobox', { name: 'Prompt cache key' })).toHaveValue('on');
    await user.selectOptions(form.getByRole('combobox', { name: 'Prompt cache key' }), 'default');
    await user.click(form.getByRole('button', { name: 'Save provider' }));
    expect(lastSaved()).not.toHaveProperty('promptCacheKey');
  });

  it('is not offered for Anthropic, and says OpenAI gets the key by default', async () => {
    const { user, models } = await openModels();
    await user.click(models.getByRole('button', { name: 'Edit Claude' }));
    const form = within(models.getByRole('form', { name: 'Edit Claude' }));
    expect(form.queryByRole('combobox', { name: 'Prompt cache key' })).not.toBeInTheDocument();
    await user.selectOptions(form.getByRole('combobox', { name: 'API style' }), 'openai');
    expect(form.getByRole('combobox', { name: 'Prompt cache key' })).toHaveValue('default');
    expect(form.getByRole('option', { name: 'Default (sent to OpenAI)' })).toBeInTheDocument();
  });
});
