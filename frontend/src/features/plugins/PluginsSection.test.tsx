import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, pluginRow, pluginSummary, project, resetFakeBridge, session, type FakeBackend, type Seed } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';
import { BridgeError } from '../../bridge/errors';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;

function seed(s: Seed = {}) {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'First', NOW - 60_000)],
    initialSessionId: 's1',
    ...s,
  });
}

beforeEach(() => seed());

async function openPlugins() {
  const app = await renderApp();
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const group = within(await screen.findByRole('group', { name: 'Plugins' }));
  await waitFor(() => expect(group.queryByText(/Loading the plugins/)).not.toBeInTheDocument());
  return { ...app, group };
}

describe('Settings → Plugins', () => {
  it('lists each plugin with what it contributes, and asks consent for one installed without it', async () => {
    seed({ plugins: [pluginRow('dev.acme.tools', { consented: false })], pluginLogs: { 'dev.acme.tools': 'sample plugin ready\n' } });
    const { user, group } = await openPlugins();
    const item = within(group.getByRole('listitem', { name: 'Plugin dev.acme.tools 1.0.0' }));
    expect(item.getByText('Needs consent')).toBeInTheDocument();
    const tools = within(item.getByRole('list', { name: 'Tools' }));
    expect(tools.getByText('plugin_dev_acme_tools_inspect')).toBeInTheDocument();
    expect(tools.getByText('low risk')).toBeInTheDocument();
    expect(tools.getByText(/plan-safe actions: list, read/)).toBeInTheDocument();
    expect(tools.getByText('high risk')).toBeInTheDocument();
    expect(tools.getByText(/Agent mode only/)).toBeInTheDocument();
    expect(within(item.getByRole('list', { name: 'MCP servers' })).getByText('acme-docs --stdio')).toBeInTheDocument();
    expect(item.getByText('skills/hello/SKILL.md')).toBeInTheDocument();

    await user.click(item.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(bridge.consentPlugin).toHaveBeenCalledWith('dev.acme.tools', 'sha256:dev.acme.tools-1.0.0'));
    await waitFor(() => expect(item.queryByText('Needs consent')).not.toBeInTheDocument());

    await user.click(item.getByRole('button', { name: 'Show log' }));
    expect(await item.findByLabelText('Plugin dev.acme.tools log')).toHaveTextContent('sample plugin ready');
  });

  it('shows the consent card before installing, and installs nothing when cancelled', async () => {
    seed({ pluginStages: [pluginSummary('dev.acme.tools'), pluginSummary('dev.acme.tools')] });
    const { user, group } = await openPlugins();
    expect(group.getByText('No plugin is installed.')).toBeInTheDocument();

    await user.click(group.getByRole('button', { name: 'Install from .piplug…' }));
    let card = within(await group.findByRole('region', { name: 'Plugin consent' }));
    expect(card.getByText('Install Plugin dev.acme.tools 1.0.0')).toBeInTheDocument();
    expect(card.getByText('plugin_dev_acme_tools_deploy')).toBeInTheDocument();
    expect(card.getByText('agent.tool.register')).toBeInTheDocument();
    expect(bridge.installStagedPlugin).not.toHaveBeenCalled();
    await user.click(card.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(bridge.discardStagedPlugin).toHaveBeenCalled());
    expect(bridge.installStagedPlugin).not.toHaveBeenCalled();
    expect(backend.plugins).toEqual([]);

    await user.click(group.getByRole('button', { name: 'Install from .piplug…' }));
    card = within(await group.findByRole('region', { name: 'Plugin consent' }));
    await user.click(card.getByRole('button', { name: 'Install and allow' }));
    await waitFor(() => expect(bridge.installStagedPlugin).toHaveBeenCalledWith(expect.any(String), true));
    expect(await group.findByRole('listitem', { name: 'Plugin dev.acme.tools 1.0.0' })).toBeInTheDocument();
    expect(backend.plugins[0]?.consented).toBe(true);
  });

  it('asks again on an update whose contents changed, and switches and uninstalls', async () => {
    seed({
      plugins: [pluginRow('dev.acme.tools')],
      pluginStages: [pluginSummary('dev.acme.tools', { version: '1.1.0', hash: 'sha256:changed' })],
    });
    const { user, group } = await openPlugins();
    const item = within(group.getByRole('listitem', { name: 'Plugin dev.acme.tools 1.0.0' }));
    await user.click(item.getByRole('button', { name: 'Update from .piplug…' }));
    const card = within(await group.findByRole('region', { name: 'Plugin consent' }));
    expect(card.getByText('Update Plugin dev.acme.tools 1.0.0 → 1.1.0')).toBeInTheDocument();
    expect(card.getByText(/Nothing of it is installed or runs until you allow it/)).toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Update and allow' }));
    const updated = within(await group.findByRole('listitem', { name: 'Plugin dev.acme.tools 1.1.0' }));

    await user.click(updated.getByRole('checkbox', { name: 'Enabled app-wide' }));
    await waitFor(() => expect(bridge.setPluginEnabled).toHaveBeenCalledWith('dev.acme.tools', false));
    expect(await updated.findByText('Off app-wide')).toBeInTheDocument();

    await user.click(updated.getByRole('button', { name: 'Uninstall' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Uninstall Plugin dev.acme.tools?' });
    await user.click(within(confirm).getByRole('button', { name: 'Uninstall' }));
    await waitFor(() => expect(bridge.removePlugin).toHaveBeenCalledWith('dev.acme.tools'));
    expect(await group.findByText('No plugin is installed.')).toBeInTheDocument();
  });

  describe('in each project', () => {
    function twoProjects(extra: Parameters<typeof pluginRow>[1] = {}) {
      seed({
        projects: [project('p1', 'alpha-app'), project('p2', 'beta-app')],
        plugins: [pluginRow('dev.acme.tools', { projects: [{ projectId: 'p2', enabled: false }], ...extra })],
      });
    }

    /** The plugin's row for a project: its state, why, and its choice. */
    function row(group: ReturnType<typeof within>, name: string) {
      const list = within(group.getByRole('list', { name: 'Plugin dev.acme.tools in projects' }));
      const li = within(list.getByRole('listitem', { name }));
      return { li, select: li.getByRole('combobox', { name: `Plugin dev.acme.tools in ${name}` }) };
    }

    it('shows where the plugin is on and why, and changes one project at a time', async () => {
      twoProjects();
      const { user, group } = await openPlugins();
      const item = within(group.getByRole('listitem', { name: 'Plugin dev.acme.tools 1.0.0' }));
      expect(item.getByText('Off in 1 project')).toBeInTheDocument();

      let alpha = row(group, 'alpha-app');
      expect(alpha.li.getByText('On')).toBeInTheDocument();
      expect(alpha.li.getByText('follows the app-wide switch')).toBeInTheDocument();
      expect(alpha.select).toHaveValue('app');
      expect(alpha.li.getByRole('option', { name: 'Follow the app-wide switch (on)' })).toBeInTheDocument();
      let beta = row(group, 'beta-app');
      expect(beta.li.getByText('Off')).toBeInTheDocument();
      expect(beta.li.getByText('this project’s own choice')).toBeInTheDocument();
      expect(beta.select).toHaveValue('off');

      await user.selectOptions(alpha.select, 'Off in this project');
      await waitFor(() => expect(bridge.setPluginProject).toHaveBeenCalledWith('dev.acme.tools', 'p1', 'off'));
      expect(await item.findByText('Off in 2 projects')).toBeInTheDocument();
      alpha = row(group, 'alpha-app');
      expect(alpha.li.getByText('this project’s own choice')).toBeInTheDocument();
      expect(alpha.select).toHaveValue('off');

      // Back to following the app-wide switch, which is on.
      await user.selectOptions(beta.select, 'app');
      await waitFor(() => expect(bridge.setPluginProject).toHaveBeenCalledWith('dev.acme.tools', 'p2', 'app'));
      beta = row(group, 'beta-app');
      await waitFor(() => expect(beta.select).toHaveValue('app'));
      expect(beta.li.getByText('On')).toBeInTheDocument();
      expect(beta.li.getByText('follows the app-wide switch')).toBeInTheDocument();
      expect(backend.plugins[0]?.projects).toEqual([{ projectId: 'p1', enabled: false }]);
    });

    it('turns a plugin that is off app-wide on in one project only', async () => {
      twoProjects({ enabled: false, projects: [] });
      const { user, group } = await openPlugins();
      const item = within(group.getByRole('listitem', { name: 'Plugin dev.acme.tools 1.0.0' }));
      expect(item.getByText('Off app-wide')).toBeInTheDocument();
      expect(item.getByRole('checkbox', { name: 'Enabled app-wide' })).not.toBeChecked();
      expect(item.getByText(/a plugin that is off app-wide can be on in just one project/)).toBeInTheDocument();
      const beta = row(group, 'beta-app');
      expect(beta.li.getByText('Off')).toBeInTheDocument();
      expect(beta.li.getByRole('option', { name: 'Follow the app-wide switch (off)' })).toBeInTheDocument();

      await user.selectOptions(beta.select, 'On in this project');
      await waitFor(() => expect(bridge.setPluginProject).toHaveBeenCalledWith('dev.acme.tools', 'p2', 'on'));
      expect(await item.findByText('On in 1 project only')).toBeInTheDocument();
      expect(row(group, 'beta-app').li.getByText('On')).toBeInTheDocument();
      expect(row(group, 'alpha-app').li.getByText('Off')).toBeInTheDocument();
      expect(backend.plugins[0]).toMatchObject({ enabled: false, projects: [{ projectId: 'p2', enabled: true }] });

      // The app-wide switch moves only the projects that follow it.
      await user.click(item.getByRole('checkbox', { name: 'Enabled app-wide' }));
      await waitFor(() => expect(bridge.setPluginEnabled).toHaveBeenCalledWith('dev.acme.tools', true));
      await waitFor(() => expect(row(group, 'alpha-app').li.getByText('On')).toBeInTheDocument());
      expect(row(group, 'beta-app').li.getByText('this project’s own choice')).toBeInTheDocument();
      expect(item.queryByText(/project only/)).not.toBeInTheDocument();
    });

    it('says a plugin awaiting consent runs in no project, and shows a refused change with its code', async () => {
      twoProjects({ consented: false });
      const { user, group } = await openPlugins();
      const item = within(group.getByRole('listitem', { name: 'Plugin dev.acme.tools 1.0.0' }));
      expect(item.getByText(/Until you allow it, it runs in no project/)).toBeInTheDocument();

      bridge.setPluginProject.mockRejectedValueOnce(new BridgeError('PROJECT_NOT_FOUND', 'no project p1; it may have been removed, so refresh the list'));
      await user.selectOptions(row(group, 'alpha-app').select, 'on');
      expect(await group.findByRole('alert')).toHaveTextContent(/no project p1; it may have been removed.*PROJECT_NOT_FOUND/);
      expect(row(group, 'alpha-app').select).toHaveValue('app');
    });

    it('says when there is no project to choose for', async () => {
      seed({ projects: [], sessions: [], initialSessionId: undefined, plugins: [pluginRow('dev.acme.tools')] });
      const { group } = await openPlugins();
      expect(group.getByText(/No project yet\. Add one from the sidebar/)).toBeInTheDocument();
      expect(group.queryByRole('list', { name: 'Plugin dev.acme.tools in projects' })).not.toBeInTheDocument();
    });
  });
});
