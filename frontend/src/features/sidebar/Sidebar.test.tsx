import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const HOUR = 3_600_000;
let backend: FakeBackend;

beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p2', 'zeta-service'), project('p1', 'alpha-app')],
    sessions: [
      session('s-old', 'p1', 'Old investigation', NOW - 30 * HOUR),
      session('s-new', 'p1', 'Fix login bug', NOW - 2 * HOUR),
      session('s-mid', 'p1', 'Refactor router', NOW - 5 * HOUR),
      session('t1', '', 'Scratch idea', NOW - HOUR),
      session('s-arch', 'p1', 'Shipped feature', NOW - 50 * HOUR, { archivedAt: NOW - 40 * HOUR }),
    ],
  });
});

function sessionsIn(name: string) {
  return within(screen.getByRole('list', { name }));
}

async function openSessionMenu(user: Awaited<ReturnType<typeof renderApp>>['user'], title: string) {
  await user.click(screen.getByRole('button', { name: `Session actions for ${title}` }));
  return screen.getByRole('menu', { name: `Actions for ${title}` });
}

describe('Sidebar', () => {
  it('opens on the session named by --session, its project expanded', async () => {
    resetFakeBridge({
      projects: [project('p1', 'alpha-app')],
      sessions: [session('s-mid', 'p1', 'Refactor router', NOW - 5 * HOUR), session('s-new', 'p1', 'Fix login bug', NOW - HOUR)],
      initialSessionId: 's-mid',
    });
    await renderApp();
    expect(await screen.findByRole('heading', { level: 1, name: 'Refactor router' })).toBeInTheDocument();
    await waitFor(() => expect(sessionsIn('Sessions in alpha-app').getByText('Refactor router')).toBeVisible());
  });

  it('shows why a --session that no longer exists cannot open, and stays on the welcome view', async () => {
    resetFakeBridge({ projects: [project('p1', 'alpha-app')] });
    bridge.initialSession.mockRejectedValueOnce(new BridgeError('SESSION_NOT_FOUND', 'the session gone named by --session does not exist'));
    await renderApp();
    expect(await screen.findByText(/named by --session does not exist/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'What are we working on?' })).toBeInTheDocument();
  });

  it('lists projects by name and their sessions newest first, without archived ones', async () => {
    await renderApp();
    const projectButtons = await screen.findAllByRole('button', { expanded: true });
    expect(projectButtons.map((b) => b.textContent)).toEqual(['alpha-app', 'zeta-service']);
    expect(projectButtons[0]).toHaveAttribute('title', '/home/dev/alpha-app');

    const list = sessionsIn('Sessions in alpha-app');
    await list.findByText('Fix login bug');
    const titles = list.getAllByRole('button', { current: false }).filter((b) => b.classList.contains('session-main'));
    expect(titles.map((b) => within(b).getByText(/./, { selector: '.session-title' }).textContent)).toEqual([
      'Fix login bug',
      'Refactor router',
      'Old investigation',
    ]);
    expect(list.getByText('2h')).toBeInTheDocument();
    expect(list.queryByText('Shipped feature')).not.toBeInTheDocument();
    expect(sessionsIn('Sessions in zeta-service').getByText('No sessions yet')).toBeInTheDocument();
    expect(sessionsIn('Temporary sessions').getByText('Scratch idea')).toBeInTheDocument();
  });

  it('collapses and expands a project', async () => {
    const { user } = await renderApp();
    const toggle = await screen.findByRole('button', { name: 'alpha-app' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('list', { name: 'Sessions in alpha-app' })).not.toBeInTheDocument();
    await user.click(toggle);
    expect(await screen.findByRole('list', { name: 'Sessions in alpha-app' })).toBeInTheDocument();
  });

  it('adds a project: ChooseFolder then AddProject, and the new project shows up', async () => {
    const { user } = await renderApp();
    bridge.chooseFolder.mockResolvedValueOnce('/home/dev/new-thing');
    await user.click(within(screen.getByRole('navigation')).getByRole('button', { name: 'Add project' }));
    await waitFor(() => expect(bridge.addProject).toHaveBeenCalledWith('/home/dev/new-thing'));
    expect(bridge.chooseFolder).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('button', { name: 'new-thing' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('does nothing when the folder dialog is cancelled', async () => {
    const { user } = await renderApp();
    bridge.chooseFolder.mockResolvedValueOnce('');
    await user.click(within(screen.getByRole('navigation')).getByRole('button', { name: 'Add project' }));
    await waitFor(() => expect(bridge.chooseFolder).toHaveBeenCalled());
    expect(bridge.addProject).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a failed AddProject as a dismissible error with its code', async () => {
    const { user } = await renderApp();
    bridge.chooseFolder.mockResolvedValueOnce('/nope');
    bridge.addProject.mockRejectedValueOnce(new BridgeError('INVALID_ARGUMENT', 'path is not a directory'));
    await user.click(within(screen.getByRole('navigation')).getByRole('button', { name: 'Add project' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('path is not a directory');
    expect(alert).toHaveTextContent('INVALID_ARGUMENT');
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('creates a session in a project, selects it and lists it', async () => {
    const { user } = await renderApp();
    await user.click(await screen.findByRole('button', { name: 'New session in zeta-service' }));
    expect(bridge.createSession).toHaveBeenCalledWith({ projectId: 'p2', title: '' });
    expect(await screen.findByRole('heading', { level: 1, name: 'New session' })).toBeInTheDocument();
    const row = sessionsIn('Sessions in zeta-service').getByRole('button', { name: /^New session/ });
    expect(row).toHaveAttribute('aria-current', 'page');
  });

  it('creates a session from the project menu', async () => {
    const { user } = await renderApp();
    await user.click(await screen.findByRole('button', { name: 'Project actions for alpha-app' }));
    await user.click(screen.getByRole('menuitem', { name: 'New session' }));
    expect(bridge.createSession).toHaveBeenCalledWith({ projectId: 'p1', title: '' });
  });

  it('creates a temporary session with an empty project id and explains its workspace', async () => {
    const { user } = await renderApp();
    const button = await screen.findByRole('button', { name: 'New temporary session' });
    expect(button.getAttribute('title')).toMatch(/private scratch folder/);
    await user.click(button);
    expect(bridge.createSession).toHaveBeenCalledWith({ projectId: '', title: '' });
    const main = screen.getByRole('main');
    expect(await within(main).findByText('Temporary session')).toBeInTheDocument();
    expect(sessionsIn('Temporary sessions').getByText('New session')).toBeInTheDocument();
  });

  it('renames via the context menu with a trimmed title', async () => {
    const { user } = await renderApp();
    await sessionsIn('Sessions in alpha-app').findByText('Refactor router');
    await openSessionMenu(user, 'Refactor router');
    await user.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const input = screen.getByRole('textbox', { name: 'Session title' });
    expect(input).toHaveValue('Refactor router');
    await user.clear(input);
    await user.type(input, '  Router v2  {Enter}');
    expect(bridge.renameSession).toHaveBeenCalledWith('s-mid', 'Router v2');
    expect(await sessionsIn('Sessions in alpha-app').findByText('Router v2')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Session title' })).not.toBeInTheDocument();
  });

  it('opens the same menu on right-click', async () => {
    const { user } = await renderApp();
    const row = await sessionsIn('Sessions in alpha-app').findByText('Fix login bug');
    await user.pointer({ keys: '[MouseRight]', target: row });
    expect(screen.getByRole('menu', { name: 'Actions for Fix login bug' })).toBeInTheDocument();
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual([
      'New session in this project',
      'Rename',
      'Archive',
      'Export as Markdown…',
      'Export as JSON…',
      'Delete',
    ]);
  });

  it('the open session’s menu shows the keys of its commands from the shortcut table; another row’s does not', async () => {
    const { user } = await renderApp();
    await user.click(await sessionsIn('Sessions in alpha-app').findByText('Fix login bug'));
    await screen.findByRole('log', { name: 'Transcript' });
    const menu = await openSessionMenu(user, 'Fix login bug');
    const keyed = within(menu)
      .getAllByRole('menuitem')
      .map((i) => [i.querySelector('span')?.textContent, i.querySelector('kbd')?.textContent ?? '', i.getAttribute('aria-keyshortcuts') ?? '']);
    expect(keyed).toEqual([
      ['New session in this project', 'Ctrl+N', 'Control+N'],
      ['Show or hide Changes', 'Ctrl+Shift+G', 'Control+Shift+G'],
      ['Show or hide Activity', 'Ctrl+Shift+A', 'Control+Shift+A'],
      ['Rename', '', ''],
      ['Archive', '', ''],
      ['Export as Markdown…', '', ''],
      ['Export as JSON…', '', ''],
      ['Delete', '', ''],
    ]);
    // The item does what the keys do.
    await user.click(within(menu).getByRole('menuitem', { name: 'Show or hide Changes' }));
    expect(await screen.findByRole('complementary', { name: 'Changes' })).toBeInTheDocument();
    await user.keyboard('{Escape}');

    const other = await openSessionMenu(user, 'Refactor router');
    expect(other.querySelectorAll('kbd')).toHaveLength(0);
    expect(within(other).queryByRole('menuitem', { name: 'Show or hide Changes' })).not.toBeInTheDocument();
  });

  it.each([
    ['Export as Markdown…', 'md', '/home/dev/Exports/Fix login bug.md'],
    ['Export as JSON…', 'json', '/home/dev/Exports/Fix login bug.json'],
  ] as const)('%s exports the session in that format and names the file it wrote', async (item, format, path) => {
    bridge.exportSession.mockResolvedValueOnce({ path, bytes: 1234 });
    const { user } = await renderApp();
    await sessionsIn('Sessions in alpha-app').findByText('Fix login bug');
    await openSessionMenu(user, 'Fix login bug');
    await user.click(screen.getByRole('menuitem', { name: item }));
    expect(bridge.exportSession).toHaveBeenCalledExactlyOnceWith('s-new', format);
    const toast = (await screen.findByText(`Exported to ${path}`)).closest('.toast');
    expect(toast).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says nothing when the save dialog is cancelled', async () => {
    let settled = false;
    bridge.exportSession.mockImplementationOnce(async () => {
      settled = true;
      return { path: '', bytes: 0 };
    });
    const { user } = await renderApp();
    await sessionsIn('Sessions in alpha-app').findByText('Fix login bug');
    await openSessionMenu(user, 'Fix login bug');
    await user.click(screen.getByRole('menuitem', { name: 'Export as Markdown…' }));
    expect(bridge.exportSession).toHaveBeenCalledExactlyOnceWith('s-new', 'md');
    await waitFor(() => expect(settled).toBe(true));
    // Let the resolved promise's continuation run before looking for a toast.
    await new Promise((r) => setTimeout(r, 0));
    expect(document.querySelector('.toast')).toBeNull();
  });

  it('shows why an export failed', async () => {
    bridge.exportSession.mockRejectedValueOnce(
      new BridgeError('INTERNAL', 'cannot write /readonly/Fix login bug.md: permission denied; choose another folder'),
    );
    const { user } = await renderApp();
    await sessionsIn('Sessions in alpha-app').findByText('Fix login bug');
    await openSessionMenu(user, 'Fix login bug');
    await user.click(screen.getByRole('menuitem', { name: 'Export as JSON…' }));
    expect(bridge.exportSession).toHaveBeenCalledExactlyOnceWith('s-new', 'json');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('cannot write /readonly/Fix login bug.md: permission denied; choose another folder');
    expect(alert).toHaveTextContent('INTERNAL');
    expect(alert).toHaveTextContent('PI-Desktop hit an internal error.');
    expect(screen.queryByText(/Exported to/)).not.toBeInTheDocument();
    // Retry exports again.
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(bridge.exportSession).toHaveBeenCalledTimes(2);
  });

  it('cancels a rename with Escape', async () => {
    const { user } = await renderApp();
    await sessionsIn('Sessions in alpha-app').findByText('Refactor router');
    await openSessionMenu(user, 'Refactor router');
    await user.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const input = screen.getByRole('textbox', { name: 'Session title' });
    await user.type(input, ' changed{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Session title' })).not.toBeInTheDocument();
    expect(bridge.renameSession).not.toHaveBeenCalled();
    expect(sessionsIn('Sessions in alpha-app').getByText('Refactor router')).toBeInTheDocument();
  });

  it('does not rename to a blank title', async () => {
    const { user } = await renderApp();
    await sessionsIn('Sessions in alpha-app').findByText('Refactor router');
    await openSessionMenu(user, 'Refactor router');
    await user.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const input = screen.getByRole('textbox', { name: 'Session title' });
    await user.clear(input);
    await user.type(input, '   {Enter}');
    expect(bridge.renameSession).not.toHaveBeenCalled();
  });

  it('archives a session, then restores it from the archived view', async () => {
    const { user } = await renderApp();
    await sessionsIn('Sessions in alpha-app').findByText('Fix login bug');
    await openSessionMenu(user, 'Fix login bug');
    await user.click(screen.getByRole('menuitem', { name: 'Archive' }));
    expect(bridge.archiveSession).toHaveBeenCalledWith('s-new');
    await waitFor(() => expect(sessionsIn('Sessions in alpha-app').queryByText('Fix login bug')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Archived' }));
    const archived = sessionsIn('Archived sessions');
    expect(await archived.findByText('Fix login bug')).toBeInTheDocument();
    expect(archived.getByText('Shipped feature')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Archived' })).toHaveAttribute('aria-pressed', 'true');

    await openSessionMenu(user, 'Fix login bug');
    expect(screen.getByRole('menuitem', { name: 'Restore' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Archive' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Restore' }));
    expect(bridge.restoreSession).toHaveBeenCalledWith('s-new');
    await waitFor(() => expect(archived.queryByText('Fix login bug')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Back to sessions' }));
    expect(await sessionsIn('Sessions in alpha-app').findByText('Fix login bug')).toBeInTheDocument();
  });

  it('archived view lists archived sessions of every project and temporary ones, with a visible Restore', async () => {
    backend.sessions.push(session('t-arch', '', 'Old scratch', NOW - 10 * HOUR, { archivedAt: NOW - 3 * HOUR }));
    const { user } = await renderApp();
    await user.click(screen.getByRole('button', { name: 'Archived' }));
    const archived = sessionsIn('Archived sessions');
    await archived.findByText('Old scratch');
    expect(bridge.listSessions).toHaveBeenCalledWith('', true);
    expect(bridge.listSessions).toHaveBeenCalledWith('p1', true);
    expect(bridge.listSessions).toHaveBeenCalledWith('p2', true);
    // Most recently archived first, with where each came from.
    const rows = archived.getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Old scratch');
    expect(rows[0]).toHaveTextContent('Temporary');
    expect(rows[1]).toHaveTextContent('Shipped feature');
    expect(rows[1]).toHaveTextContent('alpha-app');
    await user.click(archived.getByRole('button', { name: 'Restore Shipped feature' }));
    expect(bridge.restoreSession).toHaveBeenCalledWith('s-arch');
  });

  it('deletes a session only after confirmation', async () => {
    const { user } = await renderApp();
    await sessionsIn('Sessions in alpha-app').findByText('Old investigation');
    await openSessionMenu(user, 'Old investigation');
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Delete session?' });
    expect(dialog).toHaveTextContent(/scratch files/);
    expect(dialog).toHaveTextContent(/Project files on disk are untouched/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(bridge.deleteSession).not.toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    await openSessionMenu(user, 'Old investigation');
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    dialog = screen.getByRole('alertdialog', { name: 'Delete session?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete session' }));
    expect(bridge.deleteSession).toHaveBeenCalledWith('s-old');
    await waitFor(() => expect(sessionsIn('Sessions in alpha-app').queryByText('Old investigation')).not.toBeInTheDocument());
  });

  it('Escape in the delete dialog cancels', async () => {
    const { user } = await renderApp();
    await sessionsIn('Sessions in alpha-app').findByText('Old investigation');
    await openSessionMenu(user, 'Old investigation');
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(bridge.deleteSession).not.toHaveBeenCalled();
  });

  it('removes a project after a confirmation that says files stay on disk', async () => {
    const { user } = await renderApp();
    await user.click(await screen.findByRole('button', { name: 'Project actions for zeta-service' }));
    await user.click(screen.getByRole('menuitem', { name: 'Remove project' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove project?' });
    expect(dialog).toHaveTextContent(/stay on disk/);
    await user.click(within(dialog).getByRole('button', { name: 'Remove project' }));
    expect(bridge.removeProject).toHaveBeenCalledWith('p2');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'zeta-service' })).not.toBeInTheDocument());
  });

  it('menus are keyboard operable and Escape returns focus to the trigger', async () => {
    const { user } = await renderApp();
    await sessionsIn('Sessions in alpha-app').findByText('Fix login bug');
    const trigger = screen.getByRole('button', { name: 'Session actions for Fix login bug' });
    trigger.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('menuitem', { name: 'New session in this project' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Rename' })).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
  });

  it('refreshes a project list when the backend announces sessions:changed', async () => {
    await renderApp();
    await sessionsIn('Sessions in zeta-service').findByText('No sessions yet');
    backend.sessions.push(session('s-ext', 'p2', 'Made elsewhere', NOW));
    backend.emit('sessions:changed', { sessionId: 's-ext', projectId: 'p2' });
    expect(await sessionsIn('Sessions in zeta-service').findByText('Made elsewhere')).toBeInTheDocument();
  });

  it('refreshes projects on projects:changed', async () => {
    await renderApp();
    await screen.findByRole('button', { name: 'alpha-app' });
    backend.projects.push(project('p3', 'mid-lib'));
    backend.emit('projects:changed');
    expect(await screen.findByRole('button', { name: 'mid-lib' })).toBeInTheDocument();
  });
});
