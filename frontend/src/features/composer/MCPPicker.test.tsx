import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, mcpServer, mcpTool, project, resetFakeBridge, session, type Seed } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const servers = [
  mcpServer('everything', { tools: [mcpTool('everything', 'echo', { title: 'Echo' }), mcpTool('everything', 'add'), mcpTool('everything', 'off', { enabled: false })] }),
  mcpServer('docs', { projectId: 'p1', scope: 'project', source: '.mcp.json' }),
  mcpServer('broken', { state: 'failed' }),
  mcpServer('sleeping', { enabled: false, state: 'disabled' }),
  mcpServer('strange', { projectId: 'p1', scope: 'project', trusted: false, state: 'untrusted' }),
];

function seed(extra: Seed = {}) {
  resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'First', NOW - 60_000), session('t1', '', 'Scratch', NOW - 120_000)],
    mcpServers: servers,
    ...extra,
  });
}

beforeEach(() => seed());

async function open(title: string) {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: new RegExp(`^${title}`) }));
  const composer = within(screen.getByRole('form', { name: 'Composer' }));
  return { ...r, composer };
}

describe('MCP picker', () => {
  it('offers the ready servers of the session’s project, and sends the chosen ones (and tools) with the prompt once', async () => {
    const { user, composer } = await open('First');
    await user.click(await composer.findByRole('button', { name: 'MCP' }));
    expect(bridge.listMCPServers).toHaveBeenCalledWith('p1');
    const picker = within(screen.getByRole('dialog', { name: 'MCP servers for this prompt' }));
    expect(picker.getAllByRole('checkbox').map((c) => c.closest('label')?.querySelector('strong')?.textContent)).toEqual(['everything', 'docs']);
    expect(picker.getByRole('checkbox', { name: /everything/ })).toHaveFocus();

    // Enter toggles a box; it never sends the prompt.
    await user.keyboard('{Enter}');
    expect(picker.getByRole('checkbox', { name: /everything/ })).toBeChecked();
    expect(bridge.sendPrompt).not.toHaveBeenCalled();
    const tools = within(picker.getByRole('list', { name: 'Tools of everything' }));
    // Only the enabled tools.
    expect(tools.getAllByRole('checkbox')).toHaveLength(2);
    await user.click(tools.getByRole('checkbox', { name: /echo/ }));
    await user.click(picker.getByRole('checkbox', { name: /docs/ }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'MCP servers for this prompt' })).not.toBeInTheDocument();
    expect(composer.getByRole('button', { name: 'MCP' })).toHaveFocus();
    expect(composer.getByText('everything: echo')).toBeInTheDocument();
    expect(composer.getByText('docs')).toBeInTheDocument();

    await user.type(composer.getByRole('textbox', { name: 'Message' }), 'Echo hello{Enter}');
    expect(bridge.sendPromptWith).toHaveBeenCalledWith('s1', 'Echo hello', {
      mcp: [
        { serverId: 'everything', tools: ['echo'] },
        { serverId: 'docs', tools: [] },
      ],
    });
    expect(bridge.sendPrompt).not.toHaveBeenCalled();
    // The choice went with that prompt only.
    await waitFor(() => expect(composer.queryByText('everything: echo')).not.toBeInTheDocument());
    expect(composer.queryByRole('button', { name: 'Remove docs from this prompt' })).not.toBeInTheDocument();
  });

  it('sends a plain prompt without a selection, and a removed chip is not sent', async () => {
    const { user, composer } = await open('First');
    await user.click(await composer.findByRole('button', { name: 'MCP' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('checkbox', { name: /docs/ }));
    await user.click(composer.getByRole('button', { name: 'MCP' }));
    await user.click(composer.getByRole('button', { name: 'Remove docs from this prompt' }));
    await user.type(composer.getByRole('textbox', { name: 'Message' }), 'hi{Enter}');
    expect(bridge.sendPrompt).toHaveBeenCalledWith('s1', 'hi');
    expect(bridge.sendPromptWith).not.toHaveBeenCalled();
  });

  it('shows a refused selection like other send errors, keeping the text and the choice', async () => {
    const { user, composer } = await open('First');
    await user.click(await composer.findByRole('button', { name: 'MCP' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('checkbox', { name: /everything/ }));
    await user.keyboard('{Escape}');
    bridge.sendPromptWith.mockRejectedValueOnce(new BridgeError('MCP_SERVER_UNAVAILABLE', 'everything is not running; restart it in Settings → MCP servers'));
    await user.type(composer.getByRole('textbox', { name: 'Message' }), 'hi{Enter}');
    const alert = await composer.findByRole('alert');
    expect(alert).toHaveTextContent('MCP_SERVER_UNAVAILABLE');
    expect(alert).toHaveTextContent('everything is not running');
    expect(composer.getByRole('textbox', { name: 'Message' })).toHaveValue('hi');
    expect(composer.getByText('everything')).toBeInTheDocument();
  });

  it('a temporary session offers the app’s servers only', async () => {
    const { user, composer } = await open('Scratch');
    await user.click(await composer.findByRole('button', { name: 'MCP' }));
    expect(bridge.listMCPServers).toHaveBeenCalledWith('');
    expect(within(screen.getByRole('dialog')).getAllByRole('checkbox')).toHaveLength(1);
  });

  it.each([
    { name: 'no server is configured', unavailable: false },
    { name: 'MCP is unavailable (Settings explains why)', unavailable: true },
  ])('shows no picker when $name', async ({ unavailable }) => {
    seed({ mcpServers: [] });
    if (unavailable) bridge.listMCPServers.mockRejectedValue(new BridgeError('MCP_SERVER_UNAVAILABLE', 'MCP servers are not available in this build yet'));
    const { composer } = await open('First');
    await composer.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(bridge.listMCPServers).toHaveBeenCalled());
    expect(composer.queryByRole('button', { name: 'MCP' })).not.toBeInTheDocument();
  });

  it('offers one server when the project’s own overrides the app’s of the same id', async () => {
    const errors = vi.spyOn(console, 'error');
    seed({
      mcpServers: [
        mcpServer('db', { tools: [mcpTool('db', 'query', { title: 'App query' })] }),
        mcpServer('db', { projectId: 'p1', scope: 'project', source: '.mcp.json', tools: [mcpTool('db', 'query', { title: 'Project query' })] }),
      ],
    });
    const { user, composer } = await open('First');
    await user.click(await composer.findByRole('button', { name: 'MCP' }));
    const picker = within(screen.getByRole('dialog', { name: 'MCP servers for this prompt' }));
    expect(picker.getAllByRole('checkbox')).toHaveLength(1);
    await user.click(picker.getByRole('checkbox', { name: /db/ }));
    expect(within(picker.getByRole('list', { name: 'Tools of db' })).getByText('Project query')).toBeInTheDocument();
    expect(errors.mock.calls.flat().join(' ')).not.toMatch(/same key/);
    errors.mockRestore();
  });

  it('says when no server is ready and offers the settings', async () => {
    seed({ mcpServers: [mcpServer('broken', { state: 'failed' })] });
    const { user, composer } = await open('First');
    await user.click(await composer.findByRole('button', { name: 'MCP' }));
    const picker = within(screen.getByRole('dialog', { name: 'MCP servers for this prompt' }));
    expect(picker.getByText('No MCP server is ready.')).toBeInTheDocument();
    await user.click(picker.getByRole('button', { name: 'Open MCP settings' }));
    expect(await screen.findByRole('group', { name: 'MCP servers' })).toBeInTheDocument();
  });
});
