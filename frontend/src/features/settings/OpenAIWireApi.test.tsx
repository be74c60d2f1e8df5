import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeBridge } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';
import { openaiWireApi } from './ProviderForm';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge({ providers: [] });
});

describe('openaiWireApi', () => {
  it('decides as the backend does (provider.OpenAIWireAPI)', () => {
    expect(openaiWireApi('openai', '')).toBe('responses');
    expect(openaiWireApi('openai', 'https://api.openai.com/v1')).toBe('responses');
    expect(openaiWireApi('openai', ' https://API.OpenAI.com:443/v1/ ')).toBe('responses');
    expect(openaiWireApi('openai', 'https://gateway.example.com/openai/v1')).toBe('chat');
    expect(openaiWireApi('openai', 'not a url')).toBe('chat');
    expect(openaiWireApi('openai-compatible', 'http://localhost:11434/v1')).toBe('chat');
    expect(openaiWireApi('anthropic', '')).toBeNull();
  });
});

describe('Settings → Models: the OpenAI API in use', () => {
  it('says which OpenAI API the provider will use, as the style and base URL change', async () => {
    const { user } = await renderApp();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const models = within(await screen.findByRole('group', { name: 'Models' }));
    await waitFor(() => expect(models.queryByText(/Loading the model providers/)).not.toBeInTheDocument());
    await user.click(models.getByRole('button', { name: 'Add provider' }));
    const form = within(models.getByRole('form', { name: 'Add a provider' }));
    const style = form.getByRole('combobox', { name: 'API style' });
    expect(style).not.toHaveAccessibleDescription(); // Anthropic

    await user.selectOptions(style, 'openai');
    expect(style).toHaveAccessibleDescription(expect.stringContaining('Responses API'));
    expect(style).toHaveAccessibleDescription(expect.stringContaining('keeps its reasoning between tool calls'));

    const baseUrl = form.getByRole('textbox', { name: 'Base URL (optional)' });
    await user.click(baseUrl);
    await user.paste('https://gateway.example.com/v1');
    expect(style).toHaveAccessibleDescription(expect.stringContaining('Chat Completions'));
    await user.clear(baseUrl);
    await user.paste('https://api.openai.com/v1');
    expect(style).toHaveAccessibleDescription(expect.stringContaining('Responses API'));

    await user.selectOptions(style, 'openai-compatible');
    expect(style).toHaveAccessibleDescription(expect.stringContaining('Chat Completions'));
  });
});
