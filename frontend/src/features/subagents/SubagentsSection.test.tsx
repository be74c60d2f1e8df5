import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, project, provider, resetFakeBridge, session, subagentRow, type FakeBackend, type Seed } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;

const builtinExplore = subagentRow('explore', {
  source: 'builtin', path: 'builtin:explore', editable: false, description: 'Fast read-only investigation.', state: 'overridden',
  overriddenBy: '/data/subagents/explore.md',
});
const myExplore = subagentRow('explore', {
  description: 'My explorer.', tools: ['Read', 'Glob', 'Grep', 'BrowserPreview', 'Bash', 'Edit', 'Write'], toolsWritten: ['*'],
  overrides: 'builtin:explore',
});
const reviewer = subagentRow('reviewer', {
  description: 'Reviews a change.', tools: ['Bash'], inherit: true, toolsWritten: ['inherit', 'Bash'], excludedTools: [],
  model: 'claude', modelProfileId: 'claude', modelProfileName: 'Claude', permission: 'accept-edits', maxTurns: 40,
  prompt: 'Review carefully.',
});
const fixer = subagentRow('fixer', {
  source: 'project', projectId: 'p1', path: '/work/alpha/.agents/subagents/fixer.md', editable: false, description: 'The repo’s fixer.',
  tools: ['Read', 'Edit'], warnings: ['permission auto dropped: a project’s definition cannot set a permission scope; its delegate uses the session’s mode'],
});
const broken = subagentRow('broken', {
  source: 'project', projectId: 'p1', path: '/work/alpha/.claude/agents/broken.md', editable: false, state: 'error',
  error: 'no description: add description: saying when the agent should use this subagent', description: '', permission: '', maxTurns: 0,
});
const otherProject = subagentRow('elsewhere', { source: 'project', projectId: 'p2', editable: false });

function seed(s: Seed = {}) {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app'), project('p2', 'beta')],
    sessions: [session('s1', 'p1', 'First', NOW - 60_000)],
    initialSessionId: 's1',
    providers: [provider('claude', 'Claude')],
    subagents: [builtinExplore, myExplore, reviewer, fixer, broken, otherProject],
    ...s,
  });
}

beforeEach(() => seed());

async function openSubagents() {
  const app = await renderApp();
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const group = within(await screen.findByRole('group', { name: 'Subagents' }));
  await waitFor(() => expect(group.queryByText(/Loading the subagents/)).not.toBeInTheDocument());
  return { ...app, group };
}

/** Replaces a field's text in one paste: typing it key by key is slow on a loaded machine. */
async function fill(user: Awaited<ReturnType<typeof openSubagents>>['user'], field: HTMLElement, text: string) {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

const item = (group: ReturnType<typeof within>, name: RegExp | string) => within(group.getByRole('listitem', { name }));

/** The form tests click through a dozen fields: room for a loaded machine. */
const FORM_TIMEOUT = 15_000;

describe('Settings → Subagents', () => {
  it('lists every definition the project sees: source, description, tools, permission, model, warnings; replaced and unusable ones marked', async () => {
    const { group } = await openSubagents();
    expect(bridge.listSubagents).toHaveBeenCalledWith('p1');
    const rows = within(group.getByRole('list', { name: 'Subagents' })).getAllByRole('listitem', { name: /\(/ });
    expect(rows.map((li) => li.getAttribute('aria-label'))).toEqual([
      'explore (Builtin)', 'explore (Yours)', 'reviewer (Yours)', 'fixer (Project)', 'broken (Project)',
    ]);
    expect(group.getByText('3 of at most 16 in effect.')).toBeInTheDocument();

    const builtin = item(group, 'explore (Builtin)');
    expect(builtin.getByText('Replaced')).toBeInTheDocument();
    expect(builtin.getByText('Replaced by /data/subagents/explore.md.')).toBeInTheDocument();
    expect(builtin.queryByRole('button', { name: /Edit|Delete/ })).not.toBeInTheDocument();

    const mine = item(group, 'explore (Yours)');
    expect(mine.getByText('Replaces the builtin explore.')).toBeInTheDocument();
    expect(mine.getByText('Read, Glob, Grep, BrowserPreview, Bash, Edit, Write')).toBeInTheDocument();

    const rev = item(group, 'reviewer (Yours)');
    expect(rev.getByText('Reviews a change.')).toBeInTheDocument();
    expect(rev.getByText('the session’s tools + Bash')).toBeInTheDocument();
    expect(rev.getByText('Accept edits')).toBeInTheDocument();
    expect(rev.getByText('Claude')).toBeInTheDocument();
    expect(rev.getByText('40')).toBeInTheDocument();
    expect(rev.getByRole('button', { name: 'Edit reviewer' })).toBeInTheDocument();

    const fix = item(group, 'fixer (Project)');
    expect(fix.getByText('the session’s mode')).toBeInTheDocument();
    expect(within(fix.getByRole('list', { name: 'Warnings of fixer' })).getByText(/permission auto dropped/)).toBeInTheDocument();
    expect(fix.getByText('/work/alpha/.agents/subagents/fixer.md')).toBeInTheDocument();
    expect(fix.getByText(/edit it in its file/)).toBeInTheDocument();
    expect(fix.queryByRole('button', { name: /Edit|Delete/ })).not.toBeInTheDocument();

    const bad = item(group, 'broken (Project)');
    expect(bad.getByText('Cannot be used')).toBeInTheDocument();
    expect(bad.getByText(/Cannot be used: no description/)).toBeInTheDocument();
    expect(group.queryByText('elsewhere')).not.toBeInTheDocument();
  });

  it('adds a subagent with the form: tools, model, permission and turns reach the backend, and the list shows it', async () => {
    const { group, user } = await openSubagents();
    await user.click(group.getByRole('button', { name: 'Add subagent' }));
    const form = within(group.getByRole('form', { name: 'Add a subagent' }));
    await fill(user, form.getByLabelText('Name'), 'tester');
    await fill(user, form.getByLabelText('Description'), 'Runs the tests and reports failures.');
    await user.click(form.getByRole('checkbox', { name: /The session’s tools/ }));
    await user.click(form.getByRole('checkbox', { name: 'Bash' }));
    await user.click(form.getByRole('checkbox', { name: 'Read' }));
    await user.selectOptions(form.getByLabelText('Model'), 'claude');
    await user.selectOptions(form.getByLabelText('Permission'), 'accept-edits');
    expect(form.getByText(/Writes and edits workspace files without asking/)).toBeInTheDocument();
    await fill(user, form.getByLabelText('Max turns'), '30');
    await fill(user, form.getByLabelText('Instructions'), 'Run the tests.');
    await user.click(form.getByRole('button', { name: 'Add subagent' }));

    await waitFor(() => expect(group.queryByRole('form')).not.toBeInTheDocument());
    expect(bridge.saveSubagent).toHaveBeenCalledWith({
      replaces: '', name: 'tester', description: 'Runs the tests and reports failures.', tools: ['inherit', 'Read', 'Bash'],
      model: 'claude', permission: 'accept-edits', maxTurns: 30, prompt: 'Run the tests.',
    });
    expect(await group.findByRole('listitem', { name: 'tester (Yours)' })).toBeInTheDocument();
  }, FORM_TIMEOUT);

  it('checks the form before saving and shows what the backend refuses, where it belongs', async () => {
    const { group, user } = await openSubagents();
    await user.click(group.getByRole('button', { name: 'Add subagent' }));
    const form = within(group.getByRole('form', { name: 'Add a subagent' }));
    await fill(user, form.getByLabelText('Name'), 'Bad Name');
    await fill(user, form.getByLabelText('Max turns'), '81');
    await user.click(form.getByRole('button', { name: 'Add subagent' }));
    expect(form.getByText('Use lowercase letters, digits and - (at most 64).')).toBeInTheDocument();
    expect(form.getByText(/Say when the agent should use this subagent/)).toBeInTheDocument();
    expect(form.getByText('Enter a whole number from 1 to 80, or leave it empty for 24.')).toBeInTheDocument();
    expect(form.getByText('Write the instructions the subagent works by.')).toBeInTheDocument();
    expect(form.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(form.getByLabelText('Name')).toHaveFocus();
    expect(bridge.saveSubagent).not.toHaveBeenCalled();

    await fill(user, form.getByLabelText('Name'), 'reviewer');
    await user.clear(form.getByLabelText('Max turns'));
    await fill(user, form.getByLabelText('Description'), 'd');
    await fill(user, form.getByLabelText('Instructions'), 'p');
    await user.click(form.getByRole('button', { name: 'Add subagent' }));
    // The name is taken: the backend's CONFLICT names the field.
    expect(await form.findByText(/a subagent named "reviewer" already exists/)).toBeInTheDocument();
    expect(form.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(form.getByLabelText('Name')).toHaveFocus();

    bridge.saveSubagent.mockRejectedValueOnce(
      new BridgeError('SUBAGENT_INVALID', 'model "gpt-9" is not a saved provider (by id, name or model, or sonnet/opus/haiku for an Anthropic one): it uses the session\'s model'),
    );
    await fill(user, form.getByLabelText('Name'), 'fresh');
    await user.click(form.getByRole('button', { name: 'Add subagent' }));
    const alert = await form.findByText(/model "gpt-9" is not a saved provider/);
    expect(alert.closest('[role="alert"]')).toHaveTextContent('SUBAGENT_INVALID');
    expect(group.getByRole('form', { name: 'Add a subagent' })).toBeInTheDocument();
  }, FORM_TIMEOUT);

  it('edits one of yours from its saved values, keeping a model written by hand, and saves it in place', async () => {
    seed({ subagents: [subagentRow('helper', { model: 'sonnet', modelProfileId: 'claude', modelProfileName: 'Claude', toolsWritten: ['Read', 'Grep'], tools: ['Read', 'Grep'], prompt: 'Help.' })] });
    const { group, user } = await openSubagents();
    await user.click(group.getByRole('button', { name: 'Edit helper' }));
    const form = within(group.getByRole('form', { name: 'Edit helper' }));
    expect(form.getByLabelText('Name')).toHaveValue('helper');
    expect(form.getByRole('checkbox', { name: 'Read' })).toBeChecked();
    expect(form.getByRole('checkbox', { name: 'Grep' })).toBeChecked();
    expect(form.getByRole('checkbox', { name: 'Bash' })).not.toBeChecked();
    expect(form.getByLabelText('Model')).toHaveValue('sonnet');
    expect(form.getByRole('option', { name: 'sonnet (as written)' })).toBeInTheDocument();
    await fill(user, form.getByLabelText('Name'), 'aide');
    await user.click(form.getByRole('checkbox', { name: 'Every working tool (Read, Glob, Grep, BrowserPreview, Bash, Edit, Write)' }));
    await user.click(form.getByRole('button', { name: 'Save subagent' }));
    await waitFor(() => expect(group.queryByRole('form')).not.toBeInTheDocument());
    expect(bridge.saveSubagent).toHaveBeenCalledWith(expect.objectContaining({ replaces: 'helper', name: 'aide', tools: ['*'], model: 'sonnet', maxTurns: 0, prompt: 'Help.' }));
    expect(await group.findByRole('listitem', { name: 'aide (Yours)' })).toBeInTheDocument();
    expect(group.queryByRole('listitem', { name: 'helper (Yours)' })).not.toBeInTheDocument();
  }, FORM_TIMEOUT);

  it('deletes one of yours after confirming, and shows why when it cannot', async () => {
    const { group, user } = await openSubagents();
    await user.click(group.getByRole('button', { name: 'Delete reviewer' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete reviewer?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(group.queryByRole('listitem', { name: 'reviewer (Yours)' })).not.toBeInTheDocument());
    expect(bridge.deleteSubagent).toHaveBeenCalledWith('reviewer');
    expect(backend.subagents.some((s) => s.name === 'reviewer')).toBe(false);

    bridge.deleteSubagent.mockRejectedValueOnce(new BridgeError('NOT_FOUND', 'no subagent named "explore"; reload the list'));
    await user.click(group.getByRole('button', { name: 'Delete explore' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Delete explore?' })).getByRole('button', { name: 'Delete' }));
    expect(await item(group, 'explore (Yours)').findByText(/no subagent named "explore"/)).toBeInTheDocument();
  });

  it('without a project lists the builtin and user ones and says where a project’s come from', async () => {
    seed({ sessions: [session('s1', '', 'Scratch', NOW - 60_000)] });
    const { group } = await openSubagents();
    expect(bridge.listSubagents).toHaveBeenCalledWith('');
    expect(group.queryByRole('listitem', { name: 'fixer (Project)' })).not.toBeInTheDocument();
    expect(group.getByText(/open one of its sessions to see them/)).toBeInTheDocument();
  });

  it('says when the list cannot be loaded', async () => {
    bridge.listSubagents.mockRejectedValue(new BridgeError('PROJECT_NOT_FOUND', 'the project is gone'));
    const { group } = await openSubagents();
    expect(group.getByRole('alert')).toHaveTextContent('The subagents could not be loaded.');
    // The backend's words stay available, behind Details.
    expect(group.getByRole('alert')).toHaveTextContent('the project is gone');
    expect(group.getByRole('alert')).toHaveTextContent('PROJECT_NOT_FOUND');
  });
});
