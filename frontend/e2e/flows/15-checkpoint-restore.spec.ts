// Flow 15 (checkpoints, issue 20): a Bash command edits two files and creates a third;
// the Changes pane lists them under "Changed by commands" with their diffs; "Restore
// files to before this message" previews every file, restores them on disk, and Undo
// brings the command's result back.
import { expect, test } from '../fixtures/test';

const COMMAND = "sed -i 's/alpha/ALPHA/' a.txt && echo more >> b.txt && echo generated > gen.txt";

test('restore files to before a message undoes what a Bash command changed, and Undo redoes it', async ({ ui, workspace, provider, shot }) => {
  workspace.write('a.txt', 'alpha\n');
  workspace.write('b.txt', 'bravo\n');
  workspace.write('keep.txt', 'untouched\n');
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  provider.enqueue(
    { toolCalls: [{ id: 'call_sh', name: 'Bash', args: { command: COMMAND, description: 'Edit two files, generate one' } }] },
    { text: 'Changed a.txt and b.txt, generated gen.txt.' },
  );
  await ui.send('Change the files');
  await ui.answer('Bash', 'Allow once');
  await expect(ui.assistantText().last()).toHaveText('Changed a.txt and b.txt, generated gen.txt.');
  await ui.waitIdle();
  expect(workspace.read('a.txt')).toBe('ALPHA\n');
  expect(workspace.read('b.txt')).toBe('bravo\nmore\n');
  expect(workspace.read('gen.txt')).toBe('generated\n');

  // The Changes pane shows what the command did, with the diffs.
  const pane = await ui.openChanges();
  const commands = pane.getByRole('region', { name: 'Changed by commands' });
  await expect(commands.getByRole('listitem', { name: 'a.txt' })).toContainText('Modified');
  await expect(commands.getByRole('listitem', { name: 'a.txt' }).getByLabel('Diff of a.txt')).toContainText('ALPHA');
  await expect(commands.getByRole('listitem', { name: 'b.txt' }).getByLabel('1 added, 0 removed lines')).toBeVisible();
  await expect(commands.getByRole('listitem', { name: 'gen.txt' })).toContainText('Added');
  await expect(commands.getByRole('listitem', { name: 'keep.txt' })).toHaveCount(0);
  await shot('changed by commands');

  // The prompt's restore: a preview first, nothing touched until Restore.
  const prompt = ui.transcript.locator('.msg-user').filter({ hasText: 'Change the files' });
  await prompt.getByRole('button', { name: 'Restore files to before this message' }).click();
  const dialog = ui.page.getByRole('dialog', { name: 'Restore files to before this message' });
  await expect(dialog).toContainText('3 files change');
  await expect(dialog.getByRole('region', { name: 'Deleted (created since) (1)' }).getByRole('listitem', { name: 'gen.txt' })).toBeVisible();
  const back = dialog.getByRole('region', { name: 'Changed back (2)' });
  await expect(back.getByRole('listitem', { name: 'a.txt' }).getByLabel('Diff of a.txt')).toContainText('alpha');
  await expect(back.getByRole('listitem', { name: 'b.txt' })).toBeVisible();
  await shot('restore preview');
  expect(workspace.read('a.txt')).toBe('ALPHA\n');

  await dialog.getByRole('button', { name: 'Restore 3 files' }).click();
  await expect(dialog).toHaveCount(0);
  const note = ui.page.locator('.restore-note');
  await expect(note).toContainText('Restored 3 files');
  expect(workspace.read('a.txt')).toBe('alpha\n');
  expect(workspace.read('b.txt')).toBe('bravo\n');
  expect(workspace.exists('gen.txt')).toBe(false);
  expect(workspace.read('keep.txt')).toBe('untouched\n');
  await shot('restored');

  // Undo restores the checkpoint the restore took first.
  await note.getByRole('button', { name: 'Undo' }).click();
  await expect(note).toContainText('Undone: 3 files back as before the restore');
  expect(workspace.read('a.txt')).toBe('ALPHA\n');
  expect(workspace.read('b.txt')).toBe('bravo\nmore\n');
  expect(workspace.read('gen.txt')).toBe('generated\n');
  await shot('undone');
});
