// Flow 14: Task subagents. The agent delegates to two builtin subagents in one batch: explore
// reads a file, general Writes one, which needs the user's approval (default mode). The card
// says which delegate asks, in the general row and in the composer; the user allows it
// there. Both rows go to done, the parent's TaskWait gets both reports and it answers. The
// rows come back from stored data after a reload, with the delegate's calls and report.
//
// The model is scripted by request: a delegate's request carries its definition's body as
// its system prompt, the parent's the main one, and each conversation answers by how many
// tool results it has, so the two delegates and the parent may call in any order.
import { expect, test } from '../fixtures/test';
import type { ChatRequest, Reply } from '../fixtures/fakeProvider';

const EXPLORE = 'You are a read-only investigator working for another agent.';
const GENERAL = 'You are an agent doing one self-contained task for another agent.';
const NOTES = '# Notes\n\nWritten by the general delegate.\n';
const EXPLORE_REPORT = 'The entry point is **src/main.ts**; it exports `start`.';
const GENERAL_REPORT = 'Wrote NOTES.md with a short note.';
const ANSWER = 'Both delegates reported: the entry point is src/main.ts, and NOTES.md is written.';

function route(req: ChatRequest): Reply {
  const system = req.systemText();
  const results = req.toolResults().length;
  if (system.includes(EXPLORE)) {
    return results === 0 ? { toolCalls: [{ id: 'call_read', name: 'Read', args: { path: 'src/main.ts' } }] } : { text: EXPLORE_REPORT };
  }
  if (system.includes(GENERAL)) {
    return results === 0 ? { toolCalls: [{ id: 'call_write', name: 'Write', args: { path: 'NOTES.md', content: NOTES } }] } : { text: GENERAL_REPORT };
  }
  if (results === 0) {
    return {
      text: 'I will split this between two delegates.',
      toolCalls: [
        { id: 'call_task_explore', name: 'Task', args: { subagent: 'explore', description: 'find the entry point', prompt: 'Which file is the entry point, and what does it export?' } },
        { id: 'call_task_general', name: 'Task', args: { subagent: 'general', description: 'write NOTES.md', prompt: 'Create NOTES.md with a short note.' } },
      ],
    };
  }
  if (results === 2) return { toolCalls: [{ id: 'call_wait', name: 'TaskWait', args: {} }] };
  return { text: ANSWER };
}

test('two delegates, one asks, the user approves, both reports arrive', async ({ app, ui, workspace, provider, shot }) => {
  workspace.write('src/main.ts', 'export function start() {}\n');
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  // Parent: Task ×2, TaskWait, answer; each delegate: one call, then its report.
  for (let i = 0; i < 7; i++) provider.enqueue(route);
  await ui.send('Find the entry point and write NOTES.md, in parallel.');

  const explore = ui.transcript.getByRole('region', { name: 'Delegate explore' });
  const general = ui.transcript.getByRole('region', { name: 'Delegate general' });
  await expect(explore.getByRole('button', { name: /explore/ })).toContainText('find the entry point');
  await expect(general.getByRole('button', { name: /general/ })).toContainText('write NOTES.md');

  // The general delegate's Write waits for the user: its row says so and shows the card,
  // and the composer shows the same card, saying who asks.
  await expect(general.locator('.delegate-state')).toHaveText('waiting for you');
  const inRow = general.getByRole('region', { name: 'Allow Write?' });
  await expect(inRow).toContainText('requested by general');
  await expect(inRow).toContainText('NOTES.md');
  const waiting = ui.composer.getByRole('region', { name: 'Delegates waiting for you' });
  const card = waiting.getByRole('region', { name: 'Allow Write?' });
  await expect(card).toContainText('requested by general');
  expect(workspace.exists('NOTES.md')).toBe(false);
  await expect(ui.sidebar.getByLabel('1 pending approval')).toBeVisible();
  await shot('delegate card in its row and the composer');

  await card.getByRole('button', { name: 'Allow once', exact: true }).click();
  await expect(waiting).toHaveCount(0);
  await expect(general.locator('.delegate-state')).toHaveText('done');
  await expect(explore.locator('.delegate-state')).toHaveText('done');
  await expect(general.locator('.delegate-tools')).toHaveText('1 tool');
  await expect(explore.locator('.delegate-tools')).toHaveText('1 tool');
  await expect(ui.assistantText().last()).toHaveText(ANSWER);
  await ui.waitIdle();
  expect(workspace.read('NOTES.md')).toBe(NOTES);
  await expect(ui.sidebar.getByLabel(/pending approval/)).toHaveCount(0);

  // TaskWait handed the parent both reports; no delegate's conversation reached it.
  const last = await provider.waitForRequest(6);
  expect(last.systemText()).not.toContain(GENERAL);
  const reports = last.toolResult('call_wait');
  expect(reports).toContain('src/main.ts');
  expect(reports).toContain(GENERAL_REPORT);
  expect(last.messages.some((m) => JSON.stringify(m).includes(EXPLORE))).toBe(false);
  // The delegates' calls are theirs: the parent's transcript has no Read or Write row.
  await expect(ui.tools('Read')).toHaveCount(0);
  await expect(ui.tools('Write')).toHaveCount(0);
  await shot('both done');

  await general.getByRole('button', { name: /general/ }).click();
  const write = general.locator('.tool-block[data-tool="Write"]');
  await expect(write.locator('.tool-status')).toHaveText('Done');
  await expect(write).toContainText('NOTES.md');
  await expect(general.getByRole('group', { name: 'Report of general' })).toContainText(GENERAL_REPORT);
  await expect(general.getByRole('region', { name: 'Write' })).toContainText('Allowed once');
  await shot('general opened');

  // After a reload the rows are rebuilt from what was stored.
  await ui.open(app.url);
  await ui.openSession(workspace.name);
  await expect(explore.locator('.delegate-state')).toHaveText('done');
  await expect(general.locator('.delegate-state')).toHaveText('done');
  await explore.getByRole('button', { name: /explore/ }).click();
  await expect(explore.locator('.tool-block[data-tool="Read"]')).toContainText('src/main.ts');
  const report = explore.getByRole('group', { name: 'Report of explore' });
  await expect(report.locator('strong')).toHaveText('src/main.ts');
  await shot('explore opened after reload');
});
