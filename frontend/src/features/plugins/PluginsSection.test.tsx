import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, pluginRow, pluginSummary, project, resetFakeBridge, session, type FakeBackend, type Seed } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

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

    await user.click(updated.getByRole('checkbox', { name: 'Enabled' }));
    await waitFor(() => expect(bridge.setPluginEnabled).toHaveBeenCalledWith('dev.acme.tools', false));
    expect(await updated.findByText('Off')).toBeInTheDocument();

    await user.click(updated.getByRole('button', { name: 'Uninstall' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Uninstall Plugin dev.acme.tools?' });
    await user.click(within(confirm).getByRole('button', { name: 'Uninstall' }));
    await waitFor(() => expect(bridge.removePlugin).toHaveBeenCalledWith('dev.acme.tools'));
    expect(await group.findByText('No plugin is installed.')).toBeInTheDocument();
  });
});
