// Flow 4 (background task): a Bash with runInBackground shows in the composer's task
// container. With the Todos tab on screen, the new task raises a badge on the Tasks tab
// instead of stealing the tab; a running task offers Stop but never Remove; once it ends
// it offers Remove and stays for a 10-second grace, then leaves. The model reads the
// finished task through BashOutput (loaded with ToolSearch).
import { expect, test } from '../fixtures/test';

// Prints, waits until the test creates stop.flag (at most 20 s), prints again.
const COMMAND = 'echo server-ready; for i in $(seq 1 400); do [ -e stop.flag ] && break; sleep 0.05; done; echo server-bye >&2; echo bye > bg-done.txt';

const TODOS = [
  { content: 'Start the dev server', status: 'in_progress', activeForm: 'Starting the dev server' },
  { content: 'Check its output', status: 'pending' },
];

test('a background Bash task: badge, remove guard, 10-second grace', async ({ ui, workspace, provider, shot }) => {
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  let taskId = '';
  provider.enqueue(
    { toolCalls: [{ id: 'call_todo', name: 'TodoWrite', args: { todos: TODOS } }] },
    { toolCalls: [{ id: 'call_bg', name: 'Bash', args: { command: COMMAND, runInBackground: true, description: 'Start the dev server' } }] },
    (req) => {
      taskId = /started background task (\S+):/.exec(req.toolResult('call_bg'))?.[1] ?? '';
      return { text: `The server runs as ${taskId}.` };
    },
  );
  await ui.send('Start the dev server in the background');
  await ui.answer('Bash', 'Allow once');
  await expect(ui.assistantText().last()).toHaveText(/^The server runs as bg-\w+\.\s*$/);
  await ui.waitIdle();
  expect(taskId).not.toBe('');

  // Todos stay on screen; the new task shows as a badge on the Tasks tab.
  const dock = ui.dock;
  const tabs = dock.getByRole('tablist', { name: 'Todos and background tasks' });
  const todosTab = tabs.getByRole('tab', { name: 'Todos' });
  const tasksTab = tabs.getByRole('tab', { name: /^Tasks/ });
  await expect(todosTab).toHaveAttribute('aria-selected', 'true');
  await expect(tasksTab.getByLabel('1 new')).toHaveText('1');
  await expect(dock.getByRole('tabpanel').getByRole('list', { name: 'Todos' })).toContainText('Starting the dev server');
  await expect(dock).toContainText('1 running');
  await shot('badge on the tasks tab');

  // The Tasks tab: the badge clears; a running task offers Stop, not Remove.
  await tasksTab.click();
  await expect(tasksTab).toHaveAttribute('aria-selected', 'true');
  await expect(tasksTab.getByLabel('1 new')).toHaveCount(0);
  const row = dock.locator('.task-row');
  await expect(row).toHaveCount(1);
  await expect(row.locator('.task-command')).toHaveText(COMMAND);
  await expect(row.locator('.task-status')).toHaveText('running');
  await expect(row.getByRole('button', { name: 'Stop' })).toBeEnabled();
  await expect(row.getByRole('button', { name: 'Remove' })).toHaveCount(0);
  await row.getByRole('button', { name: 'Output' }).click();
  await expect(row.getByLabel('stdout')).toHaveText('server-ready\n');
  await row.getByRole('button', { name: 'Output' }).click();
  await shot('task running');
  expect(workspace.exists('bg-done.txt')).toBe(false);

  // It ends: Remove is offered now, and the row stays for the grace period.
  workspace.write('stop.flag', '');
  await expect(row.locator('.task-status')).toHaveText('exit 0');
  const endSeen = Date.now();
  await expect(row.getByRole('button', { name: 'Remove' })).toBeEnabled();
  await expect(row.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(dock).not.toContainText('running');
  expect(workspace.read('bg-done.txt')).toBe('bye\n');
  await shot('task ended');

  // Still there shortly before the 10 s are up, gone after; the tabs go with it.
  const before = endSeen + 8_000 - Date.now();
  if (before > 0) await ui.page.waitForTimeout(before);
  await expect(row).toHaveCount(1);
  await expect(row).toHaveCount(0, { timeout: 6_000 });
  expect(Date.now() - endSeen).toBeGreaterThanOrEqual(9_000);
  await expect(tabs).toHaveCount(0);
  await expect(dock.locator('.dock-title')).toHaveText('Todos');
  await expect(dock.getByRole('region', { name: 'Todos' })).toContainText('Starting the dev server');
  await shot('grace over');

  // The model loads BashOutput and reads the finished task (the registry keeps it after the row left).
  provider.enqueue(
    { toolCalls: [{ id: 'call_search', name: 'ToolSearch', args: { query: 'select:BashOutput,BashStop' } }] },
    { toolCalls: [{ id: 'call_out', name: 'BashOutput', args: { taskId } }] },
    { text: 'The server exited cleanly.' },
  );
  await ui.send('How did the server do?');
  await expect(ui.assistantText().last()).toHaveText('The server exited cleanly.');
  await ui.waitIdle();
  const loaded = await provider.waitForRequest(4);
  expect(loaded.toolNames).toContain('BashOutput');
  const read = (await provider.waitForRequest(5)).toolResult('call_out');
  expect(read).toContain(`Background task ${taskId}: exited`);
  expect(read).toContain('server-ready');
  expect(read).toContain('server-bye');
});
