// Flow 5: TodoWrite fills and updates the composer's container (progress, the running
// step in its active form); the Todos/Tasks tabs appear only while both sides have
// content, and go away when the finished task is removed. The checklist is kept (a
// reload shows it again) and the model is told what it now holds.
import { expect, test } from '../fixtures/test';

const FIRST = [
  { content: 'Read the config', status: 'in_progress', activeForm: 'Reading the config' },
  { content: 'Add the flag', status: 'pending', activeForm: 'Adding the flag' },
  { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' },
];
const SECOND = [
  { content: 'Read the config', status: 'completed', activeForm: 'Reading the config' },
  { content: 'Add the flag', status: 'in_progress', activeForm: 'Adding the flag' },
  { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' },
];
const COMMAND = 'for i in $(seq 1 400); do [ -e tests.flag ] && break; sleep 0.05; done; echo tests-passed';

test('TodoWrite updates the container; tabs only while both sides have content', async ({ app, ui, workspace, provider, shot }) => {
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  provider.enqueue({ toolCalls: [{ id: 'call_todo1', name: 'TodoWrite', args: { todos: FIRST } }] }, { text: 'Checklist written.' });
  await ui.send('Add a --verbose flag');
  await expect(ui.assistantText().last()).toHaveText('Checklist written.');
  await ui.waitIdle();
  expect((await provider.waitForRequest(1)).toolResult('call_todo1')).toBe(
    'The checklist now has 3 item(s): 0 completed, 1 in progress, 2 pending.\n1. [~] Read the config\n2. [ ] Add the flag\n3. [ ] Run the tests',
  );

  // Todos only: a plain title, no tabs.
  const dock = ui.dock;
  await expect(dock.getByRole('tablist')).toHaveCount(0);
  await expect(dock.locator('.dock-title')).toHaveText('Todos');
  await expect(dock.locator('.dock-progress')).toHaveText('Todos done: 0/3');
  const list = dock.getByRole('list', { name: 'Todos' });
  await expect(list.getByRole('listitem')).toHaveText(['In progress: Reading the config', 'To do: Add the flag', 'To do: Run the tests']);
  await shot('first checklist');

  // The next TodoWrite replaces the list.
  provider.enqueue({ toolCalls: [{ id: 'call_todo2', name: 'TodoWrite', args: { todos: SECOND } }] }, { text: 'Config read.' });
  await ui.send('Go on');
  await expect(ui.assistantText().last()).toHaveText('Config read.');
  await ui.waitIdle();
  await expect(dock.locator('.dock-progress')).toHaveText('Todos done: 1/3');
  await expect(list.getByRole('listitem')).toHaveText(['Done: Read the config', 'In progress: Adding the flag', 'To do: Run the tests']);
  await expect(dock.getByRole('tablist')).toHaveCount(0);

  // A background task as well: now both sides have content, so the tabs appear.
  provider.enqueue(
    { toolCalls: [{ id: 'call_bg', name: 'Bash', args: { command: COMMAND, runInBackground: true } }] },
    { text: 'The tests run in the background.' },
  );
  await ui.send('Run the tests in the background');
  await ui.answer('Bash', 'Allow once');
  await expect(ui.assistantText().last()).toHaveText('The tests run in the background.');
  await ui.waitIdle();
  const tabs = dock.getByRole('tablist', { name: 'Todos and background tasks' });
  await expect(tabs.getByRole('tab')).toHaveCount(2);
  await expect(tabs.getByRole('tab', { name: 'Todos' })).toHaveAttribute('aria-selected', 'true');
  await expect(dock.locator('.dock-title')).toHaveCount(0);
  await shot('both sides: tabs');

  await tabs.getByRole('tab', { name: /^Tasks/ }).click();
  const row = dock.getByRole('tabpanel').locator('.task-row');
  await expect(row.locator('.task-status')).toHaveText('running');
  workspace.write('tests.flag', '');
  await expect(row.locator('.task-status')).toHaveText('exit 0');
  await row.getByRole('button', { name: 'Remove' }).click();

  // The task side is empty again: no tabs, the checklist is back on screen.
  await expect(row).toHaveCount(0);
  await expect(tabs).toHaveCount(0);
  await expect(dock.locator('.dock-title')).toHaveText('Todos');
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await shot('task removed: no tabs');

  // The checklist was stored: a reload shows it again (and not the removed task).
  await ui.open(app.url);
  await ui.openSession(workspace.name);
  await expect(ui.dock.locator('.dock-progress')).toHaveText('Todos done: 1/3');
  await expect(ui.dock.getByRole('list', { name: 'Todos' }).getByRole('listitem')).toHaveText([
    'Done: Read the config',
    'In progress: Adding the flag',
    'To do: Run the tests',
  ]);
  await expect(ui.dock.getByRole('tablist')).toHaveCount(0);
});
