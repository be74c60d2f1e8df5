import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { bridgeModule as bridge, project, resetFakeBridge } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';
import { RELATIVE_PATH_HINT, isAbsolutePath } from './AddProjectByPath';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge({ projects: [project('p1', 'alpha-app')], sessions: [] });
});

async function openDialog() {
  const r = await renderApp();
  await r.user.click(within(screen.getByRole('navigation')).getByRole('button', { name: 'Add project by path…' }));
  const dialog = screen.getByRole('dialog', { name: 'Add project by path' });
  return { ...r, dialog, input: within(dialog).getByRole('textbox', { name: 'Folder path' }) };
}

describe('Add project by path', () => {
  it('adds the typed folder without the native picker and shows it expanded', async () => {
    const { user, input } = await openDialog();
    expect(input).toHaveFocus();
    await user.type(input, '  /home/dev/typed-app  {Enter}');
    await waitFor(() => expect(bridge.addProject).toHaveBeenCalledWith('/home/dev/typed-app'));
    expect(bridge.chooseFolder).not.toHaveBeenCalled();
    expect(await screen.findByRole('button', { name: 'typed-app' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks for a full path instead of sending a relative one', async () => {
    const { user, dialog, input } = await openDialog();
    await user.type(input, 'code/app');
    await user.click(within(dialog).getByRole('button', { name: 'Add project' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(RELATIVE_PATH_HINT);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(bridge.addProject).not.toHaveBeenCalled();
  });

  it('keeps the dialog open with the backend’s reason, and typing clears it', async () => {
    const { user, dialog, input } = await openDialog();
    bridge.addProject.mockRejectedValueOnce(new BridgeError('NOT_FOUND', 'the folder /nope does not exist or cannot be read; choose an existing folder'));
    await user.type(input, '/nope{Enter}');
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('NOT_FOUND');
    expect(alert).toHaveTextContent('choose an existing folder');
    expect(screen.getByRole('dialog', { name: 'Add project by path' })).toBeInTheDocument();
    await user.type(input, 'x');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('disables Add while the path is empty and closes on Escape without adding', async () => {
    const { user, dialog } = await openDialog();
    expect(within(dialog).getByRole('button', { name: 'Add project' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bridge.addProject).not.toHaveBeenCalled();
  });

  it('is offered on the welcome screen too', async () => {
    const { user } = await renderApp();
    await user.click(within(screen.getByRole('main')).getByRole('button', { name: 'Add project by path…' }));
    const dialog = screen.getByRole('dialog', { name: 'Add project by path' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder path' }), '/home/dev/from-welcome{Enter}');
    expect(await screen.findByRole('button', { name: 'from-welcome' })).toHaveAttribute('aria-expanded', 'true');
    expect(bridge.chooseFolder).not.toHaveBeenCalled();
  });

  it.each([
    ['/home/dev/app', true],
    ['C:\\code\\app', true],
    ['d:/code', true],
    ['\\\\server\\share', true],
    ['~/code', false],
    ['code/app', false],
    ['C:code', false],
  ])('isAbsolutePath(%s) is %s', (p, want) => {
    expect(isAbsolutePath(p)).toBe(want);
  });
});
