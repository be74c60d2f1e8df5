// Flow 3: "Allow for session" answers later cards of the same tool in the same session,
// and only there: another tool still asks, and so does the same tool in another session.
import { expect, test } from '../fixtures/test';

test('Allow for session covers later Writes of that session only', async ({ ui, workspace, provider, shot }) => {
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);

  provider.enqueue(
    { toolCalls: [{ id: 'call_a', name: 'Write', args: { path: 'a.txt', content: 'A\n' } }] },
    { toolCalls: [{ id: 'call_b', name: 'Write', args: { path: 'b.txt', content: 'B\n' } }] },
    { toolCalls: [{ id: 'call_sh', name: 'Bash', args: { command: 'echo from-bash > bash.txt', description: 'Write bash.txt' } }] },
    { text: 'Wrote a.txt and b.txt; the command was not run.' },
  );
  await ui.send('Create a.txt and b.txt, then run a command');

  const first = await ui.answer('Write', 'Allow for session');
  await expect(first).toHaveCount(0);
  await expect(ui.tools('Write').first().locator('.tool-approval')).toHaveText('Allowed for this session by you');

  // The second Write runs without a card; a different tool (Bash) still asks.
  const bashCard = await ui.pendingCard('Bash');
  await expect(ui.tools('Write')).toHaveCount(2);
  await expect(ui.tools('Write').nth(1).locator('.tool-status')).toHaveText('Done');
  expect(workspace.read('b.txt')).toBe('B\n');
  await expect(ui.transcript.locator('section.approval-card')).toHaveCount(1);
  await shot('second write without a card, bash asks');

  await bashCard.getByRole('button', { name: 'Deny' }).click();
  await expect(ui.assistantText().last()).toHaveText('Wrote a.txt and b.txt; the command was not run.');
  await ui.waitIdle();
  expect(workspace.read('a.txt')).toBe('A\n');
  expect(workspace.exists('bash.txt')).toBe(false);
  await expect(ui.transcript.locator('section.approval-card')).toHaveCount(0);
  await expect(ui.tools('Write').locator('.tool-approval')).toHaveText(['Allowed for this session by you', 'Allowed for this session by you']);
  await expect(ui.tools('Bash').locator('.tool-approval')).toHaveText('Denied by you');

  // A new session of the same project starts without the grant.
  await ui.newSession(workspace.name);
  provider.enqueue(
    { toolCalls: [{ id: 'call_c', name: 'Write', args: { path: 'c.txt', content: 'C\n' } }] },
    { text: 'Created c.txt.' },
  );
  await ui.send('Create c.txt');
  const again = await ui.pendingCard('Write');
  expect(workspace.exists('c.txt')).toBe(false);
  await shot('other session asks again');
  await again.getByRole('button', { name: 'Allow once' }).click();
  await expect(ui.assistantText().last()).toHaveText('Created c.txt.');
  await ui.waitIdle();
  expect(workspace.read('c.txt')).toBe('C\n');
});
