import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, mcpServer, mcpTool, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)],
    mcpServers: [mcpServer('everything', { tools: [mcpTool('everything', 'trigger-long-running-operation', { title: 'Long operation' })] })],
  });
});

const base = { sessionId: 's1', turnId: 't1' };

function emit(name: string, payload: Record<string, unknown>) {
  act(() => backend.emit(name, payload));
}

async function openSession() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
  await waitFor(() => expect(screen.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-busy', 'false'));
  emit('agent:turn', { ...base, state: 'running' });
  emit('agent:message', { ...base, messageId: 'm1', role: 'assistant', kind: 'model', state: 'tool_use' });
  return { ...r, log: within(screen.getByRole('log', { name: 'Transcript' })) };
}

describe('MCP tool rows', () => {
  it('name the server and the tool’s own name and title, and show its progress while it runs', async () => {
    const { log } = await openSession();
    const call = { ...base, messageId: 'm1', toolCallId: 'c1', toolUseId: 'u1', tool: 'mcp_everything_trigger-long-running-operation' };
    emit('agent:tool_call', { ...call, phase: 'ready', args: { duration: 5, steps: 5 } });
    emit('agent:tool_call', { ...call, phase: 'running' });
    const head = await log.findByRole('button', { name: /trigger-long-running-operation/ });
    await waitFor(() => expect(head).toHaveTextContent('everything'));
    expect(head).toHaveTextContent('— Long operation');
    expect(head.querySelector('.tool-name')).toHaveAttribute('title', 'mcp_everything_trigger-long-running-operation');
    expect(head).not.toHaveTextContent('mcp_everything');

    emit('tool:output', { sessionId: 's1', toolCallId: 'c1', stream: 'progress', seq: 1, text: 'Step 1 of 5\n' });
    emit('tool:output', { sessionId: 's1', toolCallId: 'c1', stream: 'progress', seq: 2, text: 'Step 2 of 5\n' });
    const block = head.closest('.tool-block') as HTMLElement;
    await waitFor(() => expect(within(block).getByRole('status')).toHaveTextContent(/^Step 2 of 5$/));
    // The progress line replaces the raw live output.
    expect(within(block).queryByLabelText('Live output')).not.toBeInTheDocument();

    emit('agent:tool_result', { ...call, state: 'done', result: { ok: true, content: 'Long running operation completed.' }, modelText: '…', isError: false });
    await waitFor(() => expect(log.queryByText('Step 2 of 5')).not.toBeInTheDocument());
    expect(head).toHaveTextContent('Done');
  });

  it('prefer the origin the tool_call event names over the catalog and the name', async () => {
    const { log } = await openSession();
    // Split at its first "_" the name would read as server "gh", tool "tools_create".
    const call = { ...base, messageId: 'm1', toolCallId: 'c3', toolUseId: 'u3', tool: 'mcp_gh_tools_create' };
    emit('agent:tool_call', { ...call, phase: 'ready', args: {}, mcp: { server: 'gh_tools', tool: 'create', title: 'Create an issue' } });
    // A later event without the origin keeps it.
    emit('agent:tool_call', { ...call, phase: 'running' });
    const head = await log.findByRole('button', { name: /create/ });
    expect(head.querySelector('.tool-mcp-server')).toHaveTextContent(/^gh_tools$/);
    expect(head).toHaveTextContent('create — Create an issue');
    expect(head).not.toHaveTextContent('tools_create');
  });

  it('show progress lines apart from output: the newest as the status line, all of them set off in the details', async () => {
    const { log, user } = await openSession();
    const call = { ...base, messageId: 'm1', toolCallId: 'c4', toolUseId: 'u4', tool: 'mcp_everything_trigger-long-running-operation' };
    emit('agent:tool_call', { ...call, phase: 'running', args: { duration: 5, steps: 5 }, mcp: { server: 'everything', tool: 'trigger-long-running-operation', title: 'Long operation' } });
    emit('tool:output', { sessionId: 's1', toolCallId: 'c4', stream: 'progress', seq: 0, text: 'progress 1/5\n' });
    emit('tool:output', { sessionId: 's1', toolCallId: 'c4', stream: 'stdout', seq: 0, text: 'raw output\n' });
    emit('tool:output', { sessionId: 's1', toolCallId: 'c4', stream: 'progress', seq: 1, text: 'progress 2/5: halfway\n' });
    const head = await log.findByRole('button', { name: /trigger-long-running-operation/ });
    const block = head.closest('.tool-block') as HTMLElement;
    await waitFor(() => expect(within(block).getByRole('status')).toHaveTextContent(/^progress 2\/5: halfway$/));
    // Output that is not progress still streams live, without the progress lines.
    const live = within(block).getByLabelText('Live output');
    expect(live).toHaveTextContent('raw output');
    expect(live).not.toHaveTextContent('progress');
    // The details show every line, progress set off from output.
    await user.click(head);
    const lines = [...block.querySelectorAll('#tool-details-c4 .tool-output-live span')].map((el) => [el.className, el.textContent]);
    expect(lines).toEqual([
      ['out-progress', 'progress 1/5\n'],
      ['', 'raw output\n'],
      ['out-progress', 'progress 2/5: halfway\n'],
    ]);
  });

  it('splits a name the catalog does not know at its server', async () => {
    const { log } = await openSession();
    emit('agent:tool_call', { ...base, messageId: 'm1', toolCallId: 'c2', toolUseId: 'u2', tool: 'mcp_github_create_issue', phase: 'running', args: {} });
    const head = await log.findByRole('button', { name: /create_issue/ });
    expect(head.querySelector('.tool-mcp-server')).toHaveTextContent('github');
    expect(head).not.toHaveTextContent('mcp_github');
  });

  it('the approval card names the tool and its server', async () => {
    await openSession();
    emit('permission:request', {
      id: 'r1', sessionId: 's1', turnId: 't1', toolCallId: 'c1', tool: 'mcp_everything_trigger-long-running-operation', risk: 'medium',
      reason: 'MCP server tool requires approval', preview: '{"duration":5}', createdAt: NOW,
    });
    expect(await screen.findByRole('region', { name: 'Allow trigger-long-running-operation (Long operation) from everything?' })).toBeInTheDocument();
  });

  it('the approval card names the server and tool the request carries, even ones the catalog does not know', async () => {
    await openSession();
    emit('permission:request', {
      id: 'r2', sessionId: 's1', turnId: 't1', toolCallId: 'c3', tool: 'mcp_gh_tools_create', risk: 'medium',
      reason: 'MCP server tool requires approval', preview: '{}', server: 'gh_tools', serverTool: 'create', toolTitle: 'Create an issue', createdAt: NOW,
    });
    expect(await screen.findByRole('region', { name: 'Allow create (Create an issue) from gh_tools?' })).toBeInTheDocument();
  });
});
