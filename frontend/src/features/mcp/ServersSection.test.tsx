import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, mcpServer, mcpTool, project, resetFakeBridge, session, type FakeBackend, type Seed } from '../../test/fakeBridge';
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

async function openMCP() {
  const app = await renderApp();
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const mcp = within(await screen.findByRole('group', { name: 'MCP servers' }));
  await waitFor(() => expect(mcp.queryByText(/Loading the MCP servers/)).not.toBeInTheDocument());
  return { ...app, mcp };
}

const untrusted = mcpServer('db', {
  scope: 'project',
  projectId: 'p1',
  source: '.mcp.json',
  command: 'uvx',
  args: ['mcp-server-postgres', '--url', 'postgres://me@localhost/my db', "it's"],
  env: [{ name: 'PGPASSWORD', value: '', secret: true, hasValue: true }, { name: 'LOG', value: 'debug', secret: false, hasValue: true }],
  state: 'untrusted',
  trusted: false,
  definitionHash: 'sha256:aaaa1111',
  tools: [],
  schemaTokens: 0,
});

describe('Settings → MCP servers', () => {
  it('lists each server with its state, transport, source, tools and schema tokens; a failed one with its error and log lines', async () => {
    seed({
      mcpServers: [
        mcpServer('everything'),
        mcpServer('broken', { state: 'failed', errorCode: 'MCP_PROTOCOL_ERROR', error: 'the server exited 3 times; fix it and restart', logTail: ['Error: cannot find module x', 'exit 1'], tools: [] }),
        mcpServer('linear', { transport: 'http', url: 'https://mcp.linear.app/mcp', command: '', args: [], state: 'needs_auth', errorCode: 'MCP_AUTH_REQUIRED', error: 'sign in again' }),
        mcpServer('off', { enabled: false, state: 'disabled' }),
        mcpServer('slow', { state: 'connecting' }),
      ],
    });
    const { mcp } = await openMCP();
    const items = within(mcp.getByRole('list', { name: 'App servers' })).getAllByRole('listitem', { name: /./ });
    expect(items.map((li) => li.getAttribute('aria-label'))).toEqual(['everything', 'broken', 'linear', 'off', 'slow']);
    const everything = within(items[0]!);
    expect(everything.getByText('Ready')).toBeInTheDocument();
    expect(everything.getByText(/stdio · App · 2 tools · ~240 tokens/)).toBeInTheDocument();
    expect(everything.getByText('npx -y @example/everything')).toBeInTheDocument();

    const broken = within(items[1]!);
    expect(broken.getByText('Failed')).toBeInTheDocument();
    expect(broken.getByText(/exited 3 times/)).toHaveTextContent('MCP_PROTOCOL_ERROR');
    expect(broken.getByLabelText('Last log lines')).toHaveTextContent('Error: cannot find module x exit 1');

    const linear = within(items[2]!);
    expect(linear.getByText('Needs sign-in')).toBeInTheDocument();
    expect(linear.getByText(/HTTP · App/)).toBeInTheDocument();
    expect(linear.queryByRole('button', { name: 'View the log of linear' })).not.toBeInTheDocument();
    await screen.findByRole('button', { name: 'Sign in to linear' }).then((b) => b.click());
    await waitFor(() => expect(bridge.signInMCPServer).toHaveBeenCalledWith('', 'linear'));
    await waitFor(() => expect(within(mcp.getByRole('listitem', { name: 'linear' })).getByText('Ready')).toBeInTheDocument());

    expect(within(items[3]!).getByText('Disabled')).toBeInTheDocument();
    expect(within(items[3]!).getByRole('switch', { name: 'Enable off' })).toHaveAttribute('aria-checked', 'false');
    expect(within(items[4]!).getByText('Connecting')).toBeInTheDocument();
  });

  it('shows a failed load with its code, e.g. while the backend has no MCP yet', async () => {
    bridge.listMCPServers.mockRejectedValue(new BridgeError('MCP_SERVER_UNAVAILABLE', 'MCP servers are not available in this build yet'));
    const app = await renderApp();
    await app.user.click(screen.getByRole('button', { name: 'Settings' }));
    const mcp = within(await screen.findByRole('group', { name: 'MCP servers' }));
    const alert = await mcp.findByRole('alert');
    expect(alert).toHaveTextContent('MCP servers are not available in this build yet');
    expect(alert).toHaveTextContent('MCP_SERVER_UNAVAILABLE');
  });

  it('adds a stdio server with arguments and a secret variable; the secret never shows again', async () => {
    const { user, mcp, container } = await openMCP();
    expect(mcp.getByText('No MCP server yet.')).toBeInTheDocument();
    await user.click(mcp.getByRole('button', { name: 'Add server' }));
    const form = within(mcp.getByRole('form', { name: 'Add an MCP server' }));
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'everything');
    await user.type(form.getByRole('textbox', { name: 'Command' }), 'npx');
    await user.type(form.getByRole('textbox', { name: 'Arguments' }), '-y{Enter}@modelcontextprotocol/server-everything');
    await user.click(form.getByRole('button', { name: 'Add variable' }));
    await user.type(form.getByRole('textbox', { name: 'Variable 1 name' }), 'API_TOKEN');
    await user.click(form.getByRole('checkbox', { name: 'Secret' }));
    const value = form.getByLabelText('Variable 1 value');
    expect(value).toHaveAttribute('type', 'password');
    await user.type(value, 'tok-typed-1');
    await user.type(form.getByRole('textbox', { name: 'Tool call timeout (seconds)' }), '300');
    await user.click(form.getByRole('button', { name: 'Add server' }));

    expect(bridge.saveMCPServer).toHaveBeenCalledWith({
      id: 'everything', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'],
      env: [{ name: 'API_TOKEN', value: 'tok-typed-1', secret: true, hasValue: false }], cwd: '', url: '', headers: [], enabled: true,
      connectTimeoutMs: 0, callTimeoutMs: 300_000,
    });
    expect(await mcp.findByRole('listitem', { name: 'everything' })).toBeInTheDocument();
    expect(mcp.queryByRole('form')).not.toBeInTheDocument();
    expect(backend.mcpSecrets['everything/API_TOKEN']).toBe('tok-typed-1');
    expect(container).not.toHaveTextContent('tok-typed-1');
  });

  it('edits a server: a saved secret is never prefilled, and leaving it empty keeps it', async () => {
    seed({
      mcpServers: [
        mcpServer('gh', {
          transport: 'http', command: '', args: [], url: 'https://api.example.com/mcp',
          headers: [{ name: 'Authorization', value: '', secret: true, hasValue: true }, { name: 'X-Team', value: 'core', secret: false, hasValue: true }],
        }),
      ],
    });
    const { user, mcp, container } = await openMCP();
    await user.click(mcp.getByRole('button', { name: 'Edit gh' }));
    const form = within(mcp.getByRole('form', { name: 'Edit gh' }));
    expect(form.getByRole('textbox', { name: 'Name' })).toHaveAttribute('readonly');
    const secret = form.getByLabelText('Header 1 value');
    expect(secret).toHaveValue('');
    expect(secret).toHaveAttribute('type', 'password');
    expect(secret).toHaveAttribute('placeholder', 'Saved — leave empty to keep');
    expect(form.getByLabelText('Header 2 value')).toHaveValue('core');
    await user.clear(form.getByRole('textbox', { name: 'URL' }));
    await user.type(form.getByRole('textbox', { name: 'URL' }), 'https://api.example.com/v2/mcp');
    await user.click(form.getByRole('button', { name: 'Save server' }));
    expect(bridge.saveMCPServer).toHaveBeenCalledWith(
      expect.objectContaining({
        id: 'gh', transport: 'http', url: 'https://api.example.com/v2/mcp',
        headers: [{ name: 'Authorization', value: '', secret: true, hasValue: true }, { name: 'X-Team', value: 'core', secret: false, hasValue: false }],
      }),
    );
    await waitFor(() => expect(mcp.queryByRole('form')).not.toBeInTheDocument());
    expect(backend.mcpSecrets['gh/Authorization']).toBe('secret-Authorization');

    // A renamed secret row is not the saved one: its value must be typed again.
    await user.click(mcp.getByRole('button', { name: 'Edit gh' }));
    const again = within(mcp.getByRole('form', { name: 'Edit gh' }));
    await user.type(again.getByRole('textbox', { name: 'Header 1 name' }), '-2');
    expect(again.getByLabelText('Header 1 value')).toHaveAttribute('placeholder', 'value');
    await user.click(again.getByRole('button', { name: 'Save server' }));
    expect(again.getByRole('group', { name: 'Headers' })).toHaveAccessibleDescription(/Enter the secret value of Authorization-2/);
    expect(bridge.saveMCPServer).toHaveBeenCalledTimes(1);
    expect(container).not.toHaveTextContent('secret-Authorization');
  });

  it('validates locally, then shows the backend’s INVALID_ARGUMENT at the field it names', async () => {
    const { user, mcp } = await openMCP();
    await user.click(mcp.getByRole('button', { name: 'Add server' }));
    const form = within(mcp.getByRole('form', { name: 'Add an MCP server' }));
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'bad name');
    await user.type(form.getByRole('textbox', { name: 'Tool call timeout (seconds)' }), '601');
    await user.click(form.getByRole('button', { name: 'Add variable' }));
    await user.click(form.getByRole('button', { name: 'Add server' }));
    expect(form.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(/letters, digits, _ and - only/);
    expect(form.getByRole('textbox', { name: 'Command' })).toHaveAccessibleDescription(/command that starts the server/);
    expect(form.getByRole('textbox', { name: 'Tool call timeout (seconds)' })).toHaveAccessibleDescription(/from 1 to 600/);
    expect(form.getByRole('group', { name: 'Environment variables' })).toHaveAccessibleDescription(/Give every variable a name/);
    expect(bridge.saveMCPServer).not.toHaveBeenCalled();

    await user.clear(form.getByRole('textbox', { name: 'Name' }));
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'remote');
    await user.click(form.getByRole('button', { name: 'Remove variable 1' }));
    await user.clear(form.getByRole('textbox', { name: 'Tool call timeout (seconds)' }));
    await user.selectOptions(form.getByRole('combobox', { name: 'Transport' }), 'sse');
    await user.type(form.getByRole('textbox', { name: 'URL' }), 'https://example.com/sse');
    bridge.saveMCPServer.mockRejectedValueOnce(new BridgeError('INVALID_ARGUMENT', 'the host example.com is not reachable', { field: 'url' }));
    await user.click(form.getByRole('button', { name: 'Add server' }));
    expect(await form.findByText('the host example.com is not reachable')).toBeInTheDocument();
    expect(form.getByRole('textbox', { name: 'URL' })).toHaveAttribute('aria-invalid', 'true');
    // backend/mcp names the timeouts without "Ms".
    bridge.saveMCPServer.mockRejectedValueOnce(new BridgeError('INVALID_ARGUMENT', 'the call timeout must be between 0 (default 100s) and 10m0s', { field: 'callTimeout' }));
    await user.click(form.getByRole('button', { name: 'Add server' }));
    expect(await form.findByText(/the call timeout must be between/)).toBeInTheDocument();
    expect(form.getByRole('textbox', { name: 'Tool call timeout (seconds)' })).toHaveAttribute('aria-invalid', 'true');
    bridge.saveMCPServer.mockRejectedValueOnce(new BridgeError('MCP_SERVER_UNAVAILABLE', 'MCP servers are not available in this build yet'));
    await user.click(form.getByRole('button', { name: 'Add server' }));
    const alert = await form.findByText(/not available in this build/);
    expect(alert.closest('[role="alert"]')).toHaveTextContent('MCP_SERVER_UNAVAILABLE');
  });

  it('Test shows the tools found, or the error with its code and the log lines', async () => {
    seed({ mcpServers: [mcpServer('everything')] });
    const { user, mcp } = await openMCP();
    await user.click(mcp.getByRole('button', { name: 'Test everything' }));
    const item = within(mcp.getByRole('listitem', { name: 'everything' }));
    expect(await item.findByText(/Connected: 2 tools/)).toBeInTheDocument();
    expect(within(item.getByRole('list', { name: 'Tools found' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'echo · ~120 tokens',
      'add · ~120 tokens',
    ]);
    expect(bridge.testMCPServer).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'everything', command: 'npx', args: ['-y', '@example/everything'] }));

    bridge.testMCPServer.mockResolvedValueOnce({ ok: false, errorCode: 'MCP_CONNECT_TIMEOUT', error: 'no answer within 10 s', tools: [], logTail: ['npm ERR! 404 @example/everything'] });
    await user.click(mcp.getByRole('button', { name: 'Test everything' }));
    const status = await item.findByText(/no answer within 10 s/);
    expect(status.closest('[role="status"]')).toHaveTextContent('MCP_CONNECT_TIMEOUT');
    expect(status.closest('[role="status"]')).toHaveTextContent('npm ERR! 404 @example/everything');

    bridge.testMCPServer.mockRejectedValueOnce(new BridgeError('MCP_SERVER_UNAVAILABLE', 'MCP servers are not available in this build yet'));
    await user.click(mcp.getByRole('button', { name: 'Test everything' }));
    expect(await item.findByRole('alert')).toHaveTextContent('MCP_SERVER_UNAVAILABLE');
  });

  it('toggles a server and a single tool, restarts, opens the log, and removes after confirming', async () => {
    seed({ mcpServers: [mcpServer('everything', { tools: [mcpTool('everything', 'echo', { title: 'Echo back' }), mcpTool('everything', 'add')] })], mcpLogs: { '/everything': 'listening on stdio\nwarn: slow start' } });
    const { user, mcp } = await openMCP();
    const item = () => within(mcp.getByRole('listitem', { name: 'everything' }));
    await user.click(item().getByRole('button', { name: 'Tools of everything' }));
    const tools = within(item().getByRole('list', { name: 'Tools of everything' }));
    expect(tools.getByText(/Echo back/)).toBeInTheDocument();
    await user.click(tools.getByRole('switch', { name: 'Enable tool echo' }));
    expect(bridge.setMCPToolEnabled).toHaveBeenCalledWith('', 'everything', 'echo', false);
    await waitFor(() => expect(item().getByText(/2 tools \(1 enabled\)/)).toBeInTheDocument());

    await user.click(item().getByRole('button', { name: 'Restart everything' }));
    expect(bridge.restartMCPServer).toHaveBeenCalledWith('', 'everything');

    await user.click(item().getByRole('button', { name: 'View the log of everything' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log of everything' });
    expect(await within(dialog).findByLabelText('Log of everything')).toHaveTextContent('listening on stdio warn: slow start');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await user.click(item().getByRole('switch', { name: 'Enable everything' }));
    expect(bridge.setMCPServerEnabled).toHaveBeenCalledWith('', 'everything', false);
    await waitFor(() => expect(item().getByText('Disabled')).toBeInTheDocument());

    await user.click(item().getByRole('button', { name: 'Remove everything' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove everything?' });
    expect(confirm).toHaveTextContent('saved secrets and sign-in tokens are deleted');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(bridge.removeMCPServer).toHaveBeenCalledWith('everything');
    await waitFor(() => expect(mcp.queryByRole('listitem', { name: 'everything' })).not.toBeInTheDocument());
  });

  it('a sign-in waiting on the browser can be cancelled, which is no error', async () => {
    seed({ mcpServers: [mcpServer('linear', { transport: 'http', url: 'https://mcp.linear.app/mcp', command: '', args: [], state: 'needs_auth', errorCode: 'MCP_AUTH_REQUIRED', error: 'sign in again' })] });
    const { user, mcp } = await openMCP();
    let reject: (e: unknown) => void = () => {};
    bridge.signInMCPServer.mockImplementationOnce(() => new Promise<void>((_, r) => (reject = r)));
    bridge.cancelMCPSignIn.mockImplementationOnce(async () => reject(new BridgeError('MCP_AUTH_REQUIRED', 'the sign-in was cancelled')));
    const item = within(mcp.getByRole('listitem', { name: 'linear' }));
    await user.click(item.getByRole('button', { name: 'Sign in to linear' }));
    expect(item.getByRole('button', { name: 'Sign in to linear' })).toHaveTextContent('Waiting for the browser…');
    expect(item.getByRole('button', { name: 'Sign in to linear' })).toBeDisabled();
    await user.click(item.getByRole('button', { name: 'Cancel the sign-in to linear' }));
    expect(bridge.cancelMCPSignIn).toHaveBeenCalledWith('', 'linear');
    await waitFor(() => expect(item.queryByRole('button', { name: 'Cancel the sign-in to linear' })).not.toBeInTheDocument());
    expect(item.getByRole('button', { name: 'Sign in to linear' })).toBeEnabled();
    expect(item.queryByRole('alert')).not.toBeInTheDocument();

    // A sign-in that fails on its own says why.
    bridge.signInMCPServer.mockRejectedValueOnce(new BridgeError('MCP_AUTH_REQUIRED', 'PI-Desktop is closing, so the sign-in was ended'));
    await user.click(item.getByRole('button', { name: 'Sign in to linear' }));
    expect(await item.findByRole('alert')).toHaveTextContent('MCP_AUTH_REQUIRED');
  });

  it('a sign-in started before Settings was reopened can still be cancelled', async () => {
    seed({ mcpServers: [mcpServer('linear', { transport: 'http', url: 'https://mcp.linear.app/mcp', command: '', args: [], state: 'needs_auth', signingIn: true })] });
    const { user, mcp } = await openMCP();
    const item = within(mcp.getByRole('listitem', { name: 'linear' }));
    expect(item.getByRole('button', { name: 'Sign in to linear' })).toHaveTextContent('Waiting for the browser…');
    expect(item.getByRole('button', { name: 'Sign in to linear' })).toBeDisabled();
    await user.click(item.getByRole('button', { name: 'Cancel the sign-in to linear' }));
    expect(bridge.cancelMCPSignIn).toHaveBeenCalledWith('', 'linear');
  });

  it('a project whose list fails still shows the app servers', async () => {
    seed({ mcpServers: [mcpServer('everything')] });
    const listed = bridge.listMCPServers.getMockImplementation()!;
    bridge.listMCPServers.mockImplementation(async (projectId: string) => {
      if (projectId === 'p1') throw new BridgeError('PROJECT_NOT_FOUND', 'the project folder is gone');
      return listed(projectId);
    });
    const { mcp } = await openMCP();
    const apps = await mcp.findByRole('list', { name: 'App servers' });
    expect(within(apps).getByRole('listitem', { name: 'everything' })).toBeInTheDocument();
    expect(bridge.listMCPServers).toHaveBeenCalledWith('');
  });

  it('an action refused by the backend shows its code on the server', async () => {
    seed({ mcpServers: [mcpServer('everything')] });
    const { user, mcp } = await openMCP();
    bridge.restartMCPServer.mockRejectedValueOnce(new BridgeError('MCP_SERVER_UNAVAILABLE', 'MCP servers are not available in this build yet'));
    await user.click(mcp.getByRole('button', { name: 'Restart everything' }));
    expect(await within(mcp.getByRole('listitem', { name: 'everything' })).findByRole('alert')).toHaveTextContent('MCP_SERVER_UNAVAILABLE');
  });
});

describe('Settings → the project’s MCP servers', () => {
  async function openProject() {
    const r = await openMCP();
    const group = within(await screen.findByRole('group', { name: 'MCP servers of alpha-app' }));
    return { ...r, group };
  }

  it('shows an untrusted server’s trust card with the exact command and file, and starts nothing before the click', async () => {
    seed({ mcpServers: [mcpServer('everything'), untrusted] });
    const { user, group } = await openProject();
    const item = within(await group.findByRole('listitem', { name: 'db' }));
    expect(item.getByText('Not trusted')).toBeInTheDocument();
    const card = within(item.getByRole('region', { name: 'Trust db for this project?' }));
    expect(card.getByLabelText('Command')).toHaveTextContent(/^uvx mcp-server-postgres --url 'postgres:\/\/me@localhost\/my db' 'it'\\''s'$/);
    expect(card.getAllByText('.mcp.json').length).toBeGreaterThan(0);
    expect(card.getByText('PGPASSWORD=(secret)')).toBeInTheDocument();
    expect(card.getByText('LOG=debug')).toBeInTheDocument();
    expect(card.getByText('sha256:aaaa1111')).toBeInTheDocument();
    // Nothing that would start it is offered.
    expect(item.queryByRole('switch')).not.toBeInTheDocument();
    expect(item.queryByRole('button', { name: /Test|Restart|Log/ })).not.toBeInTheDocument();
    expect(bridge.listMCPServers).toHaveBeenCalledWith('p1');
    expect(bridge.restartMCPServer).not.toHaveBeenCalled();

    await user.click(card.getByRole('button', { name: 'Trust and start' }));
    expect(bridge.trustMCPServer).toHaveBeenCalledWith('p1', 'db', 'sha256:aaaa1111');
    await waitFor(() => expect(item.queryByRole('region')).not.toBeInTheDocument());
    expect(item.getByText('Ready')).toBeInTheDocument();
    // The app's servers stay in their own list.
    expect(group.queryByRole('listitem', { name: 'everything' })).not.toBeInTheDocument();
  });

  it('says when a project server replaces an app server of the same name', async () => {
    seed({ mcpServers: [mcpServer('db'), { ...untrusted, trusted: true, state: 'ready' }] });
    const { group } = await openProject();
    const item = within(await group.findByRole('listitem', { name: 'db' }));
    expect(await item.findByText('In this project’s sessions it replaces the app server db.')).toBeInTheDocument();
  });

  it('asks again when the project changes the definition', async () => {
    seed({ mcpServers: [{ ...untrusted, trusted: true, state: 'ready' }] });
    const { group } = await openProject();
    const item = within(await group.findByRole('listitem', { name: 'db' }));
    expect(item.queryByRole('region')).not.toBeInTheDocument();
    Object.assign(backend.mcpServers[0]!, { trusted: false, state: 'untrusted', args: ['mcp-server-postgres', '--evil'], definitionHash: 'sha256:bbbb2222' });
    backend.emit('mcp:changed', { projectId: 'p1', serverId: 'db' });
    const card = within(await item.findByRole('region', { name: 'Trust db for this project?' }));
    expect(card.getByLabelText('Command')).toHaveTextContent('uvx mcp-server-postgres --evil');
    expect(card.getByText('sha256:bbbb2222')).toBeInTheDocument();
  });

  it('tests a trusted project server by id; an untrusted one has no Test', async () => {
    const trusted = { ...untrusted, id: 'docs', trusted: true, state: 'ready' as const, tools: [mcpTool('docs', 'search')], definitionHash: 'sha256:cccc3333' };
    seed({ mcpServers: [trusted, untrusted] });
    const { user, group } = await openProject();
    const item = within(await group.findByRole('listitem', { name: 'docs' }));
    await user.click(item.getByRole('button', { name: 'Test docs' }));
    expect(await item.findByText(/Connected: 1 tool/)).toBeInTheDocument();
    expect(bridge.testMCPServerByID).toHaveBeenCalledWith('p1', 'docs');
    expect(bridge.testMCPServer).not.toHaveBeenCalled();

    bridge.testMCPServerByID.mockResolvedValueOnce({ ok: false, errorCode: 'MCP_CONNECT_TIMEOUT', error: 'no answer within 10 s', tools: [], logTail: ['boom'] });
    await user.click(item.getByRole('button', { name: 'Test docs' }));
    const status = await item.findByText(/no answer within 10 s/);
    expect(status.closest('[role="status"]')).toHaveTextContent('MCP_CONNECT_TIMEOUT');

    expect(within(group.getByRole('listitem', { name: 'db' })).queryByRole('button', { name: 'Test db' })).not.toBeInTheDocument();
  });

  it('lists an app server and a project server of one id apart, marking the one the project overrides', async () => {
    const errors = vi.spyOn(console, 'error');
    seed({ mcpServers: [mcpServer('db'), untrusted] });
    const { user, mcp, group } = await openProject();
    // Untrusted, the project's never runs: its sessions use the app's.
    const own = within(await group.findByRole('listitem', { name: 'db' }));
    expect(own.getByText('Until you trust it, this project’s sessions use the app server db.')).toBeInTheDocument();
    const app = within(mcp.getByRole('listitem', { name: 'db' }));
    expect(app.queryByText('Overridden by the project’s')).not.toBeInTheDocument();

    await user.click(own.getByRole('button', { name: 'Trust and start' }));
    expect(await own.findByText('In this project’s sessions it replaces the app server db.')).toBeInTheDocument();
    const appNow = within(mcp.getByRole('listitem', { name: 'db' }));
    expect(await appNow.findByText('Overridden by the project’s')).toBeInTheDocument();
    expect(appNow.getByText(/This project’s own db replaces it/)).toBeInTheDocument();
    expect(within(group.getByRole('listitem', { name: 'db' })).queryByText('Overridden by the project’s')).not.toBeInTheDocument();
    expect(errors.mock.calls.flat().join(' ')).not.toMatch(/same key/);
    errors.mockRestore();
  });

  it('shows a project file or folder that cannot be read as a row with its reason, offering nothing to trust or run', async () => {
    const problem = (source: string, errorCode: string, error: string) =>
      mcpServer('', { scope: 'project', projectId: 'p1', source, state: 'failed', errorCode, error, trusted: false, definitionHash: '', tools: [], command: '', args: [] });
    seed({
      mcpServers: [
        problem('.mcp.json', 'INVALID_ARGUMENT', '.mcp.json is not a JSON object (syntax error at byte 14)'),
        problem('.', 'PROJECT_NOT_FOUND', 'the project folder /work/alpha cannot be opened; check that it exists and is readable'),
      ],
    });
    const { group } = await openProject();
    const file = within(await group.findByRole('listitem', { name: '.mcp.json' }));
    expect(file.getByText(/syntax error at byte 14/)).toHaveTextContent('INVALID_ARGUMENT');
    const folder = within(group.getByRole('listitem', { name: 'the project folder' }));
    expect(folder.getByText(/cannot be opened/)).toHaveTextContent('PROJECT_NOT_FOUND');
    for (const row of [file, folder]) {
      expect(row.getByText('Cannot be read')).toBeInTheDocument();
      expect(row.queryByRole('region')).not.toBeInTheDocument();
      expect(row.queryByRole('button')).not.toBeInTheDocument();
      expect(row.queryByRole('switch')).not.toBeInTheDocument();
    }
  });

  it('shows a refused trust with its code', async () => {
    seed({ mcpServers: [untrusted] });
    const { user, group } = await openProject();
    const item = within(await group.findByRole('listitem', { name: 'db' }));
    bridge.trustMCPServer.mockRejectedValueOnce(new BridgeError('CONFLICT', 'the definition changed since you saw it; review it again'));
    await user.click(item.getByRole('button', { name: 'Trust and start' }));
    expect(await item.findByRole('alert')).toHaveTextContent('CONFLICT');
  });
});
