import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session, slashCommandRow } from '../../test/fakeBridge';
import { renderWithData } from '../../test/render';
import { Composer, type SlashActions } from './Composer';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() =>
  resetFakeBridge({
    projects: [project('p1', 'alpha')],
    sessions: [session('s1', 'p1', 'First', NOW - 60_000)],
    slashCommands: [
      slashCommandRow('review', 'Review $1 carefully, then $2.', { argumentHint: '<file> [focus]', description: 'Review a file' }),
      slashCommandRow('summarize', 'Summarize the repository.', { source: 'user' }),
      slashCommandRow('broken', '', { state: 'error', problems: ['the template is empty'] }),
    ],
  }),
);

function setup(slash: Partial<SlashActions> = {}, props: Partial<Parameters<typeof Composer>[0]> = {}) {
  const onSend = vi.fn(async (_text: string) => {});
  const runBuiltin = vi.fn(async (_name: string) => {});
  const user = userEvent.setup();
  renderWithData(<Composer onSend={onSend} onStop={async () => {}} running={false} slash={{ sessionId: 's1', runBuiltin, ...slash }} {...props} />);
  return { user, onSend, runBuiltin, box: screen.getByRole('textbox', { name: 'Message' }) };
}

const names = (list: HTMLElement) => within(list).getAllByRole('option').map((o) => o.textContent);

describe('the composer\'s "/" menu', () => {
  it('opens on "/" at the start with the built-ins and the usable custom commands, filtered as you type', async () => {
    const { user, box } = setup();
    await user.type(box, '/');
    const list = await screen.findByRole('listbox', { name: 'Commands' });
    await waitFor(() => expect(within(list).getByRole('option', { name: /\/review/ })).toBeInTheDocument());
    const all = names(list);
    for (const b of ['/new', '/plan', '/goal', '/agent', '/compact', '/model', '/mode ask', '/mode accept-edits', '/mode auto', '/mcp']) {
      expect(all.some((t) => t?.startsWith(b))).toBe(true);
    }
    expect(all.some((t) => t?.includes('broken'))).toBe(false); // an unusable file is not offered
    expect(within(list).getByRole('option', { name: /\/review/ })).toHaveTextContent('<file> [focus]');
    expect(box).toHaveAttribute('aria-controls', list.id);

    await user.type(box, 'su');
    expect(names(screen.getByRole('listbox', { name: 'Commands' }))).toEqual(['/summarizeThe summarize command.']);
    await user.type(box, 'zzz');
    expect(screen.queryByRole('listbox', { name: 'Commands' })).not.toBeInTheDocument();
  });

  it('is not offered mid-text, nor without a session', async () => {
    const { user, box } = setup();
    await user.type(box, 'hello /');
    expect(screen.queryByRole('listbox', { name: 'Commands' })).not.toBeInTheDocument();
  });

  it('arrows move the highlighted option, Escape closes the menu', async () => {
    const { user, box } = setup();
    await user.type(box, '/mode');
    const list = await screen.findByRole('listbox', { name: 'Commands' });
    const options = within(list).getAllByRole('option');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(within(list).getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', within(list).getAllByRole('option')[1]!.id);
    await user.keyboard('{ArrowUp}');
    expect(within(list).getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowUp}'); // wraps to the last
    expect(within(list).getAllByRole('option').at(-1)).toHaveAttribute('aria-selected', 'true');
    expect(within(list).getAllByRole('option').at(-1)).toHaveTextContent('/mode auto');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox', { name: 'Commands' })).not.toBeInTheDocument();
    expect(box).toHaveValue('/mode');
  });

  it('a custom command with an argument: Tab completes, the typed arguments expand it, the expanded prompt is sent', async () => {
    const { user, onSend, box } = setup();
    await user.type(box, '/rev');
    await screen.findByRole('option', { name: /\/review/ });
    await user.keyboard('{Tab}');
    expect(box).toHaveValue('/review ');
    expect(screen.queryByRole('listbox', { name: 'Commands' })).not.toBeInTheDocument();
    await user.type(box, 'main.go tests{Enter}');
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('Review main.go carefully, then tests.'));
    expect(bridge.expandSlashCommand).toHaveBeenCalledWith('s1', 'review', 'main.go tests');
    expect(box).toHaveValue('');
  });

  it('Enter on a custom command without an argument hint sends it at once', async () => {
    const { user, onSend, box } = setup();
    await user.type(box, '/summ');
    await screen.findByRole('option', { name: /\/summarize/ });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('Summarize the repository.'));
    expect(box).toHaveValue('');
  });

  it('a command that no longer exists shows SLASH_COMMAND_NOT_FOUND and keeps the text', async () => {
    const { user, onSend, box } = setup();
    await user.type(box, '/gone now{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('SLASH_COMMAND_NOT_FOUND');
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue('/gone now');
  });

  it('a path is text, not a command', async () => {
    const { user, onSend, box } = setup();
    await user.type(box, '/usr/bin/env is missing{Enter}');
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('/usr/bin/env is missing'));
    expect(bridge.expandSlashCommand).not.toHaveBeenCalled();
  });

  it.each([
    ['new', 'new'],
    ['plan', 'plan'],
    ['goal', 'goal'],
    ['agent', 'agent'],
    ['compact', 'compact'],
    ['model', 'model'],
    ['mcp', 'mcp'],
    ['mode auto', 'mode auto'],
    ['mode accept-edits', 'mode accept-edits'],
    ['mode ask', 'mode ask'],
  ])('picking /%s with Enter runs the built-in', async (typed, builtin) => {
    const { user, onSend, runBuiltin, box } = setup();
    await user.type(box, `/${typed}`);
    await screen.findByRole('listbox', { name: 'Commands' });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(runBuiltin).toHaveBeenCalledWith(builtin));
    expect(runBuiltin).toHaveBeenCalledTimes(1);
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue('');
  });

  it('/plan with text switches to Plan, then sends the text', async () => {
    const { user, onSend, runBuiltin, box } = setup();
    await user.type(box, '/plan build the parser');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('build the parser'));
    expect(runBuiltin).toHaveBeenCalledWith('plan');
    expect(runBuiltin.mock.invocationCallOrder[0]).toBeLessThan(onSend.mock.invocationCallOrder[0]!);
  });

  it('/mode with an unknown mode and /new with text are refused with the next step', async () => {
    const { user, runBuiltin, box } = setup();
    await user.type(box, '/mode fast{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('use /mode ask, /mode accept-edits or /mode auto');
    await user.clear(box);
    await user.type(box, '/new please{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('/new takes no text after it');
    expect(runBuiltin).not.toHaveBeenCalled();
  });

  it('skills from the seam are offered as /skill:<name> and sent as typed', async () => {
    const { user, onSend, box } = setup({ skills: [{ name: 'pdf', description: 'Read PDFs' }] });
    await user.type(box, '/skill');
    const option = await screen.findByRole('option', { name: /\/skill:pdf/ });
    expect(option).toHaveTextContent('[text]');
    await user.keyboard('{Enter}'); // completes: a skill takes text
    expect(box).toHaveValue('/skill:pdf ');
    await user.type(box, 'summarize report.pdf{Enter}');
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('/skill:pdf summarize report.pdf'));
  });

  it('says how many skills the model\'s list left out and names the skill files that did not load, with why, while skills are in view', async () => {
    const problems = Array.from({ length: 7 }, (_, i) => ({ path: `/p/.agents/skills/bad${i}/SKILL.md`, name: '', message: `reason ${i}` }));
    const { user, box } = setup({ skills: [{ name: 'pdf', description: 'Read PDFs' }], skillNotes: { leftOut: 3, problems } });
    await user.type(box, '/sk');
    await screen.findByRole('option', { name: /\/skill:pdf/ });
    const notes = screen.getByLabelText('About skills');
    expect(notes).toHaveTextContent("3 skills are left out of the model's list to keep its prompt short; invoke them with /skill:<name>.");
    expect(notes).toHaveTextContent('7 skill files were not loaded:');
    const listed = within(screen.getByRole('list', { name: 'Skill files not loaded' })).getAllByRole('listitem');
    expect(listed.map((li) => li.textContent)).toEqual(problems.slice(0, 5).map((p) => `${p.path}: ${p.message}`));
    expect(notes).toHaveTextContent('… and 2 more; pi-desktop skills list shows them all.');
    // A command query without skills in view is not cluttered with them.
    await user.clear(box);
    await user.type(box, '/rev');
    await screen.findByRole('option', { name: /\/review/ });
    expect(screen.queryByLabelText('About skills')).not.toBeInTheDocument();
  });

  it('with no usable skill, "/skill" still says why, and Enter is the textarea\'s', async () => {
    const problem = { path: '/home/u/.claude/skills/notes.md', name: 'notes', message: 'no description: add description:' };
    const { user, box, onSend } = setup({ skills: [], skillNotes: { leftOut: 0, problems: [problem] } });
    await user.type(box, '/skill');
    const notes = await screen.findByLabelText('About skills');
    expect(notes).toHaveTextContent('1 skill file was not loaded:');
    expect(notes).toHaveTextContent('/home/u/.claude/skills/notes.md: no description: add description:');
    expect(notes).not.toHaveTextContent('left out');
    expect(screen.queryByRole('listbox', { name: 'Commands' })).not.toBeInTheDocument();
    expect(box).not.toHaveAttribute('aria-activedescendant');
    await user.type(box, ':notes hi{Enter}');
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('/skill:notes hi'));
  });

  it('without slash actions "/" is plain text', async () => {
    const onSend = vi.fn(async (_text: string) => {});
    const user = userEvent.setup();
    renderWithData(<Composer onSend={onSend} onStop={async () => {}} running={false} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, '/review x{Enter}');
    expect(screen.queryByRole('listbox', { name: 'Commands' })).not.toBeInTheDocument();
    expect(onSend).toHaveBeenCalledWith('/review x');
  });
});
