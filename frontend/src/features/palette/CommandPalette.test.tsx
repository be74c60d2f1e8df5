import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const HOUR = 3_600_000;

beforeEach(() => {
  resetFakeBridge({
    projects: [project('p1', 'alpha-app'), project('p2', 'zeta-service')],
    sessions: [session('s-a', 'p1', 'Fix login bug', NOW - HOUR), session('s-b', 'p1', 'Refactor router', NOW - 2 * HOUR), session('t1', '', 'Scratch idea', NOW - 3 * HOUR)],
    initialSessionId: 's-a',
  });
});

const ctrl = (code: string, key: string, extra: Record<string, boolean> = {}) => fireEvent.keyDown(document.activeElement ?? document.body, { code, key, ctrlKey: true, ...extra });

async function openPalette() {
  ctrl('KeyK', 'k');
  const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
  return { dialog, field: within(dialog).getByRole('combobox') };
}

const options = (dialog: HTMLElement) => within(dialog).queryAllByRole('option');
const groupNames = (dialog: HTMLElement) => within(dialog).queryAllByRole('group').map((g) => g.getAttribute('aria-label'));

describe('Command palette', () => {
  it('opens with Ctrl+K as a modal combobox over commands, sessions, projects and settings', async () => {
    await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    const { dialog, field } = await openPalette();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('aria-controls', within(dialog).getByRole('listbox').id);
    expect(groupNames(dialog)).toEqual(['Commands', 'Sessions', 'Projects', 'Settings']);
    // The open session registers its commands; each shows its shortcut.
    const commands = within(within(dialog).getByRole('group', { name: 'Commands' })).getAllByRole('option');
    expect(commands.map((o) => o.getAttribute('aria-label'))).toEqual(
      expect.arrayContaining(['New session, Ctrl+N', 'Show or hide Changes, Ctrl+Shift+G', 'Settings, Ctrl+,']),
    );
    expect(commands.find((o) => o.getAttribute('aria-label') === 'New session, Ctrl+N')).toHaveAttribute('aria-keyshortcuts', 'Ctrl+N');
    // Stop needs a running turn.
    expect(commands.some((o) => o.textContent?.startsWith('Stop'))).toBe(false);
    const sessions = within(within(dialog).getByRole('group', { name: 'Sessions' })).getAllByRole('option');
    expect(sessions.map((o) => o.getAttribute('aria-label'))).toEqual(['Fix login bug, alpha-app', 'Refactor router, alpha-app', 'Scratch idea, Temporary']);
    // The first option is active, and the count is announced.
    expect(field).toHaveAttribute('aria-activedescendant', options(dialog)[0]!.id);
    expect(options(dialog)[0]).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByRole('status')).toHaveTextContent(`${options(dialog).length} results`);
  });

  it('filters fuzzily, moves with the arrows and runs the choice with Enter', async () => {
    const { user } = await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    const { dialog, field } = await openPalette();
    await user.type(field, 'rfctr');
    expect(options(dialog).map((o) => o.getAttribute('aria-label'))).toEqual(['Refactor router, alpha-app']);
    expect(within(dialog).getByRole('status')).toHaveTextContent('1 result');
    await user.clear(field);
    await user.type(field, 'zeta');
    await user.keyboard('{ArrowDown}{ArrowUp}');
    const active = document.getElementById(field.getAttribute('aria-activedescendant')!)!;
    expect(active).toHaveAttribute('aria-label', 'zeta-service, /home/dev/zeta-service');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Command palette' })).not.toBeInTheDocument());
    // zeta-service has no session: choosing it starts one there.
    await waitFor(() => expect(bridge.createSession).toHaveBeenCalledWith(expect.objectContaining({ projectId: 'p2' })));
  });

  it('opens a session and Settings from the list', async () => {
    const { user } = await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    let { field } = await openPalette();
    await user.type(field, 'scratch');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Scratch idea' })).toBeInTheDocument();

    ({ field } = await openPalette());
    await user.type(field, 'settings');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
  });

  it('closes with Esc and gives the focus back; Tab stays in the field', async () => {
    const { user } = await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    const message = screen.getByRole('textbox', { name: 'Message' });
    message.focus();
    const { field } = await openPalette();
    await user.tab();
    expect(field).toHaveFocus();
    await user.tab({ shift: true });
    expect(field).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Command palette' })).not.toBeInTheDocument();
    expect(message).toHaveFocus();
  });

  it('lists past messages under Messages and opens the chosen one', async () => {
    bridge.searchHistory.mockImplementation(async () => [
      {
        kind: 'message' as const,
        sessionId: 's-b',
        sessionTitle: 'Refactor router',
        projectId: 'p1',
        messageId: 'm-x',
        createdAt: NOW - 2 * HOUR,
        snippet: [{ text: 'moved the ', match: false }, { text: 'router', match: true }, { text: ' table', match: false }],
      },
    ]);
    const { user } = await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    const { dialog, field } = await openPalette();
    expect(within(dialog).getByText('Type 3 or more letters to search past messages too.')).toBeInTheDocument();
    await user.type(field, 'router');
    const messages = await within(dialog).findByRole('group', { name: 'Messages' });
    const hit = within(messages).getByRole('option');
    expect(hit).toHaveAccessibleName(/^moved the router table, Refactor router, /);
    expect(within(hit).getByText('router').tagName).toBe('MARK');
    await user.click(hit);
    expect(await screen.findByRole('heading', { level: 1, name: 'Refactor router' })).toBeInTheDocument();
  });

  it('opens from the message box, where Ctrl+K is not text', async () => {
    await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    screen.getByRole('textbox', { name: 'Message' }).focus();
    await openPalette();
  });
});

describe('Global shortcuts', () => {
  it('move between sessions, open Settings and toggle the panes', async () => {
    await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    ctrl('BracketRight', '}', { shiftKey: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Refactor router' })).toBeInTheDocument();
    ctrl('BracketRight', '}', { shiftKey: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Scratch idea' })).toBeInTheDocument();
    // Past the last, round to the first; back again.
    ctrl('BracketRight', '}', { shiftKey: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Fix login bug' })).toBeInTheDocument();
    ctrl('BracketLeft', '{', { shiftKey: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Scratch idea' })).toBeInTheDocument();

    const activity = screen.getByRole('button', { name: 'Activity' });
    ctrl('KeyA', 'A', { shiftKey: true });
    await waitFor(() => expect(activity).toHaveAttribute('aria-pressed', 'true'));
    ctrl('KeyA', 'A', { shiftKey: true });
    await waitFor(() => expect(activity).toHaveAttribute('aria-pressed', 'false'));

    ctrl('KeyL', 'l');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();

    ctrl('Comma', ',');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
  });

  it('do nothing while a dialog is open', async () => {
    const { user } = await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    await openPalette();
    ctrl('Comma', ',');
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('heading', { level: 1, name: 'Settings' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
  });
});
