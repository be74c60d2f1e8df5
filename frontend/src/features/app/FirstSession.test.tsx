import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, project, provider, resetFakeBridge, session } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

describe('first run to first session', () => {
  beforeEach(() => {
    resetFakeBridge({ projects: [], sessions: [] });
  });

  it('with no model and no project, Welcome leads to Settings → Models with the add form open and focused', async () => {
    const { user } = await renderApp();
    const main = screen.getByRole('main');
    expect(await within(main).findByRole('heading', { name: 'Welcome to PI-Desktop' })).toBeInTheDocument();
    await user.click(within(main).getByRole('button', { name: 'Add a model provider' }));
    const settings = await screen.findByRole('region', { name: 'Settings' });
    const models = await within(settings).findByRole('group', { name: 'Models' });
    // The add form is open (its Save is there) and the keyboard is in it.
    await waitFor(() => expect(models.contains(document.activeElement)).toBe(true));
    expect(document.activeElement?.tagName).toMatch(/INPUT|SELECT|TEXTAREA/);
    // The form is open: its one "Add provider" button is the form's submit, not the opener.
    expect(within(models).getByRole('button', { name: 'Add provider' })).toHaveAttribute('type', 'submit');
  });

  it('with a model, Welcome asks for a project instead', async () => {
    resetFakeBridge({ projects: [], sessions: [], providers: [provider('pr1', 'Local')] });
    await renderApp();
    expect(await screen.findByRole('heading', { name: 'What are we working on?' })).toBeInTheDocument();
  });

  it('adding a project opens a new session in it with the composer focused', async () => {
    resetFakeBridge({ projects: [], sessions: [], providers: [provider('pr1', 'Local')] });
    const { user } = await renderApp();
    await user.click(within(screen.getByRole('navigation')).getByRole('button', { name: 'Add project by path…' }));
    const dialog = screen.getByRole('dialog', { name: 'Add project by path' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder path' }), '/home/dev/typed-app{Enter}');
    await waitFor(() => expect(bridge.createSession).toHaveBeenCalledTimes(1));
    const [input] = bridge.createSession.mock.calls[0]!;
    expect(input).toMatchObject({ title: '' });
    expect(input.projectId).not.toBe('');
    const message = await screen.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(message).toHaveFocus());
    expect(screen.getByRole('list', { name: 'Sessions in typed-app' })).toBeInTheDocument();
  });
});

describe('New session', () => {
  beforeEach(() => {
    resetFakeBridge({
      projects: [project('p1', 'alpha-app'), project('p2', 'beta-app')],
      sessions: [session('s1', 'p2', 'Fix login bug', NOW - 60_000)],
      providers: [provider('pr1', 'Local')],
    });
  });

  it('is a visible button that starts a session in the open session’s project, composer focused', async () => {
    const { user } = await renderApp();
    const nav = screen.getByRole('navigation');
    await user.click(within(nav).getByRole('button', { name: /^Fix login bug/ }));
    const button = within(nav).getByRole('button', { name: 'New session' });
    expect(button).toBeVisible();
    expect(button).toHaveAttribute('title', 'New session in beta-app');
    await user.click(button);
    expect(bridge.createSession).toHaveBeenCalledWith({ projectId: 'p2', title: '' });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus());
  });

  it('opening an existing session leaves the focus where it was', async () => {
    const { user } = await renderApp();
    const row = within(screen.getByRole('navigation')).getByRole('button', { name: /^Fix login bug/ });
    await user.click(row);
    await screen.findByRole('textbox', { name: 'Message' });
    expect(screen.getByRole('textbox', { name: 'Message' })).not.toHaveFocus();
  });
});
