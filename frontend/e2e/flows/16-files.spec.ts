// Flow 16 (Files pane): a file the agent wrote through the fake provider is listed
// first in the session's Files pane, as written in this session; opening it shows its
// text with line numbers in a tab, the workspace tree lists it with the project's other
// files, Mention puts "@path" into the composer, and the open viewer follows the file
// when it changes on disk.
import { expect, test } from '../fixtures/test';

const PLAN = '# Plan\n\n1. Parse the input\n2. Print the report\n';

test('a file the agent wrote opens from the Files pane', async ({ ui, workspace, provider, shot }) => {
  workspace.write('notes.md', '# Notes\n');
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  provider.enqueue({ toolCalls: [{ id: 'call_write', name: 'Write', args: { path: 'docs/plan.md', content: PLAN } }] }, { text: 'Wrote docs/plan.md.' });
  await ui.send('Write the plan');
  await ui.answer('Write', 'Allow once');
  await expect(ui.assistantText().last()).toHaveText('Wrote docs/plan.md.');
  await ui.waitIdle();
  expect(workspace.read('docs/plan.md')).toBe(PLAN);

  const files = await ui.openFiles();
  const written = files.getByRole('region', { name: 'Written in this session' });
  await written.getByRole('button', { name: 'docs/plan.md' }).click();
  await expect(files.getByRole('tab', { name: 'plan.md', selected: true })).toBeVisible();
  const content = files.getByLabel('Content of docs/plan.md');
  await expect(content).toHaveText(PLAN);
  await expect(files.locator('.file-code-gutter')).toHaveText('1\n2\n3\n4');
  const tree = files.getByRole('tree', { name: 'Workspace files' });
  await expect(tree.getByRole('treeitem')).toHaveText(['docs', 'notes.md']);
  await shot('files pane');

  await files.getByRole('button', { name: 'Mention' }).click();
  await expect(ui.message).toHaveValue('@docs/plan.md ');

  // The open viewer follows the file on disk.
  workspace.write('docs/plan.md', '# Plan, edited by hand\n');
  await expect(content).toHaveText('# Plan, edited by hand\n');
});
