// Flow 18: the first run on a fresh machine. No model in the environment and an empty
// data dir: the window leads straight to adding a provider (the form open, the keyboard
// in it); once the scripted server is added the welcome asks for a project; adding one
// opens a new session with the composer focused, and the first turn goes to the saved
// provider with its model and key. Each screen on the way is checked with axe-core.
import { expect, test } from '../fixtures/test';

const KEY = 'sk-first-run-8d2f61c0';
const MODEL_ID = 'e2e-first-model';

test.use({ withModel: false });

test('first run: add a provider, add a project, the first session answers', async ({ ui, workspace, provider, shot, axe }) => {
  workspace.write('README.md', '# demo\n');
  const main = ui.page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Welcome to PI-Desktop' })).toBeVisible();
  await shot('welcome with no model');
  await axe('the first-run welcome');

  await main.getByRole('button', { name: 'Add a model provider' }).click();
  const settings = ui.page.getByRole('region', { name: 'Settings', exact: true });
  const models = settings.getByRole('group', { name: 'Models' });
  const form = models.getByRole('form', { name: 'Add a provider' });
  await expect(form).toBeVisible();
  // The keyboard is already in the form.
  await expect(form.locator(':focus')).toHaveCount(1);
  await shot('add provider form');
  await axe('Settings with the add-provider form');

  await form.getByRole('textbox', { name: 'Name' }).fill('Local fake');
  await form.getByRole('combobox', { name: 'API style' }).selectOption('openai-compatible');
  await form.getByRole('textbox', { name: 'Model' }).fill(MODEL_ID);
  await form.getByRole('textbox', { name: 'Base URL' }).fill(provider.baseURL);
  await form.getByLabel('API key (optional)').fill(KEY);
  await form.getByRole('button', { name: 'Add provider' }).click();
  await expect(form).toHaveCount(0);
  await expect(models.getByRole('list', { name: 'Saved providers' }).getByRole('listitem', { name: 'Local fake' })).toContainText('Default');
  await shot('provider added');

  // Back: with a model and no project, the welcome asks for a project.
  await ui.page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(main.getByRole('heading', { name: 'What are we working on?' })).toBeVisible();
  await axe('the welcome asking for a project');
  await main.getByRole('button', { name: 'Add project by path…' }).click();
  const dialog = ui.page.getByRole('dialog', { name: 'Add project by path' });
  await dialog.getByRole('textbox', { name: 'Folder path' }).fill(workspace.dir);
  await dialog.getByRole('button', { name: 'Add project' }).click();
  await expect(dialog).toHaveCount(0);

  // A new session in it, ready to type in.
  await expect(ui.transcript.getByRole('heading', { name: 'No messages yet' })).toBeVisible();
  await expect(ui.sessionsIn(workspace.name)).toHaveCount(1);
  await expect(ui.message).toBeFocused();
  await shot('first session');
  await axe('an empty session');

  provider.enqueue({ text: 'Hello from your first session.' });
  await ui.page.keyboard.type('Hello there');
  await ui.page.keyboard.press('Enter');
  await expect(ui.assistantText().last()).toHaveText('Hello from your first session.');
  await ui.waitIdle();
  const req = await provider.waitForRequest(0);
  expect(req.body.model).toBe(MODEL_ID);
  expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(req.lastUserText()).toContain('Hello there');
  await shot('first answer');
  await axe('a session with an answer');

  const palette = await ui.openPalette();
  await expect(palette.getByRole('option').first()).toBeVisible();
  await shot('palette');
  await axe('the command palette');
});
