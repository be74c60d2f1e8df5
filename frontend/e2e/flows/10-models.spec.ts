// Flow 10: Settings → Models. Add a provider that points at the scripted model server
// with its own key and model id; Test connection reaches it with that key; once saved
// (the first provider becomes the default) the composer's model picker shows it, and the
// next turn goes to it with its model and key. The key is kept in the data dir's 0600 key
// file (the keychain is off for the tests) and never shown again.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { API_KEY } from '../fixtures/fakeProvider';
import { expect, test } from '../fixtures/test';

const SAVED_KEY = 'sk-saved-provider-4f1c9a7e2b';
const SAVED_MODEL = 'e2e-saved-model';

test('add a provider, test the connection, pick it in the composer', async ({ ui, root, workspace, provider, shot, axe }) => {
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  // Before: the model from the environment.
  await expect(ui.modelChip).toHaveText('e2e-model (environment)');

  const settings = await ui.openSettings();
  const models = settings.getByRole('group', { name: 'Models' });
  await expect(models.getByRole('note')).toContainText('PI_DESKTOP_PROVIDER: openai-compatible · e2e-model');
  await models.getByRole('button', { name: 'Add provider' }).click();
  const form = models.getByRole('form', { name: 'Add a provider' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Local fake');
  await form.getByRole('combobox', { name: 'API style' }).selectOption('openai-compatible');
  await form.getByRole('textbox', { name: 'Model' }).fill(SAVED_MODEL);
  await form.getByRole('textbox', { name: 'Base URL' }).fill(provider.baseURL);
  await form.getByLabel('API key (optional)').fill(SAVED_KEY);
  await expect(form).toContainText(`The key will be saved in ${path.join(root, 'data', 'keys.json')}`);

  provider.enqueue({ text: 'pong' });
  provider.models = ['e2e-model', SAVED_MODEL, 'e2e-other-model'];
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Connected' })).toHaveText(
    /^\s*Connected: the model answered in \d+ ms · the server lists 3 models$/,
  );
  // The server's list fills the model field's suggestions, with the same key.
  expect(provider.modelListAuth).toEqual([`Bearer ${SAVED_KEY}`]);
  // (With a list to suggest from, the field is a combobox.)
  await expect(form.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue(SAVED_MODEL);
  await expect(form.getByTestId('model-options').locator('option')).toHaveCount(3);
  const ping = await provider.waitForRequest(0);
  expect(ping.headers.authorization).toBe(`Bearer ${SAVED_KEY}`);
  expect(ping.body.model).toBe(SAVED_MODEL);
  expect(ping.lastUserText()).toBe('ping');
  await shot('test connection');
  await axe('Settings → Models with a connection test passed');

  await form.getByRole('button', { name: 'Add provider' }).click();
  await expect(form).toHaveCount(0);
  const item = models.getByRole('list', { name: 'Saved providers' }).getByRole('listitem', { name: 'Local fake' });
  await expect(item).toContainText('Default');
  await expect(item).toContainText(`OpenAI-compatible · ${SAVED_MODEL} · ${provider.baseURL}`);
  await expect(item).toContainText(`Key saved in ${path.join(root, 'data', 'keys.json')}`);
  await expect(models.getByRole('note')).toHaveCount(0);
  // The key is on disk, private, and not on the page.
  const keyFile = path.join(root, 'data', 'keys.json');
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  expect(readFileSync(keyFile, 'utf8')).toContain(SAVED_KEY);
  expect(await ui.page.content()).not.toContain(SAVED_KEY);
  await shot('saved');

  // The composer's picker shows it, as the default and as a choice.
  await ui.closeSettings();
  await ui.openSession(workspace.name);
  await expect(ui.modelChip).toHaveAccessibleName('Model: Local fake (default)');
  await ui.modelChip.click();
  const menu = ui.page.getByRole('menu', { name: 'Model' });
  await expect(menu.getByRole('menuitemradio')).toHaveText([/^Default \(Local fake\)/, /^Local fake/]);
  await menu.getByRole('menuitemradio', { name: /^Local fake/ }).click();
  await expect(ui.modelChip).toHaveAccessibleName('Model: Local fake');
  await shot('model picker');

  // The next turn goes to the saved provider, with its model and key.
  provider.enqueue({ text: 'Answered by the saved provider.' });
  await ui.send('Which model are you?');
  await expect(ui.assistantText().last()).toHaveText('Answered by the saved provider.');
  await ui.waitIdle();
  const turn = await provider.waitForRequest(1);
  expect(turn.body.model).toBe(SAVED_MODEL);
  expect(turn.headers.authorization).toBe(`Bearer ${SAVED_KEY}`);
  expect(turn.headers.authorization).not.toContain(API_KEY);
});
