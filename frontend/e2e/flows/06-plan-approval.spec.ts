// Flow 6: in Plan mode the model submits a plan; its card renders the Markdown; Approve
// with "Accept edits" switches the session to Agent + accept-edits (the mode selector and
// the permission chip say so), the same turn goes on, and its Write runs without a card.
// The plan is saved byte for byte under .pi/plan/ in the workspace.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from '../fixtures/test';

// Non-ASCII, a table, code and no final newline: the artifact must hold these bytes exactly.
const PLAN = [
  '# Greeting plan',
  '',
  'Add a greeting file — nothing else changes.',
  '',
  '## Steps',
  '',
  '1. Create `greeting.txt` with “Grüß dich”.',
  '2. Tell the user.',
  '',
  '| file | change |',
  '| --- | --- |',
  '| greeting.txt | new |',
].join('\n');

test('Approve a plan with accept-edits: Agent mode, and the next Write runs without a card', async ({ ui, workspace, provider, shot }) => {
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  await ui.modeSelector.getByRole('radio', { name: 'Plan' }).click();
  await expect(ui.modeSelector.getByRole('radio', { name: 'Plan' })).toHaveAttribute('aria-checked', 'true');
  await expect(ui.permissionChip).toHaveAccessibleName('Permission mode: Ask');

  provider.enqueue(
    { text: 'Here is my plan.', toolCalls: [{ id: 'call_plan', name: 'SubmitPlan', args: { title: 'Greeting', markdown: PLAN, question: 'Go ahead with the greeting?' } }] },
    { toolCalls: [{ id: 'call_write', name: 'Write', args: { path: 'greeting.txt', content: 'Grüß dich\n' } }] },
    { text: 'Created greeting.txt as planned.' },
  );
  await ui.send('Plan a greeting file');
  const planned = await provider.waitForRequest(0);
  expect(planned.toolNames).toContain('SubmitPlan');
  expect(planned.toolNames).not.toContain('Write');

  // The card: the rendered document, where it is saved, the question.
  const card = ui.composer.getByRole('region', { name: 'Plan: Greeting' });
  await expect(card).toBeVisible();
  const doc = card.getByRole('region', { name: 'Plan document' });
  await expect(doc.getByRole('heading', { level: 1 })).toHaveText('Greeting plan');
  await expect(doc.getByRole('heading', { level: 2 })).toHaveText('Steps');
  await expect(doc.getByRole('listitem')).toHaveText(['Create greeting.txt with “Grüß dich”.', 'Tell the user.']);
  await expect(doc.locator('code')).toHaveText('greeting.txt');
  await expect(doc.getByRole('table')).toContainText('greeting.txt');
  await expect(card).toContainText('Go ahead with the greeting?');
  const path = (await card.locator('.decision-path code').textContent()) ?? '';
  expect(path).toMatch(/^\.pi\/plan\/[^/]+\.md$/);
  // Nothing changed yet, and the plan is already on disk.
  expect(workspace.exists('greeting.txt')).toBe(false);
  await shot('plan card');

  await card.getByRole('radio', { name: 'Accept edits' }).check();
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.getByRole('status')).toHaveText('Approved — continuing in Agent mode with Accept edits.');

  // The same turn goes on in Agent mode: Write runs with no card.
  await expect(ui.assistantText().last()).toHaveText('Created greeting.txt as planned.');
  await ui.waitIdle();
  await expect(ui.pendingCards()).toHaveCount(0);
  await expect(ui.tools('Write').locator('.tool-status')).toHaveText('Done');
  expect(workspace.read('greeting.txt')).toBe('Grüß dich\n');
  await expect(ui.modeSelector.getByRole('radio', { name: 'Agent' })).toHaveAttribute('aria-checked', 'true');
  await expect(ui.permissionChip).toHaveAccessibleName('Permission mode: Accept edits');
  await shot('approved and written');

  // The model was told, and got Write back.
  const approved = await provider.waitForRequest(1);
  expect(approved.toolResult('call_plan')).toMatch(
    new RegExp(`^The user approved the plan "Greeting" \\(saved at ${path.replace(/\./g, '\\.')}, sha256 [0-9a-f]{64}\\)\\. The session is now in Agent mode with permission mode accept-edits\\.`),
  );
  expect(approved.toolNames).toContain('Write');
  expect(approved.toolNames).not.toContain('SubmitPlan');

  // The artifact holds the exact bytes.
  const files = readdirSync(workspace.path('.pi/plan'));
  expect(files).toEqual([path.split('/').pop()]);
  expect(readFileSync(workspace.path(path)).equals(Buffer.from(PLAN, 'utf8'))).toBe(true);
});

// Issue 21 item 6, in a real layout: each mode says what it changes where it is chosen,
// and the permission menu opens beside its chip (the composer is at the window's bottom)
// instead of over it.
test('The mode choices explain themselves and the permission menu leaves its chip visible', async ({ ui, workspace, page, shot }) => {
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);

  const plan = ui.modeSelector.getByRole('radio', { name: 'Plan' });
  await expect(plan).toHaveAccessibleDescription(/Cannot edit files/);
  await expect(ui.modeSelector.getByRole('radio', { name: 'Goal' })).toHaveAccessibleDescription(/acceptance criteria/);
  await plan.hover();
  const hint = plan.locator('.segment-hint');
  await expect(hint).toBeVisible();
  const hintBox = (await hint.boundingBox())!;
  const planBox = (await plan.boundingBox())!;
  // Above the segment, inside the window.
  expect(hintBox.y).toBeGreaterThanOrEqual(0);
  expect(hintBox.y + hintBox.height).toBeLessThanOrEqual(planBox.y);
  await shot('plan explained');

  await ui.permissionChip.click();
  const menu = page.getByRole('menu', { name: 'Permission mode' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitemradio', { name: 'Accept edits' })).toHaveAccessibleDescription(/commands and paths outside it still ask/);
  const menuBox = (await menu.boundingBox())!;
  const chipBox = (await ui.permissionChip.boundingBox())!;
  const overlaps = menuBox.y < chipBox.y + chipBox.height && chipBox.y < menuBox.y + menuBox.height;
  expect(overlaps).toBe(false);
  await shot('permission menu beside its chip');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
});
