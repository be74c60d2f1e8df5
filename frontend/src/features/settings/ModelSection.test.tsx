import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelSettings } from '../../bridge/types';
import { bridgeModule as bridge, resetFakeBridge, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const KEY_FILE = '/home/dev/.config/pi-desktop/secrets/model-key';
let backend: FakeBackend;

function seed(model: Partial<ModelSettings> = {}) {
  backend = resetFakeBridge({ model: { keyStorage: KEY_FILE, ...model } });
}

beforeEach(() => seed());

async function openModel() {
  const app = await renderApp();
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const form = within(await screen.findByRole('form', { name: 'Model settings' }));
  return { ...app, form };
}

describe('Settings → Model', () => {
  it('loads the saved model and shows where the key is stored', async () => {
    seed({ api: 'anthropic', model: 'claude-sonnet-4-5', contextWindow: 200000, maxOutputTokens: 0, thinking: true, hasKey: true });
    const { form } = await openModel();
    expect(form.getByRole('combobox', { name: 'Provider' })).toHaveValue('anthropic');
    expect(form.getByRole('textbox', { name: 'Model' })).toHaveValue('claude-sonnet-4-5');
    expect(form.getByRole('spinbutton', { name: 'Context window (tokens)' })).toHaveValue(200000);
    expect(form.getByRole('spinbutton', { name: 'Max output tokens' })).toHaveValue(0);
    expect(form.getByRole('switch', { name: 'Extended thinking' })).toHaveAttribute('aria-checked', 'true');
    const key = form.getByLabelText('API key');
    expect(key).toHaveAttribute('type', 'password');
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', 'Saved — leave empty to keep');
    expect(key).toHaveAccessibleDescription(expect.stringContaining(`Stored in a private file readable only by you: ${KEY_FILE}`));
    expect(form.getByRole('button', { name: 'Save model' })).toBeDisabled();
    expect(screen.queryByText(/environment/)).not.toBeInTheDocument();
  });

  it('saves the settings with the typed key, then clears the key field', async () => {
    const { user, form } = await openModel();
    const provider = form.getByRole('combobox', { name: 'Provider' });
    await user.selectOptions(provider, 'openai-compatible');
    // Thinking is an Anthropic option; the base URL is required for compatible servers.
    expect(form.queryByRole('switch', { name: 'Extended thinking' })).not.toBeInTheDocument();
    expect(form.getByRole('textbox', { name: 'Base URL' })).toBeInTheDocument();
    await user.type(form.getByRole('textbox', { name: 'Model' }), 'llama3.1:8b');
    await user.type(form.getByRole('textbox', { name: 'Base URL' }), 'http://localhost:11434/v1');
    await user.type(form.getByRole('spinbutton', { name: 'Context window (tokens)' }), '32768');
    await user.type(form.getByLabelText('API key'), 'sk-typed-123');
    await user.click(form.getByRole('button', { name: 'Save model' }));

    expect(bridge.setModelSettings).toHaveBeenCalledWith(
      expect.objectContaining({
        api: 'openai-compatible',
        model: 'llama3.1:8b',
        baseUrl: 'http://localhost:11434/v1',
        contextWindow: 32768,
        maxOutputTokens: 0,
        thinking: false,
      }),
      'sk-typed-123',
    );
    expect(await form.findByText('Model saved')).toBeInTheDocument();
    const key = form.getByLabelText('API key');
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', 'Saved — leave empty to keep');
    expect(backend.apiKey).toBe('sk-typed-123');
  });

  it('an empty key field keeps the saved key', async () => {
    seed({ api: 'openai', model: 'gpt-5', hasKey: true });
    const { user, form } = await openModel();
    expect(form.getByRole('textbox', { name: 'Base URL (optional)' })).toHaveValue('');
    const model = form.getByRole('textbox', { name: 'Model' });
    await user.clear(model);
    await user.type(model, 'gpt-5-mini');
    await user.click(form.getByRole('button', { name: 'Save model' }));
    expect(bridge.setModelSettings).toHaveBeenCalledWith(expect.objectContaining({ api: 'openai', model: 'gpt-5-mini' }), '');
    expect(await form.findByText('Model saved')).toBeInTheDocument();
  });

  it('shows a MODEL_NOT_CONFIGURED rejection next to the form and keeps the typed values', async () => {
    const { user, form } = await openModel();
    await user.type(form.getByRole('textbox', { name: 'Model' }), 'claude-sonnet-4-5');
    await user.click(form.getByRole('button', { name: 'Save model' }));
    const alert = await form.findByRole('alert');
    expect(alert).toHaveTextContent('the model is not configured: missing key');
    expect(alert).toHaveTextContent('MODEL_NOT_CONFIGURED');
    expect(form.getByRole('textbox', { name: 'Model' })).toHaveValue('claude-sonnet-4-5');
    expect(screen.queryByText('Model saved')).not.toBeInTheDocument();
  });

  it('never displays the API key, before or after saving', async () => {
    seed({ api: 'anthropic', model: 'claude-sonnet-4-5', hasKey: true });
    const { user, form, container } = await openModel();
    expect(backend.apiKey).toBe('sk-saved-secret');
    expect(container).not.toHaveTextContent('sk-saved-secret');
    expect(form.getByLabelText('API key')).toHaveValue('');
    for (const input of container.querySelectorAll('input')) expect(input.value).not.toContain('sk-');

    await user.type(form.getByLabelText('API key'), 'sk-new-secret');
    expect(form.getByLabelText('API key')).toHaveAttribute('type', 'password');
    await user.click(form.getByRole('button', { name: 'Save model' }));
    await form.findByText('Model saved');
    expect(container).not.toHaveTextContent('sk-new-secret');
    for (const input of container.querySelectorAll('input')) expect(input.value).not.toContain('sk-');
  });

  it('says the environment’s model is in use while nothing is saved', async () => {
    seed({ fromEnvironment: true });
    await openModel();
    expect(screen.getByRole('note')).toHaveTextContent(/environment .*is in use until you save one/);
  });

  it('validates the token limits locally', async () => {
    seed({ model: 'claude-sonnet-4-5', hasKey: true });
    const { user, form } = await openModel();
    const max = form.getByRole('spinbutton', { name: 'Max output tokens' });
    await user.clear(max);
    await user.type(max, '1.5');
    await user.click(form.getByRole('button', { name: 'Save model' }));
    expect(bridge.setModelSettings).not.toHaveBeenCalled();
    await waitFor(() => expect(max).toHaveAttribute('aria-invalid', 'true'));
  });
});
