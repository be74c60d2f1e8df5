import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeBridge } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';
import { ProtectedPathsNote } from './ProtectedPathsNote';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge({
    settings: { defaultPermissionMode: 'auto', defaultCommandShell: 'bash', permissionTimeoutSeconds: 0, theme: 'system' },
    info: { version: '1.2.3', dataDir: '/data/pi', commandShells: [{ id: 'bash', label: 'Bash (/bin/bash)' }] },
  });
});

describe('ProtectedPathsNote', () => {
  it('lists every protected path and says the rule holds in every mode', () => {
    render(<ProtectedPathsNote />);
    const section = screen.getByRole('region', { name: 'Protected paths' });
    const items = within(section).getAllByRole('listitem').map((li) => li.querySelector('code')?.textContent);
    expect(items).toEqual(['.git/', '.agents/', '.pi/', '.claude/', '.mcp.json']);
    expect(section).toHaveTextContent(/always show an approval card, in every permission mode including Auto/);
    expect(section).toHaveTextContent(/\.pi\/plan and \.pi\/goal/);
    expect(within(section).queryByRole('button')).toBeNull();
    expect(within(section).queryByRole('textbox')).toBeNull();
  });

  it('is shown in Settings next to the permission mode', async () => {
    const app = await renderApp();
    await app.user.click(screen.getByRole('button', { name: 'Settings' }));
    const modes = await screen.findByRole('radiogroup', { name: 'Default permission mode' });
    const note = screen.getByRole('region', { name: 'Protected paths' });
    expect(modes.compareDocumentPosition(note) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(note).getByText('.git/')).toBeInTheDocument();
  });
});
