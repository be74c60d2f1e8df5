import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)],
  });
});

async function openSession() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
  await waitFor(() => expect(screen.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-busy', 'false'));
  return r;
}

function log() {
  return within(screen.getByRole('log', { name: 'Transcript' }));
}

/** A Bash card as hostcore sends it for `timeout 5 git status && echo x > .git/hooks/x && rm -rf build`. */
function bashCard(id: string, extra: Record<string, unknown> = {}) {
  return {
    id, sessionId: 's1', turnId: 't1', toolCallId: `c-${id}`, tool: 'Bash', risk: 'high', reason: 'runs a command on your machine',
    preview: '{"command":"timeout 5 git status && echo x > .git/hooks/x && rm -rf build"}', path: '', external: false,
    workspace: '/home/dev/alpha-app', createdAt: NOW,
    command: {
      decision: 'ask', reason: '2 of 3 commands need you', dialect: 'posix',
      commands: [
        { text: 'timeout 5 git status', wrappers: ['timeout 5'], decision: 'allow', reason: 'allowed by rule: allow git status (project)', rules: ['allow git status (project)'] },
        { text: 'echo x > .git/hooks/x', wrappers: null, decision: 'ask', reason: 'no rule allows “echo x”', rules: null },
        { text: 'rm -rf build', wrappers: [], decision: 'ask', reason: 'no rule allows “rm -rf”', rules: [] },
      ],
      writes: [
        { path: '.git/hooks/x', abs: '/home/dev/alpha-app/.git/hooks/x', root: 'workspace', via: '>', decision: 'ask', reason: 'writes to a git folder (.git)' },
        { path: '/tmp/out.txt', abs: '/tmp/out.txt', root: 'external', via: 'tee', decision: 'ask', reason: 'reads or writes a path outside the workspace' },
        { path: '/dev/null', abs: '', root: 'null', via: '>', decision: 'allow' },
      ],
      matched: ['allow git status (project)'],
    },
    ruleChoices: [
      { id: '0-session', words: 'echo', scope: 'session', label: 'Always allow echo in this session' },
      { id: '0-project', words: 'echo', scope: 'project', label: 'Always allow echo in this project' },
    ],
    ...extra,
  };
}

describe('Bash approval card', () => {
  it('shows every simple command with its decision, wrappers, writes and matched rules', async () => {
    backend.approvals.push(bashCard('r1'));
    await openSession();
    const card = await log().findByRole('region', { name: 'Allow Bash?' });
    const lines = within(within(card).getByRole('list', { name: 'Commands' })).getAllByRole('listitem');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toHaveTextContent('allowed by rule');
    expect(lines[0]).toHaveTextContent('timeout 5 git status');
    expect(lines[0]).toHaveTextContent('through timeout 5');
    expect(lines[1]).toHaveTextContent('needs you');
    expect(lines[1]).toHaveTextContent('echo x > .git/hooks/x');
    expect(lines[2]).toHaveTextContent('rm -rf build');
    expect(lines[2]).toHaveTextContent('no rule allows “rm -rf”');
    const writes = within(within(card).getByRole('list', { name: 'Files it writes' })).getAllByRole('listitem');
    expect(writes).toHaveLength(3);
    expect(writes[0]).toHaveTextContent('workspace');
    expect(writes[0]).toHaveTextContent('/home/dev/alpha-app/.git/hooks/x');
    expect(writes[0]).toHaveTextContent('writes to a git folder');
    expect(writes[1]).toHaveTextContent('outside');
    expect(writes[1]).toHaveTextContent('via tee');
    expect(writes[2]).toHaveTextContent('discarded');
    expect(card).toHaveTextContent('matched: allow git status (project)');
    // Allow-session says plainly that it covers every command.
    const session = within(card).getByRole('button', { name: 'Allow every command for session' });
    expect(session).toHaveAttribute('title', expect.stringMatching(/every command/));
  });

  it('an Always allow choice answers with its id and the card says which rule was saved', async () => {
    backend.approvals.push(bashCard('r1'));
    const { user } = await openSession();
    const card = await log().findByRole('region', { name: 'Allow Bash?' });
    expect(within(card).getByRole('button', { name: 'Always allow echo in this session' })).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Always allow echo in this project' }));
    expect(bridge.resolveApproval).toHaveBeenCalledWith('s1', 'r1', 'allow-rule:0-project');
    expect(await within(card).findByText('Allowed — Always allow echo in this project')).toBeInTheDocument();
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
  });

  it('offers no Always allow without choices and shows why a foreign shell is not parsed', async () => {
    backend.approvals.push(
      bashCard('r1', {
        ruleChoices: null,
        command: {
          decision: 'ask', reason: 'PowerShell commands are not parsed; no rule can allow one', dialect: 'powershell',
          commands: [{ text: 'Get-ChildItem', decision: 'ask', reason: 'PowerShell commands are not parsed; no rule can allow one' }],
        },
      }),
    );
    await openSession();
    const card = await log().findByRole('region', { name: 'Allow Bash?' });
    expect(within(card).queryByRole('button', { name: /Always allow/ })).not.toBeInTheDocument();
    expect(within(card).queryByRole('list', { name: 'Files it writes' })).not.toBeInTheDocument();
    expect(card).toHaveTextContent('PowerShell commands are not parsed');
    expect(within(card).queryByText(/^matched:/)).not.toBeInTheDocument();
  });

  it('a card without a parsed command keeps the plain answers', async () => {
    backend.approvals.push(bashCard('r1', { command: undefined, ruleChoices: undefined }));
    await openSession();
    const card = await log().findByRole('region', { name: 'Allow Bash?' });
    expect(within(card).getByRole('button', { name: 'Allow for session' })).toBeInTheDocument();
    expect(within(card).queryByRole('list', { name: 'Commands' })).not.toBeInTheDocument();
    act(() => backend.emit('permission:resolved', { id: 'r1', sessionId: 's1', outcome: 'allow-rule' }));
    expect(await within(card).findByText('Allowed, and a rule saved')).toBeInTheDocument();
  });
});
