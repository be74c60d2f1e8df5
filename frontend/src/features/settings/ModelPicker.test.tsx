import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bridgeModule as bridge, provider, resetFakeBridge } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';
import { limitsSummary, openaiWireApi } from './ProviderForm';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

async function openAddForm(seed: Parameters<typeof resetFakeBridge>[0]) {
  resetFakeBridge(seed);
  const { user } = await renderApp();
  await user.click(screen.getByRole('button', { name: 'Settings' }));
  const models = within(await screen.findByRole('group', { name: 'Models' }));
  await waitFor(() => expect(models.queryByText(/Loading the model providers/)).not.toBeInTheDocument());
  return { user, models };
}

describe('Settings → Models: the model picker', () => {
  beforeEach(() => vi.clearAllMocks());

  it('fills the model field’s suggestions from the server and keeps any typed id', async () => {
    const { user, models } = await openAddForm({ providers: [], providerModels: ['llama3.1:8b', 'qwen3:32b'] });
    await user.click(models.getByRole('button', { name: 'Add provider' }));
    const form = within(models.getByRole('form', { name: 'Add a provider' }));
    await user.selectOptions(form.getByRole('combobox', { name: 'API style' }), 'openai-compatible');
    await user.click(form.getByRole('textbox', { name: 'Base URL' }));
    await user.paste('http://localhost:11434/v1');
    const model = form.getByLabelText('Model') as HTMLInputElement;
    expect(model).not.toHaveAttribute('list');

    await user.click(form.getByRole('button', { name: 'List the server’s models' }));
    expect(await form.findByText(/The server lists 2 models: pick one or type an id/)).toBeInTheDocument();
    expect(bridge.listProviderModels).toHaveBeenLastCalledWith(expect.objectContaining({ api: 'openai-compatible', baseUrl: 'http://localhost:11434/v1' }), '');
    const listId = model.getAttribute('list');
    expect(listId).toBeTruthy();
    const options = [...document.getElementById(listId!)!.querySelectorAll('option')].map((o) => o.value);
    expect(options).toEqual(['llama3.1:8b', 'qwen3:32b']);
    expect(model).toHaveAccessibleDescription(expect.stringContaining('The server lists 2 models'));

    // Typing is filtering the suggestions, and an id not in the list stays allowed.
    await user.click(model);
    await user.paste('my-finetune:latest');
    expect(model).toHaveValue('my-finetune:latest');
    await user.click(form.getByRole('button', { name: 'Add provider' }));
    await waitFor(() => expect(bridge.saveProvider).toHaveBeenCalledWith(expect.objectContaining({ model: 'my-finetune:latest' }), ''));
  }, 20_000);

  it('says when the server has no list, and the field stays free-form', async () => {
    const { user, models } = await openAddForm({ providers: [], providerModels: null });
    await user.click(models.getByRole('button', { name: 'Add provider' }));
    const form = within(models.getByRole('form', { name: 'Add a provider' }));
    await user.click(form.getByRole('button', { name: 'List the server’s models' }));
    expect(await form.findByText(/does not list its models; type the model id\. \(MODEL_LIST_UNAVAILABLE\)/)).toBeInTheDocument();
    expect(form.getByRole('textbox', { name: 'Model' })).not.toHaveAttribute('list');
  }, 20_000);

  it('Test connection says how many models the server lists and fills the picker', async () => {
    const { user, models } = await openAddForm({ providers: [provider('a', 'Claude', { isDefault: true })], providerModels: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-5'] });
    await user.click(models.getByRole('button', { name: 'Add provider' }));
    const form = within(models.getByRole('form', { name: 'Add a provider' }));
    await user.type(form.getByRole('textbox', { name: 'Model' }), 'claude-sonnet-4-5');
    await user.type(form.getByLabelText('API key'), 'sk-ant-new');
    await user.click(form.getByRole('button', { name: 'Test connection' }));
    expect(await form.findByText(/the server lists 3 models/)).toBeInTheDocument();
    const listId = form.getByRole('combobox', { name: 'Model' }).getAttribute('list');
    expect(document.getElementById(listId!)!.querySelectorAll('option')).toHaveLength(3);
  }, 20_000);
});

describe('Settings → Models: OpenAI API and limits', () => {
  it('offers the OpenAI API for OpenAI styles with the automatic default explained, and saves the choice', async () => {
    const { user, models } = await openAddForm({ providers: [] });
    await user.click(models.getByRole('button', { name: 'Add provider' }));
    const form = within(models.getByRole('form', { name: 'Add a provider' }));
    expect(form.queryByRole('combobox', { name: 'OpenAI API' })).not.toBeInTheDocument(); // Anthropic
    await user.selectOptions(form.getByRole('combobox', { name: 'API style' }), 'openai');
    const choice = form.getByRole('combobox', { name: 'OpenAI API' });
    expect(choice).toHaveAccessibleDescription(expect.stringContaining('Automatic uses the Responses API on OpenAI’s own endpoint'));
    expect(within(choice).getByRole('option', { name: 'Automatic (Responses API here)' })).toBeInTheDocument();
    await user.type(form.getByRole('textbox', { name: 'Base URL (optional)' }), 'https://gateway.example.com/v1');
    expect(within(choice).getByRole('option', { name: 'Automatic (Chat Completions here)' })).toBeInTheDocument();
    await user.selectOptions(choice, 'responses');
    expect(form.getByRole('combobox', { name: 'API style' })).toHaveAccessibleDescription(expect.stringContaining('Responses API'));
    await user.type(form.getByRole('textbox', { name: 'Model' }), 'gpt-5');
    await user.type(form.getByLabelText('API key'), 'sk-openai');
    await user.click(form.getByRole('button', { name: 'Add provider' }));
    await waitFor(() => expect(bridge.saveProvider).toHaveBeenCalledWith(expect.objectContaining({ api: 'openai', openaiApi: 'responses' }), 'sk-openai'));
  }, 20_000);

  it('decides the wire API with the stored choice first', () => {
    expect(openaiWireApi('openai', 'https://gateway.example.com/v1', 'responses')).toBe('responses');
    expect(openaiWireApi('openai', '', 'chat')).toBe('chat');
    expect(openaiWireApi('openai-compatible', '', '')).toBe('chat');
    expect(openaiWireApi('anthropic', '', 'chat')).toBeNull();
  });

  it('shows the limits a saved model runs with and where they come from', () => {
    const known = provider('a', 'Claude', { model: 'claude-sonnet-4-5', effectiveContextWindow: 200_000, effectiveMaxOutput: 32_000, limitsKnown: true });
    expect(limitsSummary(known, 'anthropic', 'claude-sonnet-4-5')).toBe('Context window: 200k (known for this model); max output: 32k (known for this model).');
    const set = { ...known, contextWindow: 1_000_000, effectiveContextWindow: 1_000_000 };
    expect(limitsSummary(set, 'anthropic', 'claude-sonnet-4-5')).toBe('Context window: 1000k (set here); max output: 32k (known for this model).');
    const local = provider('b', 'Local', { api: 'openai-compatible', model: 'llama3.1:8b', effectiveContextWindow: 32_768, effectiveMaxOutput: 0, limitsKnown: false });
    expect(limitsSummary(local, 'openai-compatible', 'llama3.1:8b')).toBe('Context window: 32,768 (the default for this API); max output: the server’s default.');
    expect(limitsSummary(known, 'anthropic', 'claude-opus-4-5')).toBeNull(); // changed model: known once saved
  });
});
