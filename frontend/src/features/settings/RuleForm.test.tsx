import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, commandRuleRow, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { RuleForm, type RuleOwners } from './RuleForm';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
const owners: RuleOwners = { sessionId: 's1', sessionTitle: 'Fix the build', projectId: 'p1', projectName: 'alpha' };

beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha'), project('p2', 'beta')],
    sessions: [session('s1', 'p1', 'Fix the build', NOW)],
    commandRules: [commandRuleRow('r1', 'git status', { note: 'read only' }), commandRuleRow('r2', 'rm -rf', { decision: 'deny' })],
  });
});

function renderForm(rule: Parameters<typeof RuleForm>[0]['rule'] = null, o: RuleOwners = owners) {
  const onSaved = vi.fn();
  const onCancel = vi.fn();
  const user = userEvent.setup();
  render(<RuleForm rule={rule} owners={o} onSaved={onSaved} onCancel={onCancel} />);
  return { user, onSaved, onCancel };
}

/** The tests type into fields key by key: room for a loaded machine. */
const FORM_TIMEOUT = 15_000;

describe('RuleForm', { timeout: FORM_TIMEOUT }, () => {
  it('adds a rule for the session by default, its words split on spaces', async () => {
    const { user, onSaved } = renderForm();
    expect(screen.getByRole('combobox', { name: 'Applies to' })).toHaveDisplayValue('This session only (Fix the build)');
    await user.type(screen.getByRole('textbox', { name: 'Command' }), '  go   test ./... ');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(bridge.addCommandRule).toHaveBeenCalledWith({
      decision: 'allow', program: 'go', args: ['test', './...'], scope: 'session', projectId: '', sessionId: 's1', note: '',
    });
    expect(backend.commandRules.at(-1)).toMatchObject({ program: 'go', args: ['test', './...'], scope: 'session', sessionId: 's1' });
  });

  it('adds a project or global rule with the owner it names, and a note', async () => {
    const { user, onSaved } = renderForm();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Decision' }), 'deny');
    expect(screen.getByRole('combobox', { name: 'Decision' })).toHaveAccessibleDescription('refused in every permission mode, auto included.');
    await user.type(screen.getByRole('textbox', { name: 'Command' }), 'git push --force');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Applies to' }), 'Project alpha');
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'never');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ decision: 'deny', scope: 'project', projectId: 'p1', note: 'never' })));
  });

  it('offers only global when no session or project is in view', () => {
    renderForm(null, { sessionId: '', sessionTitle: '', projectId: '', projectName: '' });
    const scope = screen.getByRole('combobox', { name: 'Applies to' });
    expect(Array.from((scope as HTMLSelectElement).options).map((o) => o.text)).toEqual(['Global: every project and session']);
  });

  it('asks for the words before calling the backend, under the field', async () => {
    const { user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Command' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    const words = screen.getByRole('textbox', { name: 'Command' });
    expect(words).toHaveAccessibleDescription(/Enter the program and the first words of its arguments/);
    expect(words).toHaveAttribute('aria-invalid', 'true');
    expect(words).toHaveFocus();
    expect(bridge.addCommandRule).not.toHaveBeenCalled();
  });

  it.each([
    ['a word the backend refuses', 'sudo ls', 'Command', /sudo always asks/],
    ['an option as program', '-rf x', 'Command', /looks like an option/],
  ])('shows %s inline under the field it names', async (_, text, field, message) => {
    const { user, onSaved } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Command' }), text);
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    const input = await screen.findByRole('textbox', { name: field });
    await waitFor(() => expect(input).toHaveAccessibleDescription(message));
    expect(input).toHaveFocus();
    expect(onSaved).not.toHaveBeenCalled();
    // Typing clears it.
    await user.type(input, 'x');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('shows a long note refused under Note', async () => {
    const { user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Command' }), 'ls');
    await user.click(screen.getByRole('textbox', { name: 'Note' }));
    await user.paste('n'.repeat(501));
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Note' })).toHaveAccessibleDescription(/longer than 500 bytes/));
  });

  it('edits a rule in place, keeping its id, and shows a conflict above the buttons', async () => {
    const { user, onSaved } = renderForm(backend.commandRules[0]);
    expect(screen.getByRole('form', { name: 'Edit rule git status' })).toBeInTheDocument();
    const words = screen.getByRole('textbox', { name: 'Command' });
    expect(words).toHaveValue('git status');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('read only');
    expect(screen.getByRole('combobox', { name: 'Applies to' })).toHaveDisplayValue('Global: every project and session');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Decision' }), 'deny');
    await user.clear(words);
    await user.type(words, 'rm -rf');
    await user.click(screen.getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/is saved already; remove this one instead.*CONFLICT/);
    expect(onSaved).not.toHaveBeenCalled();

    await user.clear(words);
    await user.type(words, 'git diff');
    await user.click(screen.getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: 'r1', decision: 'deny', program: 'git', args: ['diff'] })));
    expect(bridge.updateCommandRule).toHaveBeenLastCalledWith('r1', expect.objectContaining({ note: 'read only', scope: 'global' }));
  });

  it('keeps an edited rule on its own project, not the one in view', async () => {
    const other = commandRuleRow('r9', 'make', { scope: 'project', projectId: 'p2', projectName: 'beta' });
    const { user } = renderForm(other);
    expect(screen.getByRole('combobox', { name: 'Applies to' })).toHaveDisplayValue('Project beta');
    await user.click(screen.getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(bridge.updateCommandRule).toHaveBeenCalledWith('r9', expect.objectContaining({ scope: 'project', projectId: 'p2' })));
  });

  it('shows a rule gone meanwhile as the backend says, and cancels', async () => {
    bridge.updateCommandRule.mockRejectedValueOnce(new BridgeError('RULE_NOT_FOUND', 'no command rule has the id "r1"'));
    const { user, onCancel } = renderForm(backend.commandRules[0]);
    await user.click(screen.getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('no command rule has the id "r1" RULE_NOT_FOUND');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });

  it('submits with Enter from the keyboard', async () => {
    const { user, onSaved } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Command' }), 'npm run test{Enter}');
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ program: 'npm', args: ['run', 'test'] })));
  });
});
