// Flow 17: a plugin end to end (issue 22). Settings → Plugins → Install from .piplug (the dev
// override hands the app the file a native dialog would): the consent card lists exactly
// what the plugin contributes, with its tool's model name, risk and plan-safe actions; Install
// and allow lists it as installed. In a session the agent loads the plugin's on-demand tool
// with ToolSearch and calls it; the plugin's own process (plain Node over MCP stdio) answers,
// the transcript's row shows the result, and the model gets it. Turned off in the project
// (Settings → Plugins → Projects), the tool leaves the session's next request at once;
// following the app-wide switch again shows it on there.
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

  // Off in this project only: its own choice wins over the app-wide switch, and the tool
  // the session loaded leaves its next request.
  expect((await provider.waitForRequest(2)).toolNames).toContain(TOOL);
  const settingsAgain = await ui.openSettings();
  const plugin = settingsAgain.getByRole('group', { name: 'Plugins', exact: true }).getByRole('listitem', { name: 'E2E greeter 1.0.0', exact: true });
  const inProject = plugin.getByRole('list', { name: 'E2E greeter in projects' }).getByRole('listitem', { name: workspace.name, exact: true });
  await expect(inProject).toContainText('follows the app-wide switch');
  await inProject.getByRole('combobox', { name: `E2E greeter in ${workspace.name}` }).selectOption('off');
  await expect(inProject).toContainText('this project’s own choice');
  await expect(plugin).toContainText('Off in 1 project');
  await inProject.scrollIntoViewIfNeeded();
  await shot('off in the project');
  await axe('Settings → Plugins with a project’s own choice');
  await ui.closeSettings();
  await ui.openSession(workspace.name);
  provider.enqueue({ text: 'No greeter here.' });
  await ui.send('Greet Ada again');
  await expect(ui.assistantText().last()).toHaveText('No greeter here.');
  await ui.waitIdle();
  expect((await provider.waitForRequest(3)).toolNames).not.toContain(TOOL);

  // Back to following the app-wide switch, which is on.
  const settingsLast = await ui.openSettings();
  const projectRow = settingsLast.getByRole('group', { name: 'Plugins', exact: true }).getByRole('list', { name: 'E2E greeter in projects' }).getByRole('listitem', { name: workspace.name, exact: true });
  await projectRow.getByRole('combobox', { name: `E2E greeter in ${workspace.name}` }).selectOption('app');
  await expect(projectRow).toContainText('follows the app-wide switch');
  await expect(projectRow.locator('.badge')).toHaveText('On');
});
