import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { bridgeModule as bridge, provider, resetFakeBridge, type FakeBackend, type Seed } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const KEY_FILE = '/home/dev/.local/share/pi-desktop/keys.json';
let backend: FakeBackend;

function seed(s: Seed = {}) {
  backend = resetFakeBridge(s);
}

beforeEach(() => seed());

async function openModels() {
  const app = await renderApp();
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const models = within(await screen.findByRole('group', { name: 'Models' }));
  await waitFor(() => expect(models.queryByText(/Loading the model providers/)).not.toBeInTheDocument());
  return { ...app, models };
}

describe('Settings → Models', () => {
  it('lists the saved providers with the default and where each key is, never the key', async () => {
    seed({
      providers: [
        provider('a', 'Claude', { model: 'claude-sonnet-4-5', isDefault: true }),
        provider('b', 'Local', { api: 'openai-compatible', model: 'llama3.1:8b', baseUrl: 'http://localhost:11434/v1', hasKey: false, keyStorage: '' }),
        provider('c', 'GPT', { api: 'openai', model: 'gpt-5', keyStorage: KEY_FILE }),
      ],
    });
    const { models, container } = await openModels();
    const items = within(models.getByRole('list', { name: 'Saved providers' })).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('aria-label'))).toEqual(['Claude', 'Local', 'GPT']);
    const claude = within(items[0]!);
    expect(claude.getByText('Default')).toBeInTheDocument();
    expect(claude.getByText(/Key saved in/)).toHaveTextContent('Key saved in the OS keychain');
    expect(claude.queryByRole('button', { name: 'Make Claude the default' })).not.toBeInTheDocument();
    expect(within(items[1]!).getByText('No API key saved')).toBeInTheDocument();
    expect(within(items[1]!).getByText(/llama3\.1:8b/)).toBeInTheDocument();
    expect(within(items[2]!).getByText(/Key saved in/)).toHaveTextContent(`Key saved in ${KEY_FILE}`);
    expect(backend.providerKeys.a).toBe('sk-saved-a');
    expect(container).not.toHaveTextContent('sk-saved');
  });

  it('adds a provider: the key field is write-only and says where the key will go', async () => {
    seed({ providerKeyStorage: KEY_FILE });
    const { user, models, container } = await openModels();
    expect(models.getByText(/No model provider yet/)).toBeInTheDocument();
    await user.click(models.getByRole('button', { name: 'Add provider' }));
    const form = within(models.getByRole('form', { name: 'Add a provider' }));
    const key = form.getByLabelText('API key');
    expect(key).toHaveAttribute('type', 'password');
    expect(key).toHaveAccessibleDescription(expect.stringContaining(`The key will be saved in ${KEY_FILE}`));
    expect(key).toHaveAccessibleDescription(expect.stringContaining('no OS keychain is reachable'));
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Work Claude');
    await user.type(form.getByRole('textbox', { name: 'Model' }), 'claude-opus-4-5');
    await user.type(key, 'sk-typed-1');
    await user.type(form.getByRole('textbox', { name: 'Max output tokens' }), '32000');
    await user.type(form.getByRole('textbox', { name: 'Temperature' }), '0.5');
    await user.click(form.getByRole('switch', { name: 'Extended thinking' }));
    await user.click(form.getByRole('button', { name: 'Add provider' }));

    expect(bridge.saveProvider).toHaveBeenCalledWith(
      { id: '', name: 'Work Claude', api: 'anthropic', model: 'claude-opus-4-5', baseUrl: '', contextWindow: 0, maxOutputTokens: 32000, temperature: 0.5, thinking: true, isDefault: false },
      'sk-typed-1',
    );
    const item = within(await models.findByRole('listitem', { name: 'Work Claude' }));
    expect(item.getByText('Default')).toBeInTheDocument(); // the first provider
    expect(item.getByText(/Key saved in/)).toHaveTextContent(`Key saved in ${KEY_FILE}`);
    expect(models.queryByRole('form')).not.toBeInTheDocument();
    expect(container).not.toHaveTextContent('sk-typed-1');
  });

  it('edits a provider: the key is never prefilled and an empty key keeps the saved one', async () => {
    seed({ providers: [provider('a', 'Claude', { model: 'claude-sonnet-4-5', isDefault: true, contextWindow: 200000 })] });
    const { user, models } = await openModels();
    await user.click(models.getByRole('button', { name: 'Edit Claude' }));
    const form = within(models.getByRole('form', { name: 'Edit Claude' }));
    const key = form.getByLabelText('API key');
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', 'Saved — leave empty to keep');
    expect(key).toHaveAccessibleDescription(expect.stringContaining('A key is saved in the OS keychain'));
    expect(form.getByRole('textbox', { name: 'Context window (tokens)' })).toHaveValue('200000');
    const model = form.getByRole('textbox', { name: 'Model' });
    await user.clear(model);
    await user.type(model, 'claude-opus-4-5');
    await user.click(form.getByRole('button', { name: 'Save provider' }));
    expect(bridge.saveProvider).toHaveBeenCalledWith(expect.objectContaining({ id: 'a', model: 'claude-opus-4-5', contextWindow: 200000 }), '');
    expect(await models.findByText('claude-opus-4-5')).toBeInTheDocument();
    expect(backend.providerKeys.a).toBe('sk-saved-a');
  });

  it('shows a backend rejection at its field, and MODEL_NOT_CONFIGURED without a field at the form', async () => {
    seed({ providers: [provider('a', 'Claude', { isDefault: true })] });
    const { user, models } = await openModels();
    await user.click(models.getByRole('button', { name: 'Add provider' }));
    const form = within(models.getByRole('form', { name: 'Add a provider' }));
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'claude');
    await user.type(form.getByRole('textbox', { name: 'Model' }), 'm');
    await user.type(form.getByLabelText('API key'), 'sk-x');
    await user.click(form.getByRole('button', { name: 'Add provider' }));
    expect(form.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(expect.stringContaining('already saved'));
    expect(form.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');

    await user.clear(form.getByRole('textbox', { name: 'Name' }));
    await user.clear(form.getByLabelText('API key'));
    await user.click(form.getByRole('button', { name: 'Add provider' }));
    const alert = await form.findByText(/No API key is set/);
    expect(alert.closest('[role="alert"]')).toHaveTextContent('MODEL_NOT_CONFIGURED');
  });

  it('validates numbers locally before calling the backend', async () => {
    const { user, models } = await openModels();
    await user.click(models.getByRole('button', { name: 'Add provider' }));
    const form = within(models.getByRole('form', { name: 'Add a provider' }));
    await user.type(form.getByRole('textbox', { name: 'Context window (tokens)' }), '12k');
    await user.type(form.getByRole('textbox', { name: 'Temperature' }), '3');
    await user.click(form.getByRole('button', { name: 'Add provider' }));
    expect(form.getByRole('textbox', { name: 'Context window (tokens)' })).toHaveAccessibleDescription(/whole number of tokens/);
    expect(form.getByRole('textbox', { name: 'Temperature' })).toHaveAccessibleDescription(/from 0 to 2/);
    expect(bridge.saveProvider).not.toHaveBeenCalled();
  });

  it('tests a draft with the typed key, and a saved provider with its saved key', async () => {
    seed({ providers: [provider('a', 'Claude', { isDefault: true })] });
    const { user, models } = await openModels();
    // A saved provider.
    await user.click(models.getByRole('button', { name: 'Test Claude' }));
    const item = within(models.getByRole('listitem', { name: 'Claude' }));
    expect(await item.findByText(/Connected: the model answered in 420 ms/)).toBeInTheDocument();
    expect(bridge.testProvider).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'a' }), '');
    // A failing one keeps its stable code visible.
    bridge.testProvider.mockResolvedValueOnce({ ok: false, code: 'PROVIDER_UNAUTHORIZED', message: 'Anthropic rejected the API key (HTTP 401).', durationMs: 80, models: [], modelsCode: '', modelsMessage: '' });
    await user.click(models.getByRole('button', { name: 'Test Claude' }));
    const status = await item.findByText(/rejected the API key/);
    expect(status.closest('[role="status"]')).toHaveTextContent('PROVIDER_UNAUTHORIZED');
    // A draft in the add form.
    await user.click(models.getByRole('button', { name: 'Add provider' }));
    const form = within(models.getByRole('form', { name: 'Add a provider' }));
    await user.selectOptions(form.getByRole('combobox', { name: 'API style' }), 'openai-compatible');
    expect(form.queryByRole('switch', { name: 'Extended thinking' })).not.toBeInTheDocument();
    await user.type(form.getByRole('textbox', { name: 'Model' }), 'llama3.1:8b');
    await user.type(form.getByRole('textbox', { name: 'Base URL' }), 'http://localhost:11434/v1');
    await user.type(form.getByLabelText('API key (optional)'), 'sk-draft');
    await user.click(form.getByRole('button', { name: 'Test connection' }));
    expect(await form.findByText(/Connected/)).toBeInTheDocument();
    expect(bridge.testProvider).toHaveBeenLastCalledWith(
      expect.objectContaining({ id: '', api: 'openai-compatible', model: 'llama3.1:8b', baseUrl: 'http://localhost:11434/v1' }),
      'sk-draft',
    );
    expect(bridge.saveProvider).not.toHaveBeenCalled();
  });

  it('makes another provider the default and removes one after confirming', async () => {
    seed({ providers: [provider('a', 'Claude', { isDefault: true }), provider('b', 'GPT', { api: 'openai' })] });
    const { user, models } = await openModels();
    await user.click(models.getByRole('button', { name: 'Make GPT the default' }));
    expect(bridge.setDefaultProvider).toHaveBeenCalledWith('b');
    await waitFor(() => expect(within(models.getByRole('listitem', { name: 'GPT' })).getByText('Default')).toBeInTheDocument());

    await user.click(models.getByRole('button', { name: 'Remove Claude' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Claude?' });
    expect(dialog).toHaveTextContent('Its saved API key is deleted too');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(bridge.removeProvider).toHaveBeenCalledWith('a');
    await waitFor(() => expect(models.queryByRole('listitem', { name: 'Claude' })).not.toBeInTheDocument());
    expect(backend.providerKeys.a).toBeUndefined();
  });

  it('says the environment’s model is in use while nothing is saved', async () => {
    seed({ environment: { api: 'anthropic', model: 'claude-env', baseUrl: '', hasKey: true } });
    const { models } = await openModels();
    expect(models.getByRole('note')).toHaveTextContent(/environment .*anthropic · claude-env\) is in use until you add one/);
  });

  it('reloads when the providers change elsewhere, and reports a failed load', async () => {
    const { models } = await openModels();
    backend.providers.push(provider('x', 'Added elsewhere', { isDefault: true }));
    backend.emit('providers:changed');
    expect(await models.findByRole('listitem', { name: 'Added elsewhere' })).toBeInTheDocument();

    bridge.listProviders.mockRejectedValueOnce(new BridgeError('STORAGE_UNAVAILABLE', 'could not read the API key in the OS keychain'));
    backend.emit('providers:changed');
    expect(await models.findByRole('alert')).toHaveTextContent('STORAGE_UNAVAILABLE');
  });
});
