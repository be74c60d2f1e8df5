import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { bridgeModule as bridge, commandCheckRaw, resetFakeBridge } from '../../test/fakeBridge';
import { CommandCheckBox } from './CommandCheckBox';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const chained = 'timeout 5 git status -s && rm -rf build > log.txt';

/** The chained command as Go decides it with allow git status and deny rm -rf; timeout looked through. */
function chainedCheck() {
  const raw = commandCheckRaw(
    'deny',
    [
      ['timeout 5 git status -s', 'allow', 'an allow rule matches', 'git status'],
      ['rm -rf build > log.txt', 'deny', 'a deny rule matches', 'rm -rf'],
    ],
    {
      reason: 'a deny rule matches rm -rf build',
      writes: [{ path: 'log.txt', static: true, via: '>', command: 1 }, { path: '$OUT', static: false, via: '>>', command: -1 }],
      suggestions: ['git status'],
    },
  );
  (raw.commands as Array<Record<string, unknown>>)[0].wrappers = ['timeout 5'];
  return raw;
}

beforeEach(() => {
  resetFakeBridge({ commandChecks: { [chained]: chainedCheck() } });
});

async function paste(text: string) {
  const user = userEvent.setup();
  render(<CommandCheckBox sessionId="s1" projectId="p1" rulesOf="this session’s" />);
  const box = screen.getByRole('textbox', { name: 'Command to check' });
  await user.click(box);
  await user.paste(text);
  return { user, box };
}

/** The tests type into fields key by key: room for a loaded machine. */
const FORM_TIMEOUT = 15_000;

describe('CommandCheckBox', { timeout: FORM_TIMEOUT }, () => {
  it('shows the decision and, for each simple command, its decision, wrappers, matched rules, why and writes', async () => {
    const { user } = await paste(chained);
    expect(screen.getByRole('textbox', { name: 'Command to check' })).toHaveAccessibleDescription(/Decided with this session’s rules/);
    await user.click(screen.getByRole('button', { name: 'Check' }));
    const decision = await screen.findByRole('region', { name: 'Decision' });
    expect(bridge.checkCommand).toHaveBeenCalledWith({ sessionId: 's1', projectId: 'p1', command: chained, shell: '' });
    expect(decision).toHaveTextContent(/^denied a deny rule matches rm -rf build/);
    const rows = within(decision).getAllByRole('listitem');
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['timeout 5 git status -s: allowed by rule', 'rm -rf build > log.txt: denied']);
    expect(rows[0]).toHaveTextContent(/Looked through\s*timeout 5/);
    expect(within(rows[0]).getByText('allow git status (global)')).toBeInTheDocument();
    expect(within(rows[0]).getByText('an allow rule matches')).toBeInTheDocument();
    expect(within(rows[0]).queryByText(/log\.txt$/)).not.toBeInTheDocument();
    expect(within(rows[1]).getByText('deny rm -rf (global)')).toBeInTheDocument();
    expect(within(rows[1]).getByText('> log.txt')).toBeInTheDocument();
    expect(within(decision).getByText('>> $OUT (only known when the shell runs it)')).toBeInTheDocument();
    expect(decision).toHaveTextContent('A card for it would offer “Always allow” for: git status.');
  });

  it('checks with Ctrl+Enter, in the shell chosen', async () => {
    const { user } = await paste('git status');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Shell' }), 'PowerShell');
    await user.click(screen.getByRole('textbox', { name: 'Command to check' }));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByRole('region', { name: 'Decision' })).toHaveTextContent('needs you');
    expect(bridge.checkCommand).toHaveBeenCalledWith(expect.objectContaining({ command: 'git status', shell: 'powershell' }));
  });

  it('keeps Enter for a new line', async () => {
    const { user, box } = await paste('ls');
    await user.keyboard('{Enter}pwd');
    expect(box).toHaveValue('ls\npwd');
    expect(bridge.checkCommand).not.toHaveBeenCalled();
  });

  it('asks for a command instead of checking nothing', async () => {
    const { user, box } = await paste('  ');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(box).toHaveAccessibleDescription(/Paste a command to check\./);
    expect(bridge.checkCommand).not.toHaveBeenCalled();
  });

  it('shows a refused check with its code', async () => {
    bridge.checkCommand.mockReset();
    bridge.checkCommand.mockRejectedValueOnce(new BridgeError('SESSION_NOT_FOUND', 'no session s1; refresh the list'));
    const { user } = await paste('ls');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('no session s1; refresh the list SESSION_NOT_FOUND'));
    expect(screen.queryByRole('region', { name: 'Decision' })).not.toBeInTheDocument();
  });
});
