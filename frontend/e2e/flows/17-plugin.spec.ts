// Flow 17: a plugin end to end (issue 22). Settings → Plugins → Install from .piplug (the dev
// override hands the app the file a native dialog would): the consent card lists exactly
// what the plugin contributes, with its tool's model name, risk and plan-safe actions; Install
// and allow lists it as installed. In a session the agent loads the plugin's on-demand tool
// with ToolSearch and calls it; the plugin's own process (plain Node over MCP stdio) answers,
// the transcript's row shows the result, and the model gets it.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures/test';

const PLUGIN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'plugins', 'greeter');
const TOOL = 'plugin_dev_e2e_greeter_greet';

test('install a .piplug, consent, and the agent calls its tool', async ({ ui, workspace, provider, pluginFile, shot, axe }) => {
  // A .piplug is a zip of the plugin folder.
  execFileSync('zip', ['-q', '-X', pluginFile, 'plugin.json', 'server.mjs'], { cwd: PLUGIN_DIR });
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);

  const settings = await ui.openSettings();
  const group = settings.getByRole('group', { name: 'Plugins', exact: true });
  await expect(group.getByText('No plugin is installed.')).toBeVisible();
  await group.getByRole('button', { name: 'Install from .piplug…' }).click();
  const consent = group.getByRole('region', { name: 'Plugin consent' });
  await expect(consent.getByRole('heading')).toHaveText('Install E2E greeter 1.0.0');
  await expect(consent).toContainText('Nothing of it is installed or runs until you allow it.');
  const tools = consent.getByRole('list', { name: 'Tools' }).getByRole('listitem');
  await expect(tools).toHaveCount(1);
  await expect(tools.first()).toContainText(TOOL);
  await expect(tools.first()).toContainText('plan-safe actions: greet');
  await expect(consent).toContainText('node server.mjs');
  await consent.scrollIntoViewIfNeeded();
  await shot('consent card');
  await axe('Settings → Plugins with a consent card');

  await consent.getByRole('button', { name: 'Install and allow' }).click();
  await expect(consent).toHaveCount(0);
  const item = group.getByRole('list', { name: 'Plugins' }).getByRole('listitem', { name: 'E2E greeter 1.0.0', exact: true });
  await expect(item).toBeVisible();
  await shot('installed');

  await ui.closeSettings();
  await ui.openSession(workspace.name);
  provider.enqueue(
    { toolCalls: [{ id: 'call_search', name: 'ToolSearch', args: { query: `select:${TOOL}` } }] },
    { toolCalls: [{ id: 'call_greet', name: TOOL, args: { name: 'Ada' } }] },
    { text: 'The greeter plugin greeted Ada.' },
  );
  await ui.send('Greet Ada with the greeter plugin');
  await expect(ui.assistantText().last()).toHaveText('The greeter plugin greeted Ada.');
  await ui.waitIdle();

  // The tool was on demand: offered only once ToolSearch loaded it.
  expect((await provider.waitForRequest(0)).toolNames).not.toContain(TOOL);
  expect((await provider.waitForRequest(1)).toolNames).toContain(TOOL);
  const row = ui.tools(TOOL);
  await expect(row).toHaveCount(1);
  await expect(row.locator('.tool-status')).toHaveText('Done');
  await row.locator('.tool-head').click();
  await expect(row.getByRole('region', { name: 'Result' }).or(row.getByLabel('Result'))).toContainText('Hello, Ada, from the greeter plugin');
  await shot('tool row with the result');
  expect((await provider.waitForRequest(2)).toolResult('call_greet')).toContain('Hello, Ada, from the greeter plugin');
});
