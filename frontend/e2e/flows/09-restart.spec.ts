// Flow 9: quit the app (SIGTERM) and start it again on the same data dir: the project,
// the session, its transcript and its review records are back, the change can still be
// rolled back, and the model gets the earlier conversation as context. The reopened
// session exports from its menu as Markdown and as JSON. A second start on the same data
// folder hands its folder to this window and exits instead of opening another app.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../fixtures/test';

test('after a restart the session, transcript and review records are back', async ({ ui, app, workspace, provider, exportDir, shot }) => {
  workspace.write('README.md', '# demo\n');
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  provider.enqueue(
    { text: 'Creating it.', toolCalls: [{ id: 'call_write', name: 'Write', args: { path: 'hello.txt', content: 'hello from before the restart\n' } }] },
    { text: 'Created hello.txt.' },
  );
  await ui.send('Create hello.txt');
  await ui.answer('Write', 'Allow once');
  await expect(ui.assistantText().last()).toHaveText('Created hello.txt.');
  await ui.waitIdle();
  expect(workspace.read('hello.txt')).toBe('hello from before the restart\n');
  // The first prompt named the session, in the header and the sidebar.
  await expect(ui.page.locator('.pane-title')).toHaveText('Create hello.txt');
  await expect(ui.sessionsIn(workspace.name)).toContainText('Create hello.txt');
  const title = await ui.page.locator('.pane-title').textContent();
  await shot('before restart');

  await app.restart();
  await ui.open(app.url);
  await expect(ui.sessionsIn(workspace.name)).toHaveCount(1);
  await expect(ui.sessionsIn(workspace.name)).toContainText(title ?? '');
  await ui.openSession(workspace.name);
  await expect(ui.page.locator('.pane-title')).toHaveText(title ?? '');
  await expect(ui.transcript.locator('.msg-user-bubble')).toHaveText('Create hello.txt');
  await expect(ui.assistantText()).toHaveText(['Creating it.', 'Created hello.txt.']);
  const write = ui.tools('Write');
  await expect(write.locator('.tool-status')).toHaveText('Done');
  const change = write.getByRole('list', { name: 'Changes' }).getByRole('listitem');
  await expect(change).toContainText('hello.txt');
  await shot('after restart');

  // The review record survived: rolling back still works and removes the created file.
  await change.getByRole('button', { name: 'Roll back hello.txt' }).click();
  await ui.page.getByRole('alertdialog', { name: 'Roll back this change?' }).getByRole('button', { name: 'Roll back' }).click();
  await expect(change).toContainText('Rolled back');
  expect(workspace.exists('hello.txt')).toBe(false);
  await shot('rolled back after restart');

  // The model's context came back too.
  provider.enqueue({ text: 'Yes, I created hello.txt earlier.' });
  await ui.send('Did you create a file?');
  await expect(ui.assistantText().last()).toHaveText('Yes, I created hello.txt earlier.');
  await ui.waitIdle();
  const req = await provider.waitForRequest(2);
  const users = req.messages.filter((m) => m.role === 'user').map((m) => m.content);
  expect(users).toEqual(expect.arrayContaining(['Create hello.txt', 'Did you create a file?']));
  expect(req.toolResult('call_write')).toMatch(/hello\.txt#[0-9A-Fa-f]{4}/);

  // Export from the session's menu; the dev build writes into exportDir instead of
  // asking with a save dialog, and the toast names the file.
  const exportAs = async (item: string, file: string): Promise<string> => {
    // The row's actions button shows on hover, as for a mouse user.
    const row = ui.sessionsIn(workspace.name).first();
    await row.hover();
    await row.getByRole('button', { name: `Session actions for ${title}` }).click();
    await ui.page.getByRole('menu', { name: `Actions for ${title}` }).getByRole('menuitem', { name: item }).click();
    const written = path.join(exportDir, file);
    await expect(ui.page.locator('.toast[role="status"]').filter({ hasText: 'Exported to' }).last()).toHaveText(`Exported to ${written}`);
    return readFileSync(written, 'utf8');
  };
  const md = await exportAs('Export as Markdown…', `${title}.md`);
  expect(md).toContain(`# ${title}`);
  expect(md).toContain('Create hello.txt');
  expect(md).toContain('Did you create a file?');
  expect(md).toContain('Yes, I created hello.txt earlier.');
  const json = JSON.parse(await exportAs('Export as JSON…', `${title}.json`)) as {
    session: { title: string };
    turns: { prompt: string }[];
  };
  expect(json.session.title).toBe(title);
  expect(json.turns.map((t) => t.prompt)).toEqual(['Create hello.txt', 'Did you create a file?']);
  await shot('exported');

  // `pi-desktop FOLDER` while the app is open on this data folder: the running window opens
  // the folder as a project with a new session; the second start ends at once.
  const second = path.join(path.dirname(workspace.dir), 'second-app');
  mkdirSync(second, { recursive: true });
  const again = await app.launchAgain([second]);
  expect(again.output).toContain('already open');
  expect(again.code).toBe(0);
  await expect(ui.sessionsIn('second-app')).toHaveCount(1);
  await expect(ui.page.locator('.pane-title')).toHaveText(/^New session/);
  await shot('second start handed its folder over');
});
