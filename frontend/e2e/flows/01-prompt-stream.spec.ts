// Flow 1: add a project, start a session, send a prompt, watch the answer stream in.
// Then, keyboard first: the palette (Ctrl+K) starts a second session, and the sidebar's
// message search finds the first session's answer and opens that session at it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { API_KEY, MODEL } from '../fixtures/fakeProvider';
import { Gate, expect, test } from '../fixtures/test';

test('a prompt in a new project session streams the answer and is kept', async ({ ui, app, root, workspace, provider, shot }) => {
  workspace.write('README.md', '# demo\n');
  await shot('empty window');

  const project = await ui.addProjectByPath(workspace.dir, workspace.name);
  await expect(project).toHaveAttribute('title', workspace.dir);
  await ui.newSession(workspace.name);
  await shot('new session');

  const midway = new Gate();
  provider.enqueue({ text: ['Streaming ', 'from ', 'the ', midway, 'fake ', 'model.'] });
  await ui.send('Say hello');

  // Half the answer is on screen while the model is still sending.
  await midway.reached;
  const bubble = ui.assistantText();
  await expect(bubble).toHaveText('Streaming from the');
  await expect(bubble).toHaveClass(/is-streaming/);
  await expect(ui.stopButton).toBeVisible();
  await shot('answer streaming');

  midway.open();
  await expect(bubble).toHaveText('Streaming from the fake model.');
  await expect(bubble).not.toHaveClass(/is-streaming/);
  await ui.waitIdle();
  // The response's usage as the fake server reported it; no price is known for its model.
  const usage = ui.transcript.getByRole('note', { name: 'Usage of this response' });
  await expect(usage).toHaveText('10 tokens in · 5 out · —');
  await shot('answer complete');

  // A burst of deltas with no pause between frames still reads in order.
  const burst = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ');
  provider.enqueue({ text: burst, delayMs: 0 });
  await ui.send('Count quickly');
  await expect(ui.assistantText().last()).toHaveText(burst);
  await ui.waitIdle();

  // What went over the wire: the prompt, the model, the key, the tools.
  const req = await provider.waitForRequest(0);
  expect(req.lastUserText()).toContain('Say hello');
  expect(req.body.model).toBe(MODEL);
  expect(req.body.stream).toBe(true);
  expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect(req.toolNames).toEqual(expect.arrayContaining(['Read', 'Write', 'Edit', 'Bash']));

  // On disk: the conversation is in the data dir's database, so a fresh page gets it back.
  expect(existsSync(path.join(root, 'data', 'pi.sqlite'))).toBe(true);
  await ui.open(app.url);
  await expect(ui.sessionsIn(workspace.name)).toHaveCount(1);
  await ui.openSession(workspace.name);
  await expect(ui.transcript.locator('.msg-user')).toHaveText(['Say hello', 'Count quickly']);
  await expect(ui.assistantText()).toHaveText(['Streaming from the fake model.', burst]);
  await expect(usage).toHaveText(['10 tokens in · 5 out · —', '10 tokens in · 5 out · —']);
  await shot('reloaded');

  // The palette opens with Ctrl+K and runs "New session" (in the open session's project).
  const palette = await ui.openPalette();
  await palette.getByRole('combobox').fill('new session');
  await expect(palette.getByRole('option').first()).toHaveAccessibleName('New session, Ctrl+N');
  await shot('palette');
  await ui.page.keyboard.press('Enter');
  await expect(palette).toHaveCount(0);
  await expect(ui.transcript.getByRole('heading', { name: 'No messages yet' })).toBeVisible();
  await expect(ui.sessionsIn(workspace.name)).toHaveCount(2);
  provider.enqueue({ text: 'Nothing about streams here.' });
  await ui.send('A second session');
  await expect(ui.assistantText().last()).toHaveText('Nothing about streams here.');
  await ui.waitIdle();

  // Search finds the answer in the other session; choosing it opens that session there.
  const hits = await ui.searchMessages('fake model');
  await expect(hits).toHaveCount(1);
  await expect(hits.first()).toContainText('Streaming from the fake model.');
  await expect(hits.first()).toContainText('Say hello');
  await expect(hits.first().locator('mark')).toHaveText(['fake', 'model']);
  await shot('search hits');
  await hits.first().click();
  await expect(ui.page.locator('.pane-title')).toHaveText('Say hello');
  const target = ui.transcript.locator('.transcript-row').filter({ hasText: 'Streaming from the fake model.' });
  await expect(target).toBeFocused();
  await expect(target).toBeInViewport();
  await shot('opened at the hit');
});
