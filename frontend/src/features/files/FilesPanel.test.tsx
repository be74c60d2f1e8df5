import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { NOW, artifactRow, bridgeModule as bridge, project, resetFakeBridge, session, type Seed } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';
import { POLL_MS } from './FileViewer';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let seed: Seed;

beforeEach(() => {
  seed = {
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)],
    workspace: {
      s1: {
        'README.md': '# Alpha\n',
        'src/login.ts': 'export function login(user: string) {\n  return user;\n}\n',
        'src/util/strings.ts': 'export const trim = (s: string) => s.trim();\n',
        'logo.bin': 'PNG',
      },
    },
    artifacts: { s1: [artifactRow('src/login.ts'), artifactRow('gone.txt')] },
  };
  resetFakeBridge(seed);
});

async function openFiles() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
  await r.user.click(await screen.findByRole('button', { name: 'Files' }));
  const panel = within(screen.getByRole('complementary', { name: 'Files' }));
  await panel.findByRole('tree', { name: 'Workspace files' });
  return { ...r, panel };
}

describe('Files pane', () => {
  it('lists the session artifacts first, a missing one disabled, then the workspace tree with folders first', async () => {
    const { panel } = await openFiles();
    const written = within(panel.getByRole('region', { name: 'Written in this session' }));
    expect(await written.findByRole('button', { name: 'src/login.ts' })).toBeEnabled();
    expect(written.getByRole('button', { name: /gone\.txt/ })).toBeDisabled();
    const tree = panel.getByRole('tree', { name: 'Workspace files' });
    const items = within(tree).getAllByRole('treeitem');
    expect(items.map((i) => i.textContent)).toEqual(['src', 'logo.bin', 'README.md']);
    expect(items[0]).toHaveAttribute('aria-expanded', 'false');
    expect(bridge.listFolder).toHaveBeenCalledWith('s1', '');
    expect(bridge.listFolder).not.toHaveBeenCalledWith('s1', 'src');
  });

  it('opens an artifact in a tab: its text with line numbers, highlighted once the highlighter loads', async () => {
    const { panel, user } = await openFiles();
    await user.click(await panel.findByRole('button', { name: 'src/login.ts' }));
    expect(panel.getByRole('tab', { name: 'login.ts', selected: true })).toBeInTheDocument();
    const code = await panel.findByLabelText('Content of src/login.ts');
    expect(code).toHaveTextContent('export function login(user: string) {');
    expect(panel.getByRole('tabpanel').querySelector('.file-code-gutter')?.textContent).toBe('1\n2\n3');
    await waitFor(() => expect(code.querySelector('.hljs-keyword')).not.toBeNull());
  });

  it('expands folders lazily and opens a file with the keyboard', async () => {
    const { panel, user } = await openFiles();
    const src = panel.getByRole('treeitem', { name: 'src' });
    src.focus();
    await user.keyboard('{ArrowRight}');
    expect(bridge.listFolder).toHaveBeenCalledWith('s1', 'src');
    await waitFor(() => expect(src).toHaveAttribute('aria-expanded', 'true'));
    await user.keyboard('{ArrowRight}'); // into the folder: its first child, the util folder
    expect(panel.getByRole('treeitem', { name: 'util' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(panel.getByRole('treeitem', { name: 'login.ts' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await panel.findByLabelText('Content of src/login.ts')).toBeInTheDocument();
    panel.getByRole('treeitem', { name: 'login.ts' }).focus();
    await user.keyboard('{ArrowLeft}'); // a file: back to its folder
    expect(src).toHaveFocus();
    await user.keyboard('{ArrowLeft}'); // an open folder: closes
    expect(src).toHaveAttribute('aria-expanded', 'false');
    expect(panel.queryByRole('treeitem', { name: 'login.ts' })).toBeNull();
  });

  it('filters by name across the tree', async () => {
    const { panel, user } = await openFiles();
    await user.type(panel.getByRole('searchbox', { name: 'Filter files by name' }), 'strings');
    const tree = await panel.findByRole('tree', { name: 'Files matching strings' });
    await waitFor(() => expect(within(tree).getAllByRole('treeitem').map((i) => i.textContent)).toEqual(['src/util/strings.ts']));
    expect(bridge.findFiles).toHaveBeenLastCalledWith('s1', 'strings');
    await user.clear(panel.getByRole('searchbox', { name: 'Filter files by name' }));
    await user.type(panel.getByRole('searchbox', { name: 'Filter files by name' }), 'nothing-like-it');
    expect(await panel.findByText(/No file name matches/)).toBeInTheDocument();
  });

  it('keeps several tabs; closing the active one shows its neighbour', async () => {
    const { panel, user } = await openFiles();
    await user.click(panel.getByRole('treeitem', { name: 'README.md' }));
    await user.click(panel.getByRole('treeitem', { name: 'logo.bin' }));
    expect(panel.getAllByRole('tab').map((t) => t.textContent)).toEqual(['README.md', 'logo.bin']);
    expect(await panel.findByText(/This file is not text/)).toBeInTheDocument();
    await user.click(panel.getByRole('button', { name: 'Close logo.bin' }));
    expect(panel.getAllByRole('tab').map((t) => t.textContent)).toEqual(['README.md']);
    expect(await panel.findByLabelText('Content of README.md')).toHaveTextContent('# Alpha');
    await user.click(panel.getByRole('button', { name: 'Close README.md' }));
    expect(panel.queryByRole('tablist')).toBeNull();
  });

  it('reloads the open file when it changes, and says when it is gone', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { panel, user } = await openFiles();
      await user.click(panel.getByRole('treeitem', { name: 'README.md' }));
      expect(await panel.findByLabelText('Content of README.md')).toHaveTextContent('# Alpha');
      seed.workspace!.s1!['README.md'] = '# Alpha, edited\n';
      await act(() => vi.advanceTimersByTimeAsync(POLL_MS + 10));
      await waitFor(() => expect(panel.getByLabelText('Content of README.md')).toHaveTextContent('# Alpha, edited'));
      delete seed.workspace!.s1!['README.md'];
      await act(() => vi.advanceTimersByTimeAsync(POLL_MS + 10));
      expect(await panel.findByText(/no longer exists/)).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('reveals, opens in the editor, and shows a refusal', async () => {
    const { panel, user } = await openFiles();
    await user.click(panel.getByRole('treeitem', { name: 'README.md' }));
    await user.click(await panel.findByRole('button', { name: 'Reveal in file manager' }));
    expect(bridge.revealFile).toHaveBeenCalledWith('s1', 'README.md');
    await user.click(panel.getByRole('button', { name: 'Open in editor' }));
    expect(bridge.openFileInEditor).toHaveBeenCalledWith('s1', 'README.md');
    bridge.openFileInEditor.mockRejectedValueOnce(new BridgeError('NOT_FOUND', 'README.md no longer exists; it may have been moved or deleted'));
    await user.click(panel.getByRole('button', { name: 'Open in editor' }));
    expect(await panel.findByRole('alert')).toHaveTextContent('README.md no longer exists');
  });

  it('Mention puts @path into the composer at the caret', async () => {
    const { panel, user } = await openFiles();
    const box = screen.getByRole('textbox', { name: /message/i });
    await user.type(box, 'Look at');
    await user.click(panel.getByRole('treeitem', { name: 'README.md' }));
    await user.click(await panel.findByRole('button', { name: 'Mention' }));
    expect(box).toHaveValue('Look at @README.md ');
    expect(box).toHaveFocus();
  });
});
