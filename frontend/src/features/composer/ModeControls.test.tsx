import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [
      session('s1', 'p1', 'Inherits', NOW - 60_000),
      session('s2', 'p1', 'Own mode', NOW - 120_000, { permissionMode: 'ask', operatingMode: 'plan' }),
    ],
    settings: { defaultPermissionMode: 'accept-edits' },
  });
});

async function open(title: string) {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: new RegExp(`^${title}`) }));
  return { ...r, composer: within(screen.getByRole('form', { name: 'Composer' })) };
}

describe('Permission chip', () => {
  it('shows the global default for an inheriting session and stores an explicit override', async () => {
    const { user, composer } = await open('Inherits');
    const chip = composer.getByRole('button', { name: 'Permission mode: Accept edits' });
    expect(chip).toHaveAttribute('title', expect.stringContaining('default from Settings'));
    await user.click(chip);
    const menu = screen.getByRole('menu', { name: 'Permission mode' });
    const items = within(menu).getAllByRole('menuitemradio');
    expect(within(menu).getByRole('menuitemradio', { name: 'Accept edits' })).toHaveAttribute('aria-checked', 'true');
    expect(within(menu).getByRole('menuitemradio', { name: 'Ask' })).toHaveAttribute('aria-checked', 'false');
    // No separate "inherit" entry (spec §6).
    expect(items).toHaveLength(3);
    await user.click(within(menu).getByRole('menuitemradio', { name: 'Auto' }));
    expect(bridge.configureSession).toHaveBeenCalledWith('s1', { operatingMode: '', permissionMode: 'auto' });
    expect(await composer.findByRole('button', { name: 'Permission mode: Auto' })).toBeInTheDocument();
    expect(backend.sessions.find((s) => s.id === 's1')?.permissionMode).toBe('auto');
  });

  it("shows the session's own mode over the default, and picking the shown mode stores nothing", async () => {
    const { user, composer } = await open('Own mode');
    const chip = composer.getByRole('button', { name: 'Permission mode: Ask' });
    await user.click(chip);
    await user.click(screen.getByRole('menuitemradio', { name: 'Ask' }));
    expect(bridge.configureSession).not.toHaveBeenCalled();
  });

  it('follows a change of the global default while the session inherits', async () => {
    const { composer } = await open('Inherits');
    backend.emit('settings:changed', { ...backend.settings, defaultPermissionMode: 'auto' });
    expect(await composer.findByRole('button', { name: 'Permission mode: Auto' })).toBeInTheDocument();
  });
});

describe('Permission chip menu', () => {
  it('explains each mode in one line, given as the item’s accessible description', async () => {
    const { user, composer } = await open('Inherits');
    await user.click(composer.getByRole('button', { name: /^Permission mode: / }));
    const menu = screen.getByRole('menu', { name: 'Permission mode' });
    expect(within(menu).getByRole('menuitemradio', { name: 'Ask' })).toHaveAccessibleDescription(/^Asks before every file change and command/);
    expect(within(menu).getByRole('menuitemradio', { name: 'Accept edits' })).toHaveAccessibleDescription(
      /^Edits files inside the project without asking; commands and paths outside it still ask/,
    );
    expect(within(menu).getByRole('menuitemradio', { name: 'Auto' })).toHaveAccessibleDescription(/^Runs edits, commands and outside paths without asking; changes to \.git/);
  });

  it('opens above its chip at the bottom of the window, leaving the chip visible', async () => {
    const { user, composer } = await open('Inherits');
    const chip = composer.getByRole('button', { name: /^Permission mode: / });
    // jsdom has no layout: the chip sits at the window's bottom (768 px high), as in the app.
    const layout = vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const b = this === chip ? { top: 720, left: 300, width: 120, height: 24 } : this.getAttribute('role') === 'menu' ? { top: 0, left: 0, width: 280, height: 200 } : { top: 0, left: 0, width: 0, height: 0 };
      return { ...b, x: b.left, y: b.top, right: b.left + b.width, bottom: b.top + b.height, toJSON: () => b } as DOMRect;
    });
    await user.click(chip);
    const menu = screen.getByRole('menu', { name: 'Permission mode' });
    layout.mockRestore();
    expect(menu).toHaveClass('menu-above');
    expect(parseFloat(menu.style.top) + 200).toBeLessThanOrEqual(720);
    expect(menu.style.top).toBe('516px');
  });
});

describe('Operating mode selector', () => {
  it.each([
    ['Agent', /^Reads, edits files and runs commands; the permission mode decides what asks first\.$/],
    ['Plan', /proposes a plan for you to approve.*Cannot edit files; commands follow the permission mode\.$/],
    ['Goal', /goal and checkable acceptance criteria.*cannot edit files before you approve\.$/],
  ])('%s keeps its name and says in one line what it changes', async (name, line) => {
    const { composer } = await open('Own mode');
    const group = composer.getByRole('radiogroup', { name: 'Operating mode' });
    const radio = within(group).getByRole('radio', { name });
    expect(radio).toHaveAccessibleName(name);
    expect(radio).toHaveAccessibleDescription(line);
  });

  it('shows the session mode and stores a new one', async () => {
    const { user, composer } = await open('Own mode');
    const group = composer.getByRole('radiogroup', { name: 'Operating mode' });
    expect(within(group).getByRole('radio', { name: 'Plan' })).toHaveAttribute('aria-checked', 'true');
    await user.click(within(group).getByRole('radio', { name: 'Goal' }));
    expect(bridge.configureSession).toHaveBeenCalledWith('s2', { operatingMode: 'goal', permissionMode: '' });
    await waitFor(() => expect(within(group).getByRole('radio', { name: 'Goal' })).toHaveAttribute('aria-checked', 'true'));
  });
});

describe('Composer in a session', () => {
  it('MODEL_NOT_CONFIGURED blocks with setup instructions and keeps the prompt', async () => {
    bridge.sendPrompt.mockRejectedValueOnce(new BridgeError('MODEL_NOT_CONFIGURED', 'no model is configured for this session'));
    const { user, composer } = await open('Inherits');
    const box = composer.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'Refactor the router{Enter}');
    const alert = await composer.findByRole('alert');
    expect(alert).toHaveTextContent('No model is configured');
    expect(alert).toHaveTextContent('PI_DESKTOP_PROVIDER');
    expect(box).toHaveValue('Refactor the router');
    // Nothing was added to the transcript.
    expect(within(screen.getByRole('log', { name: 'Transcript' })).queryByText('Refactor the router')).not.toBeInTheDocument();
  });

  it('the MODEL_NOT_CONFIGURED notice opens the model settings', async () => {
    bridge.sendPrompt.mockRejectedValueOnce(new BridgeError('MODEL_NOT_CONFIGURED', 'no model is configured for this session'));
    const { user, composer } = await open('Inherits');
    await user.type(composer.getByRole('textbox', { name: 'Message' }), 'hi{Enter}');
    const alert = await composer.findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Open model settings' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: 'Models' })).toBeInTheDocument();
  });

  it('AGENT_BUSY keeps the text and says why', async () => {
    bridge.sendPrompt.mockRejectedValueOnce(new BridgeError('AGENT_BUSY', 'a turn is already running in this session; wait for it or press Stop'));
    const { user, composer } = await open('Inherits');
    const box = composer.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'again{Enter}');
    expect(await composer.findByRole('alert')).toHaveTextContent('AGENT_BUSY');
    expect(box).toHaveValue('again');
  });
});
