import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, project, resetFakeBridge, session } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';
import { formatShortcut, SHORTCUTS } from './shortcuts';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge({ projects: [project('p1', 'alpha-app')], sessions: [session('s-a', 'p1', 'Fix login bug', NOW)], initialSessionId: 's-a' });
});

describe('Shortcuts overlay', () => {
  it('opens with ? and lists every shortcut of the table; Esc closes it', async () => {
    const { user } = await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    screen.getByRole('button', { name: /Settings/ }).focus();
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const terms = within(dialog).getAllByRole('term').map((t) => t.textContent);
    const keys = within(dialog).getAllByRole('definition').map((d) => d.textContent);
    expect(terms.slice(0, SHORTCUTS.length)).toEqual(SHORTCUTS.map((s) => s.label));
    expect(keys.slice(0, SHORTCUTS.length)).toEqual(SHORTCUTS.map((s) => formatShortcut(s, false)));
    expect(keys).toContain('Enter · Shift+Enter · Esc');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument();
  });

  it('prints Cmd keys on macOS', async () => {
    resetFakeBridge({ info: { platform: 'darwin' }, projects: [project('p1', 'alpha-app')] });
    await renderApp();
    fireEvent.keyDown(document.body, { key: '?', code: 'Slash', shiftKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('⌘K')).toBeInTheDocument();
  });

  it('leaves a ? typed in the message box alone', async () => {
    const { user } = await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    const message = screen.getByRole('textbox', { name: 'Message' });
    await user.click(message);
    await user.keyboard('why?');
    expect(message).toHaveValue('why?');
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument();
  });
});
