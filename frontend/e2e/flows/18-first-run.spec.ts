// Flow 18: the first run on a fresh machine. No model in the environment and an empty
// data dir: the window leads straight to adding a provider (the form open, the keyboard
// in it); once the scripted server is added the welcome asks for a project; adding one
// opens a new session with the composer focused, and the first turn goes to the saved
// provider with its model and key. Each screen on the way is checked with axe-core, and
// Tab goes round the welcome, the session, the palette and Settings with a focus ring at
// every stop. Settings is checked once more with every section's add form open, and the
// toast a saved setting leaves stays clear of the main pane once back in the session.
import { expect, test } from '../fixtures/test';

const KEY = 'sk-first-run-8d2f61c0';
const MODEL_ID = 'e2e-first-model';

test.use({ withModel: false });

test('first run: add a provider, add a project, the first session answers', async ({ ui, workspace, provider, shot, axe, focusRing }) => {
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
  await focusRing('the welcome asking for a project');
  await main.getByRole('button', { name: 'Add project by path…' }).click();
  const dialog = ui.page.getByRole('dialog', { name: 'Add project by path' });
  await expect(dialog.getByRole('textbox', { name: 'Folder path' })).toBeFocused();
  await axe('the add-project dialog');
  // Tab stays in the dialog and comes round.
  await focusRing('the add-project dialog');
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
  await focusRing('a session with an answer');

  const palette = await ui.openPalette();
  await expect(palette.getByRole('option').first()).toBeVisible();
  await shot('palette');
  await axe('the command palette');
  await focusRing('the command palette');
  await ui.page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);

  // Settings with a project and a session: a saved setting (and its Undo toast), then
  // every section's add form open at once, so one pass checks every form.
  const full = await ui.openSettings();
  await full.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).click();
  const toast = ui.page.getByRole('status').filter({ hasText: 'Theme saved.' });
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
  for (const add of ['Add server', 'Add subagent', 'Add rule']) await full.getByRole('button', { name: add, exact: true }).click();
  for (const form of ['Add an MCP server', 'Add a subagent', 'Add a rule']) await expect(full.getByRole('form', { name: form })).toBeVisible();
  await shot('settings with every add form open');
  await axe('Settings with every add form open and a toast');
  await focusRing('Settings with every add form open and a toast');

  // Back in the session the toast is still there, under the sidebar: nothing in the main
  // pane (the composer's Send among it) is covered.
  await ui.closeSettings();
  await expect(toast).toBeVisible();
  const [toastBox, mainBox] = await Promise.all([toast.boundingBox(), main.boundingBox()]);
  expect(toastBox && mainBox, 'toast and main pane on screen').toBeTruthy();
  if (toastBox && mainBox) expect(toastBox.x + toastBox.width <= mainBox.x, 'the toast reaches into the main pane').toBe(true);
  await shot('toast beside the session');
  provider.enqueue({ text: 'Second answer.' });
  await ui.message.fill('Once more');
  // A click lands only on an element nothing covers.
  await ui.composer.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(ui.assistantText().last()).toHaveText('Second answer.');
});
