// Flow 13: Settings → Subagents on the real backend. The project's files are parsed by the
// host: a definition whose permission scope is dropped (a cloned repository never sets
// one) is listed with that warning, a file without a description with its reason, and a
// definition in ~/.agents/subagents replaces the builtin of its name. Adding one of your
// own writes a private file the host reads back; the backend's refusal of a taken name
// shows under the name; deleting it brings the builtin back.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../fixtures/test';

const SKILL_BODY = 'Group the changes under Added, Fixed and Removed; one line each.';

test('list builtin, home and project definitions with warnings and errors; add, refuse and delete your own', async ({ ui, root, workspace, provider, shot, axe }) => {
  workspace.write('.agents/subagents/fixer.md', '---\nname: fixer\ndescription: Fixes failing tests.\ntools: [Read, Edit, WebFetch]\npermission: auto\n---\nFix the tests.\n');
  workspace.write('.claude/agents/broken.md', '---\nname: broken\ntools: Read, Grep\n---\nNo description.\n');
  const homeDir = path.join(root, 'home', '.agents', 'subagents');
  mkdirSync(homeDir, { recursive: true });
  writeFileSync(path.join(homeDir, 'general.md'), '---\nname: general\ndescription: My general agent, without a shell.\ntools: "*"\ndisallowedTools: Bash\n---\nWork carefully.\n');
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);

  const settings = await ui.openSettings();
  const group = settings.getByRole('group', { name: 'Subagents', exact: true });
  await expect(group.getByText('Loading the subagents…')).toHaveCount(0);
  const list = group.getByRole('list', { name: 'Subagents' });
  const item = (name: string) => list.getByRole('listitem', { name, exact: true });
  await expect(item('explore (Builtin)')).toContainText('Read, Glob, Grep');
  await expect(item('general (Builtin)')).toContainText('Replaced');
  await expect(item('general (Yours)')).toContainText('Read, Glob, Grep, BrowserPreview, Edit, Write (not Bash)');
  await expect(item('general (Yours)')).toContainText('edit it in its file');
  const fixer = item('fixer (Project)');
  await expect(fixer).toContainText('Read, Edit');
  await expect(fixer).toContainText('the session’s mode');
  const warnings = fixer.getByRole('list', { name: 'Warnings of fixer' });
  await expect(warnings).toContainText('dropped unknown tools: WebFetch');
  await expect(warnings).toContainText('permission auto dropped');
  await expect(item('broken (Project)')).toContainText('Cannot be used: no description');
  await expect(group).toContainText('3 of at most 16 in effect.');
  await group.scrollIntoViewIfNeeded();
  await shot('listed');

  await group.getByRole('button', { name: 'Add subagent' }).click();
  const form = group.getByRole('form', { name: 'Add a subagent' });
  await form.getByRole('textbox', { name: 'Name' }).fill('reviewer');
  await form.getByRole('textbox', { name: 'Description' }).fill('Reviews a change for bugs.');
  await form.getByRole('checkbox', { name: 'Bash', exact: true }).check();
  await form.getByRole('combobox', { name: 'Permission' }).selectOption('accept-edits');
  await form.getByRole('textbox', { name: 'Instructions' }).fill('Review the change and report findings with path:line.');
  await shot('add form');
  await form.getByRole('button', { name: 'Add subagent' }).click();
  await expect(form).toHaveCount(0);
  const reviewer = item('reviewer (Yours)');
  await expect(reviewer).toContainText('Bash');
  await expect(reviewer).toContainText('Accept edits');
  const file = path.join(root, 'data', 'subagents', 'reviewer.md');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readFileSync(file, 'utf8')).toContain('permission: accept-edits');

  // The same name again: the backend refuses it, under the name.
  await group.getByRole('button', { name: 'Add subagent' }).click();
  const again = group.getByRole('form', { name: 'Add a subagent' });
  await again.getByRole('textbox', { name: 'Name' }).fill('reviewer');
  await again.getByRole('textbox', { name: 'Description' }).fill('Another.');
  await again.getByRole('textbox', { name: 'Instructions' }).fill('Again.');
  await again.getByRole('button', { name: 'Add subagent' }).click();
  await expect(again.getByRole('alert')).toContainText('a subagent named "reviewer" already exists');
  await expect(again.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await shot('name taken');
  await axe('Settings → Subagents with warnings, errors and a refused name');
  await again.getByRole('button', { name: 'Cancel' }).click();

  await reviewer.getByRole('button', { name: 'Delete reviewer' }).click();
  await ui.page.getByRole('alertdialog', { name: 'Delete reviewer?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(item('reviewer (Yours)')).toHaveCount(0);
  expect(existsSync(file)).toBe(false);

  await ui.closeSettings();

  // Issue 18, on the same app: the composer's / menu runs a project command. The host
  // expands its template with the argument; the transcript shows the expanded prompt and
  // the model gets exactly that.
  workspace.write('.agents/commands/review.md', '---\ndescription: Review one file\nargument-hint: <file>\n---\nReview $1 and list its bugs.\n');
  provider.enqueue({ text: 'No bugs found.' });
  const shown = await ui.slashCommand('rev', 'review', 'src/main.go');
  expect(shown).toContain('<file>');
  expect(shown).toContain('Review one file');
  await expect(ui.transcript.locator('.msg-user').last()).toHaveText('Review src/main.go and list its bugs.');
  await expect(ui.assistantText().last()).toHaveText('No bugs found.');
  const req = await provider.waitForRequest(0);
  expect(req.lastUserText()).toContain('Review src/main.go and list its bugs.');
  expect(req.lastUserText()).not.toContain('/review');
  await ui.waitIdle();
  await shot('slash command sent');
});

// Issue 18, a second app: a project skill invoked from the composer, and a skill file that
// did not load named in the / menu with why.
test('a project skill invoked from the composer runs its Skill call; a bad skill file is named with its reason', async ({ ui, workspace, provider, shot }) => {
  workspace.write('.agents/skills/release-notes/SKILL.md', `---\nname: release-notes\ndescription: Write release notes from the changes.\n---\n${SKILL_BODY}\n`);
  workspace.write('.agents/skills/undescribed/SKILL.md', '---\nname: undescribed\n---\nNo description.\n');
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);

  // A skill file that did not load is named in the menu with why, never dropped silently.
  await ui.message.fill('');
  await ui.message.pressSequentially('/skill');
  const notes = ui.composer.getByLabel('About skills');
  await expect(notes).toContainText('1 skill file was not loaded:');
  await expect(notes).toContainText(`${path.join('.agents', 'skills', 'undescribed')}`);
  await expect(notes).toContainText('no description');
  await shot('skill file not loaded');

  // A skill invoked from the composer: the model is told to call Skill for it, with the
  // user's text; its Skill call runs in the host and returns the skill's body and folder.
  provider.enqueue({ toolCalls: [{ id: 'call_skill', name: 'Skill', args: { name: 'release-notes' } }] }, { text: 'Release notes follow the skill.' });
  const skillShown = await ui.slashCommand('skill:rel', 'skill:release-notes', 'for v1.2');
  expect(skillShown).toContain('Write release notes from the changes.');
  const asked = await provider.waitForRequest(0);
  expect(asked.toolNames).toContain('Skill');
  expect(asked.lastUserText()).toContain('for v1.2');
  expect(asked.lastUserText()).toContain('Call the Skill tool with {"name": "release-notes"}');
  expect(asked.systemText()).toContain('- release-notes: Write release notes from the changes.');
  await expect(ui.assistantText().last()).toHaveText('Release notes follow the skill.');
  await ui.waitIdle();
  const skillRow = ui.tools('Skill');
  await expect(skillRow).toHaveCount(1);
  await expect(skillRow.locator('.tool-status')).toHaveText('Done');
  await skillRow.locator('.tool-head').click();
  const result = skillRow.getByLabel('Result');
  await expect(result).toContainText('# Skill: release-notes');
  await expect(result).toContainText(SKILL_BODY);
  const answered = await provider.waitForRequest(1);
  const skillResult = answered.toolResult('call_skill');
  expect(skillResult).toContain(SKILL_BODY);
  expect(skillResult).toContain(path.join('.agents', 'skills', 'release-notes'));
  await shot('skill invoked');
});
