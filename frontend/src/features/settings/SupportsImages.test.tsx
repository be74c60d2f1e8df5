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
      provider('b', 'Local', { api: 'openai-compatible', model: 'llava:13b', baseUrl: 'http://localhost:11434/v1', hasKey: false, keyStorage: '', imagesByDefault: false }),
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

function item(models: ReturnType<typeof within>, name: string) {
  return within(models.getByRole('listitem', { name }));
}

/** The input of the last save, as the form handed it to the bridge. */
function lastSaved() {
  return bridge.saveProvider.mock.calls.at(-1)![0];
}

describe('Settings → Models: Supports images', () => {
  it('lists what each saved model gets: the default for the model, or the choice made here', async () => {
    backend.providers.push(provider('c', 'Forced', { model: 'my-vision', imagesByDefault: false, supportsImages: true }));
    const { models } = await openModels();
    expect(item(models, 'Claude').getByText('Images on — known for this model')).toBeInTheDocument();
    expect(item(models, 'Local').getByText('Images off — not known for this model')).toBeInTheDocument();
    expect(item(models, 'Forced').getByText('Images on — set here')).toBeInTheDocument();
  });

  it('forces images on for a model not known to accept them, then goes back to the default', async () => {
    const { user, models } = await openModels();
    await user.click(models.getByRole('button', { name: 'Edit Local' }));
    let form = within(models.getByRole('form', { name: 'Edit Local' }));
    const select = form.getByRole('combobox', { name: 'Supports images' });
    expect(select).toHaveValue('default');
    expect(select).toHaveAccessibleDescription(/Whether pictures from tools reach the model/);
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Default (off — not known for this model)', 'On', 'Off']);

    await user.selectOptions(select, 'on');
    await user.click(form.getByRole('button', { name: 'Test connection' }));
    expect(bridge.testProvider).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'b', supportsImages: true }), '');
    await user.click(form.getByRole('button', { name: 'Save provider' }));
    expect(lastSaved()).toMatchObject({ id: 'b', supportsImages: true });
    expect(await item(models, 'Local').findByText('Images on — set here')).toBeInTheDocument();
    expect(backend.providers.find((p) => p.id === 'b')?.supportsImages).toBe(true);

    await user.click(models.getByRole('button', { name: 'Edit Local' }));
    form = within(models.getByRole('form', { name: 'Edit Local' }));
    expect(form.getByRole('combobox', { name: 'Supports images' })).toHaveValue('on');
    await user.selectOptions(form.getByRole('combobox', { name: 'Supports images' }), 'default');
    await user.click(form.getByRole('button', { name: 'Save provider' }));
    expect(lastSaved()).not.toHaveProperty('supportsImages');
    expect(await item(models, 'Local').findByText('Images off — not known for this model')).toBeInTheDocument();
    expect(backend.providers.find((p) => p.id === 'b')).not.toHaveProperty('supportsImages');
  });

  it('forces images off for a model known to accept them', async () => {
    const { user, models } = await openModels();
    await user.click(models.getByRole('button', { name: 'Edit Claude' }));
    const form = within(models.getByRole('form', { name: 'Edit Claude' }));
    const select = form.getByRole('combobox', { name: 'Supports images' });
    expect(within(select).getByRole('option', { name: 'Default (on — known for this model)' })).toBeInTheDocument();
    await user.selectOptions(select, 'off');
    await user.click(form.getByRole('button', { name: 'Save provider' }));
    expect(lastSaved()).toMatchObject({ id: 'a', supportsImages: false });
    expect(await item(models, 'Claude').findByText('Images off — set here')).toBeInTheDocument();
  });

  it('does not guess the default of a model that is not saved yet', async () => {
    const { user, models } = await openModels();
    // A changed model: what the backend knew was about the old one.
    await user.click(models.getByRole('button', { name: 'Edit Claude' }));
    let form = within(models.getByRole('form', { name: 'Edit Claude' }));
    const model = form.getByRole('textbox', { name: 'Model' });
    await user.type(model, '-preview');
    expect(form.getByRole('option', { name: 'Default (decided from the model when saved)' })).toBeInTheDocument();
    await user.clear(model);
    await user.type(model, 'claude-sonnet-4-5');
    expect(form.getByRole('option', { name: 'Default (on — known for this model)' })).toBeInTheDocument();
    // The default belongs to the API and the model together.
    await user.selectOptions(form.getByRole('combobox', { name: 'API style' }), 'openai-compatible');
    expect(form.getByRole('option', { name: 'Default (decided from the model when saved)' })).toBeInTheDocument();
    await user.click(form.getByRole('button', { name: 'Cancel' }));

    // A new provider: the default is decided when it is saved, then listed.
    await user.click(models.getByRole('button', { name: 'Add provider' }));
    form = within(models.getByRole('form', { name: 'Add a provider' }));
    expect(form.getByRole('combobox', { name: 'Supports images' })).toHaveValue('default');
    expect(form.getByRole('option', { name: 'Default (decided from the model when saved)' })).toBeInTheDocument();
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Opus');
    await user.type(form.getByRole('textbox', { name: 'Model' }), 'claude-opus-4-5');
    await user.type(form.getByLabelText('API key'), 'sk-new');
    await user.click(form.getByRole('button', { name: 'Add provider' }));
    expect(lastSaved()).not.toHaveProperty('supportsImages');
    expect(await item(models, 'Opus').findByText('Images on — known for this model')).toBeInTheDocument();
  });
});
