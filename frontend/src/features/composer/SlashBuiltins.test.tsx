// The built-ins of the "/" menu in the real session pane: each does what its name says
// through the bridge calls (or the pickers) that already exist.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, mcpServer, project, provider, resetFakeBridge, session, slashCommandRow, type FakeBackend, type Seed } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;

function seed(extra: Seed = {}) {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'First', NOW - 60_000)],
    initialSessionId: 's1',
    providers: [provider('a', 'Claude', { model: 'claude-sonnet-4-5', isDefault: true })],
    slashCommands: [slashCommandRow('review', 'Review $1 now.', { argumentHint: '<file>' })],
    ...extra,
  });
}

beforeEach(() => seed());

async function command(text: string) {
  const app = await renderApp();
  const composer = within(screen.getByRole('form', { name: 'Composer' }));
  const box = composer.getByRole('textbox', { name: 'Message' });
  await app.user.type(box, text);
  await app.user.keyboard('{Escape}{Enter}'); // close the menu, send what was typed
  return { ...app, box };
}

describe('the "/" built-ins in a session', () => {
  it.each([
    ['/plan', { operatingMode: 'plan', permissionMode: '' }],
    ['/goal', { operatingMode: 'goal', permissionMode: '' }],
    ['/agent', { operatingMode: 'agent', permissionMode: '' }],
    ['/mode auto', { operatingMode: '', permissionMode: 'auto' }],
    ['/mode accept-edits', { operatingMode: '', permissionMode: 'accept-edits' }],
    ['/mode ask', { operatingMode: '', permissionMode: 'ask' }],
  ])('%s configures the session', async (text, config) => {
    const { box } = await command(text);
    await waitFor(() => expect(bridge.configureSession).toHaveBeenCalledWith('s1', config));
    expect(box).toHaveValue('');
    expect(bridge.sendPrompt).not.toHaveBeenCalled();
    expect(bridge.sendPromptWith).not.toHaveBeenCalled();
  });

  it('/compact asks for new_context at the next boundary', async () => {
    await command('/compact');
    await waitFor(() => expect(backend.compactions).toEqual(['s1']));
  });

  it('/new starts a session in the same project and opens it', async () => {
    await command('/new');
    await waitFor(() => expect(bridge.createSession).toHaveBeenCalledWith({ projectId: 'p1', title: '' }));
    await waitFor(() => expect(backend.sessions).toHaveLength(2));
  });

  it('/model opens the model picker', async () => {
    await command('/model');
    expect(await screen.findByRole('menu', { name: 'Model' })).toBeInTheDocument();
  });

  it('/mcp opens the MCP picker', async () => {
    seed({ mcpServers: [mcpServer('everything')] });
    const app = await renderApp();
    const composer = within(screen.getByRole('form', { name: 'Composer' }));
    await composer.findByRole('button', { name: /MCP/ }); // the picker has its servers
    await app.user.type(composer.getByRole('textbox', { name: 'Message' }), '/mcp');
    await app.user.keyboard('{Escape}{Enter}');
    expect(await screen.findByRole('dialog', { name: 'MCP servers for this prompt' })).toBeInTheDocument();
  });

  it('a custom command is sent expanded: the transcript and the model get the template', async () => {
    await command('/review main.go');
    await waitFor(() => expect(bridge.sendPrompt).toHaveBeenCalledWith('s1', 'Review main.go now.'));
    expect(bridge.expandSlashCommand).toHaveBeenCalledWith('s1', 'review', 'main.go');
  });

  it("the project's skills are offered as /skill:<name> and picking one sends it for the Skill call", async () => {
    seed({
      skills: [{ name: 'pdf-tools', description: 'Read and fill PDF forms', source: 'user', path: '/home/u/.agents/skills/pdf-tools/SKILL.md', userOnly: false }],
    });
    const app = await renderApp();
    const composer = within(screen.getByRole('form', { name: 'Composer' }));
    const box = composer.getByRole('textbox', { name: 'Message' });
    await app.user.type(box, '/skill');
    const option = await screen.findByRole('option', { name: /skill:pdf-tools/ });
    expect(option).toHaveTextContent('Read and fill PDF forms');
    expect(bridge.listSkills).toHaveBeenCalledWith('p1');
    await app.user.keyboard('{Tab}');
    expect(box).toHaveValue('/skill:pdf-tools ');
    await app.user.keyboard('fill form.pdf{Enter}');
    await waitFor(() => expect(bridge.sendPrompt).toHaveBeenCalledWith('s1', '/skill:pdf-tools fill form.pdf'));
  });

  it("the menu says how many of the project's skills the model's list left out, and which skill files did not load and why", async () => {
    seed({
      skills: [{ name: 'pdf-tools', description: 'Read and fill PDF forms', source: 'user', path: '/home/u/.agents/skills/pdf-tools/SKILL.md', userOnly: false }],
      skillsLeftOut: 1,
      skillProblems: [{ path: '/w/alpha-app/.agents/skills/broken/SKILL.md', name: '', source: 'project', reason: 'missing_description', message: 'no description: add description:' }],
    });
    const app = await renderApp();
    const box = within(screen.getByRole('form', { name: 'Composer' })).getByRole('textbox', { name: 'Message' });
    await app.user.type(box, '/skill');
    const notes = await screen.findByLabelText('About skills');
    expect(notes).toHaveTextContent("1 skill is left out of the model's list");
    expect(notes).toHaveTextContent('/w/alpha-app/.agents/skills/broken/SKILL.md: no description: add description:');
  });
});
