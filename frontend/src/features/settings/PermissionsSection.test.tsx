import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, commandRuleRow, project, resetFakeBridge, session, type FakeBackend, type Seed } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;

const rules = [
  commandRuleRow('g1', 'git status', { note: 'read only' }),
  commandRuleRow('p1r', 'rm -rf', { decision: 'deny', scope: 'project', projectId: 'p1' }),
  commandRuleRow('p2r', 'make', { scope: 'project', projectId: 'p2' }),
  commandRuleRow('s1r', 'go test', { scope: 'session', sessionId: 's1' }),
];

function seed(s: Seed = {}) {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app'), project('p2', 'beta')],
    sessions: [session('s1', 'p1', 'First', NOW - 60_000)],
    initialSessionId: 's1',
    commandRules: rules,
    ...s,
  });
}

beforeEach(() => seed());

async function openPermissions() {
  const app = await renderApp();
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const group = within(await screen.findByRole('group', { name: 'Permissions' }));
  await waitFor(() => expect(group.queryByText(/Loading the command rules/)).not.toBeInTheDocument());
  return { ...app, group };
}

const names = (region: HTMLElement) => within(region).queryAllByRole('listitem').map((li) => li.getAttribute('aria-label'));

/** The whole app renders in each test, and the forms are clicked through: room for a loaded machine. */
const APP_TIMEOUT = 30_000;

describe('Settings → Permissions', { timeout: APP_TIMEOUT }, () => {
  it('groups the rules by where they apply: this session, its project (named), global, elsewhere', async () => {
    const { group } = await openPermissions();
    expect(names(group.getByRole('region', { name: 'Session: First' }))).toEqual(['allow go test (session)']);
    expect(names(group.getByRole('region', { name: 'Project: alpha-app' }))).toEqual(['deny rm -rf (project)']);
    const global = group.getByRole('region', { name: 'Global' });
    expect(names(global)).toEqual(['allow git status (global)']);
    expect(within(global).getByText('read only')).toBeInTheDocument();
    const elsewhere = group.getByRole('region', { name: 'Other projects and sessions' });
    expect(names(elsewhere)).toEqual(['allow make (project)']);
    expect(within(elsewhere).getByText(/Project beta/)).toBeInTheDocument();
  });

  it('says when a scope has no rules and hides the other projects when there are none', async () => {
    seed({ commandRules: [rules[0]] });
    const { group } = await openPermissions();
    expect(within(group.getByRole('region', { name: 'Session: First' })).getByText(/No rules for this session alone/)).toBeInTheDocument();
    expect(within(group.getByRole('region', { name: 'Project: alpha-app' })).getByText('No rules for alpha-app.')).toBeInTheDocument();
    expect(group.queryByRole('region', { name: 'Other projects and sessions' })).not.toBeInTheDocument();
  });

  it('adds a rule from the keyboard and lists it under its scope', async () => {
    const { user, group } = await openPermissions();
    await user.click(group.getByRole('button', { name: 'Add rule' }));
    const form = within(group.getByRole('form', { name: 'Add a rule' }));
    await user.click(form.getByRole('textbox', { name: 'Command' }));
    await user.paste('npm run test');
    await user.selectOptions(form.getByRole('combobox', { name: 'Applies to' }), 'Project alpha-app');
    await user.click(form.getByRole('textbox', { name: 'Note' }));
    await user.keyboard('the suite{Enter}');
    await waitFor(() => expect(group.queryByRole('form', { name: 'Add a rule' })).not.toBeInTheDocument());
    await waitFor(() =>
      expect(names(group.getByRole('region', { name: 'Project: alpha-app' }))).toEqual(['deny rm -rf (project)', 'allow npm run test (project)']),
    );
    expect(backend.commandRules.at(-1)).toMatchObject({ projectId: 'p1', note: 'the suite' });
  });

  it('shows a refused rule inline and keeps the form open', async () => {
    const { user, group } = await openPermissions();
    await user.click(group.getByRole('button', { name: 'Add rule' }));
    const form = within(group.getByRole('form', { name: 'Add a rule' }));
    await user.click(form.getByRole('textbox', { name: 'Command' }));
    await user.paste('eval x');
    await user.click(form.getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(form.getByRole('textbox', { name: 'Command' })).toHaveAccessibleDescription(/eval always asks/));
    expect(group.getByRole('form', { name: 'Add a rule' })).toBeInTheDocument();
  });

  it('edits a rule in its row', async () => {
    const { user, group } = await openPermissions();
    await user.click(group.getByRole('button', { name: 'Edit allow git status' }));
    const form = within(group.getByRole('form', { name: 'Edit rule git status' }));
    await user.selectOptions(form.getByRole('combobox', { name: 'Decision' }), 'ask');
    await user.click(form.getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(names(group.getByRole('region', { name: 'Global' }))).toEqual(['ask git status (global)']));
    expect(group.queryByRole('form', { name: /Edit rule/ })).not.toBeInTheDocument();
  });

  it('removes a rule after confirming, and shows a failed removal in its row', async () => {
    const { user, group } = await openPermissions();
    await user.click(group.getByRole('button', { name: 'Remove deny rm -rf' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove the rule rm -rf?' });
    expect(dialog).toHaveTextContent('deny rm -rf (project) no longer applies');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(names(group.getByRole('region', { name: 'Project: alpha-app' }))).toEqual([]));
    expect(backend.commandRules.map((r) => r.id)).toEqual(['g1', 'p2r', 's1r']);

    bridge.removeCommandRule.mockRejectedValueOnce(new BridgeError('STORAGE_UNAVAILABLE', 'could not remove the rule'));
    await user.click(group.getByRole('button', { name: 'Remove allow git status' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Remove the rule git status?' })).getByRole('button', { name: 'Remove' }));
    const row = group.getByRole('listitem', { name: 'allow git status (global)' });
    expect(await within(row).findByRole('alert')).toHaveTextContent('could not remove the rule STORAGE_UNAVAILABLE');
  });

  it('checks a command with the session’s rules', async () => {
    const { user, group } = await openPermissions();
    const check = within(group.getByRole('form', { name: 'Check a command' }));
    await user.click(check.getByRole('textbox', { name: 'Command to check' }));
    await user.paste('make all');
    await user.click(check.getByRole('button', { name: 'Check' }));
    expect(await check.findByRole('region', { name: 'Decision' })).toHaveTextContent('needs you');
    expect(bridge.checkCommand).toHaveBeenCalledWith({ sessionId: 's1', projectId: 'p1', command: 'make all', shell: '' });
  });

  it('shows why the rules could not be loaded', async () => {
    bridge.listCommandRules.mockRejectedValue(new BridgeError('STORAGE_UNAVAILABLE', 'the database did not answer'));
    const app = await renderApp();
    await app.user.click(screen.getByRole('button', { name: 'Settings' }));
    const group = within(await screen.findByRole('group', { name: 'Permissions' }));
    const alert = await group.findByRole('alert');
    expect(alert).toHaveTextContent('The command rules could not be loaded.');
    expect(alert).toHaveTextContent('the database did not answer');
  });
});
