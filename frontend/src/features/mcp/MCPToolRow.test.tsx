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

    emit('tool:output', { sessionId: 's1', toolCallId: 'c1', stream: 'stdout', seq: 1, text: 'Step 1 of 5\n' });
    emit('tool:output', { sessionId: 's1', toolCallId: 'c1', stream: 'stdout', seq: 2, text: 'Step 2 of 5\n' });
    const block = head.closest('.tool-block') as HTMLElement;
    await waitFor(() => expect(within(block).getByRole('status')).toHaveTextContent(/^Step 2 of 5$/));
    // The progress line replaces the raw live output.
    expect(within(block).queryByLabelText('Live output')).not.toBeInTheDocument();

    emit('agent:tool_result', { ...call, state: 'done', result: { ok: true, content: 'Long running operation completed.' }, modelText: '…', isError: false });
    await waitFor(() => expect(log.queryByText('Step 2 of 5')).not.toBeInTheDocument());
    expect(head).toHaveTextContent('Done');
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
});
