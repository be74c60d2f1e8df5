// Flow 7 (second part): Stop while a permission card waits cancels the card and the turn;
// the file the call would have overwritten is untouched, and the session goes on.
import { expect, test } from '../fixtures/test';

const ORIGINAL = 'keep me\n';

test('Stop during a pending approval leaves the file untouched', async ({ ui, workspace, provider, shot }) => {
  workspace.write('keep.txt', ORIGINAL);
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  provider.enqueue(
    { toolCalls: [{ id: 'call_read', name: 'Read', args: { path: 'keep.txt' } }] },
    (req) => {
      const tag = /\[keep\.txt#([0-9A-Fa-f]{4})\]/.exec(req.toolResult('call_read'))?.[1] ?? 'none';
      return { toolCalls: [{ id: 'call_write', name: 'Write', args: { path: 'keep.txt', content: 'overwritten\n', tag } }] };
    },
  );
  await ui.send('Overwrite keep.txt');

  const card = await ui.pendingCard('Write');
  await shot('card pending');
  await ui.stopButton.click();

  await expect(card).toHaveCount(0);
  await expect(ui.tools('Write').locator('.tool-approval')).toHaveText('Not answered: the turn was stopped');
  const status = ui.transcript.locator('.turn-status');
  await expect(status).toContainText('Stopped');
  await expect(ui.tools('Write').locator('.tool-status')).not.toHaveText(/Done|Running|Waiting/);
  await ui.waitIdle();
  await shot('stopped');
  expect(workspace.read('keep.txt')).toBe(ORIGINAL);
  expect(provider.requests).toHaveLength(2);

  // The session is usable again; the model learns the call did not run.
  provider.enqueue({ text: 'Alright, I left keep.txt alone.' });
  await ui.send('Never mind');
  await expect(ui.assistantText().last()).toHaveText('Alright, I left keep.txt alone.');
  await ui.waitIdle();
  const next = await provider.waitForRequest(2);
  expect(next.toolResult('call_write')).toMatch(/^\[tool error\]/);
  expect(workspace.read('keep.txt')).toBe(ORIGINAL);
});

