// Flow 2: a Write needs a permission card. Allow once → the file changes on disk and a
// change row offers Rollback → the file is back as it was. Deny → nothing is written and
// both the user and the model are told. The Changes pane is 02-review-pane-rollback.
import { expect, test } from '../fixtures/test';

const ORIGINAL = 'first line\nsecond line\n';
const CHANGED = 'first line\nchanged by the agent\n';

test.beforeEach(async ({ ui, workspace }) => {
  workspace.write('notes.txt', ORIGINAL);
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
});

test('Allow once writes the file; Rollback restores it', async ({ ui, workspace, provider, shot, axe, focusRing }) => {
  provider.enqueue(
    { text: 'Reading it first.', toolCalls: [{ id: 'call_read', name: 'Read', args: { path: 'notes.txt' } }] },
    (req) => ({ toolCalls: [{ id: 'call_write', name: 'Write', args: { path: 'notes.txt', content: CHANGED, tag: req.readTag('call_read', 'notes.txt') } }] }),
    { text: 'Updated notes.txt.' },
  );
  await ui.send('Change the second line of notes.txt');

  const card = await ui.pendingCard('Write');
  await expect(card).toContainText('notes.txt');
  await expect(card).toContainText('Overwrite notes.txt');
  await expect(card.getByRole('region', { name: 'Proposed changes to notes.txt' })).toContainText('changed by the agent');
  // Nothing is written while the card waits, and the window says it waits for you.
  expect(workspace.read('notes.txt')).toBe(ORIGINAL);
  await expect(ui.tools('Write').locator('.tool-status')).toHaveText('Waiting for your approval');
  await expect(ui.composer.getByText('Waiting for your approval')).toBeVisible();
  await expect(ui.sidebar.getByText('Waiting for your approval')).toBeVisible();
  await expect(ui.page).toHaveTitle('Waiting for your approval — PI-Desktop');
  await shot('write card');
  await axe('a session with a pending card');
  // Every stop, the card's buttons among them, shows its ring; the focus goes back to the card.
  await focusRing('a session with a pending card');

  // Keyboard: the new card has the focus on Allow once; Enter answers it.
  await expect(card.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await ui.page.keyboard.press('Enter');
  // One piece: the answered card leaves the row, which tells the decision.
  await expect(card).toHaveCount(0);
  await expect(ui.tools('Write').locator('.tool-approval')).toHaveText('Allowed once by you');
  await expect(ui.assistantText().last()).toHaveText('Updated notes.txt.');
  await ui.waitIdle();
  expect(workspace.read('notes.txt')).toBe(CHANGED);
  const written = (await provider.waitForRequest(2)).toolResult('call_write');
  expect(written).not.toMatch(/^\[tool error\]/);
  expect(written).toMatch(/notes\.txt#[0-9A-Fa-f]{4}/);

  const write = ui.tools('Write');
  await expect(write.locator('.tool-status')).toHaveText('Done');
  await expect(ui.page).toHaveTitle('PI-Desktop');
  // The same row after a reload, read from the stored result.
  await ui.page.reload();
  await expect(ui.sidebar.getByText('Loading…')).toHaveCount(0);
  await ui.openSession(workspace.name);
  await expect(ui.tools('Write').locator('.tool-approval')).toHaveText('Allowed once by you');
  await expect(ui.tools('Write').locator('.tool-wait')).toHaveText(/^waited ([\d.]+ m?s|\d+m \d+s) for approval$/);
  await expect(ui.transcript.locator('section.approval-card')).toHaveCount(0);
  const change = write.getByRole('list', { name: 'Changes' }).getByRole('listitem');
  await expect(change).toHaveCount(1);
  await expect(change).toContainText('notes.txt');
  await expect(change.getByLabel('1 added, 1 removed lines')).toBeVisible();
  await shot('written with change row');

  await change.getByRole('button', { name: 'Roll back notes.txt' }).click();
  const confirm = ui.page.getByRole('alertdialog', { name: 'Roll back this change?' });
  await expect(confirm).toContainText('Restores the previous content of notes.txt');
  await confirm.getByRole('button', { name: 'Roll back' }).click();
  await expect(change).toContainText('Rolled back');
  await expect(change.getByRole('button', { name: 'Roll back notes.txt' })).toHaveCount(0);
  expect(workspace.read('notes.txt')).toBe(ORIGINAL);
  await shot('rolled back');
});

test('Deny leaves the file absent and says so to the user and the model', async ({ ui, workspace, provider, shot }) => {
  provider.enqueue(
    { toolCalls: [{ id: 'call_write', name: 'Write', args: { path: 'denied.txt', content: 'should never exist\n' } }] },
    { text: 'Understood, I did not create denied.txt.' },
  );
  await ui.send('Create denied.txt');

  // Keyboard: Esc denies the focused card.
  const card = await ui.pendingCard('Write');
  await expect(card.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await ui.page.keyboard.press('Escape');
  await expect(card).toHaveCount(0);
  await expect(ui.tools('Write').locator('.tool-approval')).toHaveText('Denied by you');
  const write = ui.tools('Write');
  await expect(write.locator('.tool-status')).toHaveText('TOOL_DENIED');
  await expect(ui.assistantText().last()).toHaveText('Understood, I did not create denied.txt.');
  await ui.waitIdle();
  await shot('denied');

  expect(workspace.exists('denied.txt')).toBe(false);
  expect(workspace.read('notes.txt')).toBe(ORIGINAL);
  const told = (await provider.waitForRequest(1)).toolResult('call_write');
  expect(told).toMatch(/^\[tool error\] user denied permission/);

  await write.getByRole('button', { expanded: false }).click();
  await expect(write.locator('.tool-error')).toContainText('TOOL_DENIED');
  await expect(write.locator('.tool-error')).toContainText('user denied permission for Write');
  await expect(write.getByRole('list', { name: 'Changes' })).toHaveCount(0);
});

