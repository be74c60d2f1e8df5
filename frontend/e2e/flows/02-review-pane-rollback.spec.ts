// Flow 2 (review pane): an allowed Write shows up in the session's Changes pane with its
// diff; Rollback from the pane, behind its confirmation, restores the file on disk and
// marks the entry rolled back — in the pane, under the tool, and after a reload.
import { expect, test } from '../fixtures/test';

const ORIGINAL = 'alpha\nbeta\ngamma\n';
const CHANGED = 'alpha\nBETA from the agent\ngamma\ndelta\n';

test('a Write is listed in the Changes pane and rolled back from there', async ({ app, ui, workspace, provider, shot, axe, focusRing }) => {
  workspace.write('list.txt', ORIGINAL);
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  provider.enqueue(
    { toolCalls: [{ id: 'call_read', name: 'Read', args: { path: 'list.txt' } }] },
    (req) => ({ toolCalls: [{ id: 'call_write', name: 'Write', args: { path: 'list.txt', content: CHANGED, tag: req.readTag('call_read', 'list.txt') } }] }),
    { text: 'Edited list.txt.' },
  );
  await ui.send('Edit list.txt');
  await ui.answer('Write', 'Allow once');
  await expect(ui.assistantText().last()).toHaveText('Edited list.txt.');
  await ui.waitIdle();
  expect(workspace.read('list.txt')).toBe(CHANGED);

  // The header counts the change; the pane lists it under the message that made it.
  await expect(ui.sessionPane.getByRole('button', { name: 'Changes (1)' })).toBeVisible();
  const pane = await ui.openChanges();
  await expect(pane.locator('.review-summary')).toHaveText(/^1 active change · \+2 −1$/);
  // The message is named by its prompt.
  await expect(pane.getByRole('heading', { name: /^Edit list.txt/ })).toBeVisible();
  const entry = pane.getByRole('listitem', { name: 'list.txt' });
  await expect(entry).toContainText('Modified');
  await expect(entry.getByLabel('2 added, 1 removed lines')).toBeVisible();
  const diff = entry.getByLabel('Diff of list.txt');
  await expect(diff).toContainText('BETA from the agent');
  await expect(diff).toContainText('delta');
  await shot('changes pane');
  await axe('the Changes pane');
  await focusRing('the Changes pane');

  // Cancel first: nothing happens.
  await entry.getByRole('button', { name: 'Roll back list.txt' }).click();
  const confirm = ui.page.getByRole('alertdialog', { name: 'Roll back this change?' });
  await expect(confirm).toContainText('Restores the previous content of list.txt');
  await expect(confirm).toContainText('undoes 2 added lines and 1 removed line');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect(workspace.read('list.txt')).toBe(CHANGED);

  await entry.getByRole('button', { name: 'Roll back list.txt' }).click();
  await shot('confirmation');
  await confirm.getByRole('button', { name: 'Roll back' }).click();
  await expect(entry.getByRole('status')).toHaveText('Rolled back: list.txt is as before this change.');
  await expect(entry).toContainText('Rolled back');
  await expect(entry.getByRole('button', { name: 'Roll back list.txt' })).toHaveCount(0);
  await expect(pane.locator('.review-summary')).toHaveText(/^0 active changes · \+0 −0 · 1 rolled back$/);
  expect(workspace.read('list.txt')).toBe(ORIGINAL);
  // The change row under the tool follows.
  const row = ui.tools('Write').getByRole('list', { name: 'Changes' }).getByRole('listitem');
  await expect(row).toContainText('Rolled back');
  await expect(row.getByRole('button', { name: 'Roll back list.txt' })).toHaveCount(0);
  await shot('rolled back');

  // The record keeps its state: reload the page and open the pane again.
  await ui.open(app.url);
  await ui.openSession(workspace.name);
  const again = await ui.openChanges();
  const kept = again.getByRole('listitem', { name: 'list.txt' });
  await expect(kept).toContainText('Rolled back');
  await expect(kept.getByRole('button', { name: 'Roll back list.txt' })).toHaveCount(0);
  expect(workspace.read('list.txt')).toBe(ORIGINAL);
});
