import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, bridgeModule as bridge, checkpointRow, commandChangeRow, commandFile, project, resetFakeBridge, restoreFile, reviewChange, session } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)],
    reviews: [reviewChange('snapA', 'src/login.ts', { messageId: 'm1', createdAt: NOW - 300_000 })],
    commandChanges: {
      s1: [
        commandChangeRow('cp-b1', [
          commandFile('src/api.ts', { additions: 1, deletions: 1, diff: '@@ -3,1 +3,1 @@\n-const url = "http";\n+const url = "https";\n' }),
          commandFile('build.sh', { modeBefore: '100644', modeAfter: '100755', note: 'mode 100644 → 100755' }),
        ], { messageId: 'm1', createdAt: NOW - 200_000, since: 'cp-first' }),
        commandChangeRow('cp-b2', [commandFile('gen/out.js', { status: 'added', modeBefore: '', additions: 2, note: 'new file', diff: '@@ -0,0 +1,2 @@\n+a\n+b\n' })], {
          messageId: 'm2', createdAt: NOW - 100_000, since: 'cp-b1',
        }),
        commandChangeRow('cp-b3', [], { messageId: 'm2', createdAt: NOW - 90_000, captured: false, reason: 'not captured: the snapshot took longer than 3s and was abandoned' }),
      ],
    },
    checkpoints: { s1: [checkpointRow('cp-b1', { turnId: 't1' }), checkpointRow('cp-first', { turnId: 't1', kind: 'before-first-mutation' })] },
    restorePlans: { 'cp-first': [restoreFile('src/api.ts', { additions: 1, deletions: 1 })] },
  });
});

async function openPanel() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
  // 1 record + 3 files changed by commands.
  await r.user.click(await screen.findByRole('button', { name: 'Changes (4)' }));
  return { ...r, panel: within(screen.getByRole('complementary', { name: 'Changes' })) };
}

describe('Changes pane: changed by commands', () => {
  it('shows each message’s Bash changes beside its Edit/Write records, with their diffs', async () => {
    const { panel } = await openPanel();
    const groups = panel.getAllByRole('region', { name: /^Message/ });
    expect(groups).toHaveLength(2);
    const first = within(groups[0]!);
    expect(first.getByRole('listitem', { name: 'src/login.ts' })).toBeInTheDocument();
    const commands = within(first.getByRole('region', { name: 'Changed by commands' }));
    const api = within(commands.getByRole('listitem', { name: 'src/api.ts' }));
    expect(api.getByText('Modified')).toBeInTheDocument();
    expect(api.getByLabelText('1 added, 1 removed lines')).toBeInTheDocument();
    expect(within(api.getByRole('region', { name: 'Diff of src/api.ts' })).getByText('const url = "https";').closest('tr')).toHaveClass('diff-line-add');
    expect(commands.getByRole('listitem', { name: 'build.sh' })).toHaveTextContent('Mode 100644 → 100755.');

    // A message whose only changes came from commands has its group, and a call that was
    // not captured says its changes are unknown.
    const second = within(within(groups[1]!).getByRole('region', { name: 'Changed by commands' }));
    expect(second.getByRole('listitem', { name: 'gen/out.js' })).toHaveTextContent('Added');
    expect(second.getByText(/what it changed is not known/)).toHaveTextContent('took longer than 3s');
    expect(bridge.commandChanges).toHaveBeenCalledWith('s1');
  });

  it('previews a restore to before a command from its group', async () => {
    const { user, panel } = await openPanel();
    const first = within(panel.getAllByRole('region', { name: /^Message/ })[0]!);
    await user.click(first.getByRole('button', { name: 'Restore files to before this command' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Restore files to before this command' }));
    expect(await dialog.findByRole('listitem', { name: 'src/api.ts' })).toBeInTheDocument();
    expect(bridge.previewRestore).toHaveBeenCalledWith('s1', 'cp-first');
  });
});
