// Flow 11: the Activity view. One turn reads a file (allowed by policy), writes it after
// the user waited a moment and chose Allow once, and tries a Write the user denies. The
// session header's Activity pane lists the three calls as host-core audited them (tool,
// decision, prompted, wait, duration, result code), the filters narrow them by decision,
// tool and result, and another session's Activity shows only its own calls.
import type { Locator } from '@playwright/test';
import { expect, test } from '../fixtures/test';

const ORIGINAL = 'first line\nsecond line\n';
const CHANGED = 'first line\nchanged by the agent\n';

/** Milliseconds of a duration as the pane shows it ("350 ms", "1.4 s", "12 s", "1m 02s"). */
function parseDuration(text: string): number {
  const t = text.trim();
  let m = /^(\d+) ms$/.exec(t);
  if (m) return Number(m[1]);
  m = /^(\d+(?:\.\d+)?) s$/.exec(t);
  if (m) return Number(m[1]) * 1000;
  m = /^(\d+)m (\d+)s$/.exec(t);
  if (m) return Number(m[1]) * 60_000 + Number(m[2]) * 1000;
  throw new Error(`not a duration: ${JSON.stringify(text)}`);
}

/** One audit row's cells by column name. */
function cells(row: Locator) {
  const cell = (i: number) => row.getByRole('cell').nth(i);
  return {
    tool: cell(1).locator('.activity-tool-name'),
    args: cell(1),
    decision: cell(2),
    prompted: cell(3),
    wait: cell(4),
    duration: cell(5),
    result: cell(6),
  };
}

test('the Activity view lists the audited calls, filters them and keeps them per session', async ({ ui, workspace, provider, shot, axe, focusRing }) => {
  workspace.write('notes.txt', ORIGINAL);
  workspace.write('other.txt', 'another file\n');
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);

  provider.enqueue(
    { text: 'Reading it first.', toolCalls: [{ id: 'call_read', name: 'Read', args: { path: 'notes.txt' } }] },
    (req) => ({ toolCalls: [{ id: 'call_write', name: 'Write', args: { path: 'notes.txt', content: CHANGED, tag: req.readTag('call_read', 'notes.txt') } }] }),
    { toolCalls: [{ id: 'call_denied', name: 'Write', args: { path: 'denied.txt', content: 'should never exist\n' } }] },
    { text: 'Updated notes.txt; denied.txt was not created.' },
  );
  await ui.send('Update notes.txt and create denied.txt');

  // The user looks at the first card for a while before allowing it, and at the second
  // one briefly before denying it: both waits are what the Activity rows must show.
  await ui.pendingCard('Write');
  await ui.page.waitForTimeout(1_500);
  await shot('first write waits');
  await ui.answer('Write', 'Allow once');
  await ui.pendingCard('Write');
  await ui.page.waitForTimeout(400);
  await ui.answer('Write', 'Deny');
  await expect(ui.assistantText().last()).toHaveText('Updated notes.txt; denied.txt was not created.');
  await ui.waitIdle();
  expect(workspace.read('notes.txt')).toBe(CHANGED);
  expect(workspace.exists('denied.txt')).toBe(false);

  const pane = await ui.openActivity();
  const rows = ui.activityRows(pane);
  await expect(rows).toHaveCount(3);
  await expect(pane.getByRole('status').filter({ hasText: 'Showing' })).toHaveText('Showing 3 of 3 calls, newest first');
  await shot('activity');
  await axe('the Activity pane');
  await focusRing('the Activity pane');

  // Newest first: the denied Write, the allowed Write, the Read.
  const denied = cells(rows.nth(0));
  await expect(denied.tool).toHaveText('Write');
  await expect(denied.args).toContainText('denied.txt');
  await expect(denied.decision).toHaveText('denied');
  await expect(denied.prompted).toHaveText('Yes');
  await expect(denied.result).toHaveText('TOOL_DENIED');
  expect(parseDuration(await denied.wait.innerText())).toBeGreaterThanOrEqual(400);

  const allowed = cells(rows.nth(1));
  await expect(allowed.tool).toHaveText('Write');
  await expect(allowed.args).toContainText('notes.txt');
  await expect(allowed.decision).toHaveText('allow-once');
  await expect(allowed.prompted).toHaveText('Yes');
  await expect(allowed.result).toHaveText('OK');
  expect(parseDuration(await allowed.wait.innerText())).toBeGreaterThanOrEqual(1_500);
  expect(parseDuration(await allowed.duration.innerText())).toBeGreaterThanOrEqual(0);

  const read = cells(rows.nth(2));
  await expect(read.tool).toHaveText('Read');
  await expect(read.args).toContainText('notes.txt');
  await expect(read.decision).toHaveText('allow');
  await expect(read.prompted).toHaveText('No');
  await expect(read.wait).toHaveText('—');
  await expect(read.result).toHaveText('OK');
  expect(parseDuration(await read.duration.innerText())).toBeGreaterThanOrEqual(0);

  // Filters: by decision, by tool, both, and by result code.
  const filters = pane.getByRole('group', { name: 'Filters' });
  const tool = filters.getByRole('combobox', { name: 'Tool' });
  const decision = filters.getByRole('combobox', { name: 'Decision' });
  const result = filters.getByRole('combobox', { name: 'Result' });
  await expect(tool.getByRole('option')).toHaveText(['All', 'Read', 'Write']);

  await decision.selectOption('denied');
  await expect(rows).toHaveCount(1);
  await expect(cells(rows.first()).result).toHaveText('TOOL_DENIED');
  await expect(pane.getByRole('status').filter({ hasText: 'Showing' })).toHaveText('Showing 1 of 1 matching calls, newest first');
  await shot('filtered by decision');

  await decision.selectOption('');
  await tool.selectOption('Read');
  await expect(rows).toHaveCount(1);
  await expect(cells(rows.first()).tool).toHaveText('Read');

  await tool.selectOption('Write');
  await expect(rows).toHaveCount(2);
  await expect(rows.locator('.activity-tool-name')).toHaveText(['Write', 'Write']);
  await decision.selectOption('allow-once');
  await expect(rows).toHaveCount(1);
  await expect(cells(rows.first()).args).toContainText('notes.txt');
  await shot('filtered by tool and decision');

  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await result.selectOption('TOOL_DENIED');
  await expect(rows).toHaveCount(1);
  await expect(cells(rows.first()).args).toContainText('denied.txt');
  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(3);

  // A second session starts with an empty Activity, and lists only its own call.
  await ui.newSession(workspace.name);
  const second = await ui.openActivity();
  await expect(second.getByText('No tool calls yet.', { exact: false })).toBeVisible();
  await expect(ui.activityRows(second)).toHaveCount(0);
  provider.enqueue(
    { toolCalls: [{ id: 'call_other', name: 'Read', args: { path: 'other.txt' } }] },
    { text: 'It says: another file.' },
  );
  await ui.send('What is in other.txt?');
  await expect(ui.assistantText().last()).toHaveText('It says: another file.');
  await ui.waitIdle();
  // The open pane picks up the new call as it finishes.
  const secondRows = ui.activityRows(second);
  await expect(secondRows).toHaveCount(1);
  await expect(cells(secondRows.first()).tool).toHaveText('Read');
  await expect(cells(secondRows.first()).args).toContainText('other.txt');
  await expect(second.getByRole('group', { name: 'Filters' }).getByRole('combobox', { name: 'Tool' }).getByRole('option')).toHaveText(['All', 'Read']);
  await expect(second.getByRole('group', { name: 'Filters' }).getByRole('combobox', { name: 'Decision' }).getByRole('option')).toHaveText(['All', 'allow']);
  await shot('second session activity');

  // The first session still lists its three calls, not the second session's.
  await ui.openSession(workspace.name, 1);
  const first = await ui.openActivity();
  await expect(ui.activityRows(first)).toHaveCount(3);
  await expect(ui.activityRows(first).locator('.activity-tool-name')).toHaveText(['Write', 'Write', 'Read']);
  await expect(ui.activityRows(first).getByRole('cell').filter({ hasText: 'other.txt' })).toHaveCount(0);
});
