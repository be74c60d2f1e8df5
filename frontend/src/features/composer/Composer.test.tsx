import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import type { WorkspaceFiles } from '../../bridge/types';
import { bridgeModule as bridge, resetFakeBridge } from '../../test/fakeBridge';
import { dataWrapper, renderWithData } from '../../test/render';
import { createQueryClient } from '../../state/queryClient';
import { queryKeys } from '../../state/queryKeys';
import { Composer } from './Composer';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => resetFakeBridge());

function setup(props: Partial<Parameters<typeof Composer>[0]> = {}) {
  const onSend = vi.fn(async (_text: string) => {});
  const onStop = vi.fn(async () => {});
  const user = userEvent.setup();
  const view = renderWithData(<Composer onSend={onSend} onStop={onStop} running={false} {...props} />);
  return { user, onSend, onStop, view, box: screen.getByRole('textbox', { name: 'Message' }) };
}

describe('Composer', () => {
  it('Enter sends the trimmed text and clears once sent; Shift+Enter adds a newline', async () => {
    const { user, onSend, box } = setup();
    await user.type(box, '  first line{Shift>}{Enter}{/Shift}second  ');
    expect(box).toHaveValue('  first line\nsecond  ');
    expect(onSend).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('first line\nsecond');
    expect(box).toHaveValue('');
  });

  it('does not send blank text', async () => {
    const { user, onSend, box } = setup();
    await user.type(box, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('keeps the text and shows the code when the send is rejected', async () => {
    const onSend = vi.fn().mockRejectedValue(new BridgeError('AGENT_BUSY', 'a turn is already running in this session; wait for it or press Stop'));
    const { user, box } = setup({ onSend });
    await user.type(box, 'do it{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('AGENT_BUSY');
    expect(alert).toHaveTextContent('a turn is already running');
    expect(box).toHaveValue('do it');
  });

  it('MODEL_NOT_CONFIGURED shows how to configure a model and keeps the text', async () => {
    const onSend = vi.fn().mockRejectedValue(new BridgeError('MODEL_NOT_CONFIGURED', 'no model is configured'));
    const { user, box } = setup({ onSend });
    await user.type(box, 'hello{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No model is configured');
    expect(alert).toHaveTextContent('PI_DESKTOP_PROVIDER');
    expect(alert).toHaveTextContent('PI_DESKTOP_MODEL');
    expect(alert).toHaveTextContent('ANTHROPIC_API_KEY');
    expect(alert).toHaveTextContent('OPENAI_API_KEY');
    expect(box).toHaveValue('hello');
    // Sending again once the model is set up clears the notice.
    onSend.mockResolvedValueOnce(undefined);
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(box).toHaveValue('');
  });

  it('while a turn runs: Stop instead of Send, Enter does not send, Stop calls onStop', async () => {
    const { user, onSend, onStop, box, view } = setup({ running: true });
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    await user.type(box, 'next{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);
    view.rerender(<Composer onSend={onSend} onStop={onStop} running={false} />);
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    expect(box).toHaveValue('next');
  });
});

const FILES = ['src/login.ts', 'src/logout.ts', 'docs/login flow.md', 'README.md'];

function withFiles(impl?: (query: string) => Promise<WorkspaceFiles>) {
  const list = impl ?? (async (query: string) => ({ files: FILES.filter((f) => f.toLowerCase().includes(query.toLowerCase())), truncated: false, indexing: false }));
  bridge.workspaceFiles.mockImplementation((_sessionId, query) => list(query));
  return { ...setup({ filesOf: 's1' }), suggestFiles: bridge.workspaceFiles };
}

const options = () => within(screen.getByRole('listbox', { name: 'Workspace files' })).getAllByRole('option');

describe('Composer @ references', () => {
  it('lists matching files as you type after @ and inserts the chosen one with the keyboard', async () => {
    const { user, box, onSend, suggestFiles } = withFiles();
    await user.type(box, 'Explain @log');
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['login.tssrc', 'logout.tssrc', 'login flow.mddocs']));
    expect(suggestFiles).toHaveBeenLastCalledWith('s1', 'log', 50);
    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options()[0]!.id);

    await user.keyboard('{ArrowDown}');
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options()[1]!.id);
    await user.keyboard('{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue('Explain @src/logout.ts ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect((box as HTMLTextAreaElement).selectionStart).toBe('Explain @src/logout.ts '.length);

    // The reference stays in the prompt that is sent.
    await user.type(box, 'please{Enter}');
    expect(onSend).toHaveBeenCalledWith('Explain @src/logout.ts please');
  });

  it('Tab picks too, Up wraps to the last file, and a path with spaces is quoted', async () => {
    const { user, box } = withFiles();
    await user.type(box, '@login');
    await waitFor(() => expect(options()).toHaveLength(2));
    await user.keyboard('{ArrowUp}');
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Tab}');
    expect(box).toHaveValue('@"docs/login flow.md" ');
    expect(box).toHaveFocus();
  });

  it('replaces the whole reference when the caret is inside it', async () => {
    const { user, box } = withFiles();
    await user.type(box, 'see @READ now');
    // Caret back into the reference, after "@RE".
    (box as HTMLTextAreaElement).setSelectionRange(7, 7);
    await user.keyboard('{ArrowLeft}{ArrowRight}');
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['README.md']));
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('see @README.md now');
  });

  it('Escape closes the list and Enter then sends; a new @ opens it again', async () => {
    const { user, box, onSend } = withFiles();
    await user.type(box, 'look at @src');
    await waitFor(() => expect(options()).toHaveLength(2));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.type(box, ' and @READ');
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['README.md']));
    await user.keyboard('{Escape}{Enter}');
    expect(onSend).toHaveBeenCalledWith('look at @src and @READ');
  });

  it('a click picks a file without leaving the input', async () => {
    const { user, box } = withFiles();
    await user.type(box, '@out');
    await waitFor(() => expect(options()).toHaveLength(1));
    await user.click(options()[0]!);
    expect(box).toHaveValue('@src/logout.ts ');
    expect(box).toHaveFocus();
  });

  it('says when nothing matches or the list is cut, and Enter still sends', async () => {
    const { user, box, onSend } = withFiles(async (q) => (q === 'zz' ? { files: [], truncated: false, indexing: false } : { files: ['a.go'], truncated: true, indexing: false }));
    await user.type(box, '@a');
    expect(await screen.findByText('More files match: keep typing to narrow the list')).toBeInTheDocument();
    expect(options().map((o) => o.textContent)).toEqual(['a.go']);
    await user.clear(box);
    await user.type(box, 'fix @zz');
    expect(await screen.findByText('No files match “zz”')).toBeInTheDocument();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('fix @zz');
  });

  it('says the workspace is still being indexed, and fills the list in as the index grows', async () => {
    let calls = 0;
    const { user, box } = withFiles(async () => {
      calls += 1;
      return calls === 1 ? { files: ['a.go'], truncated: false, indexing: true } : { files: ['a.go', 'ab.go'], truncated: false, indexing: false };
    });
    await user.type(box, '@a');
    expect(await screen.findByText('Indexing… more files may match')).toBeInTheDocument();
    expect(options().map((o) => o.textContent)).toEqual(['a.go']);
    // Asked again without a keystroke once the first answer said "indexing".
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['a.go', 'ab.go']), { timeout: 3000 });
    expect(screen.queryByText(/Indexing…/)).not.toBeInTheDocument();
  });

  it('shows why files could not be listed', async () => {
    const { user, box } = withFiles(async () => {
      throw new BridgeError('WORKTREE_MISSING', 'the isolated worktree of this session is missing');
    });
    await user.type(box, '@x');
    const status = await screen.findByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Files could not be listed: the isolated worktree of this session is missing'));
    expect(status).toHaveTextContent('WORKTREE_MISSING');
  });

  it('keeps showing why files could not be listed until the next query is answered', async () => {
    const pending: Record<string, { resolve: (r: WorkspaceFiles) => void; reject: (e: unknown) => void }> = {};
    const { user, box, suggestFiles } = withFiles((q) => new Promise((resolve, reject) => (pending[q] = { resolve, reject })));
    await user.type(box, '@a');
    await waitFor(() => expect(pending.a).toBeDefined());
    pending.a!.resolve({ files: ['a.go'], truncated: false, indexing: false });
    await waitFor(() => expect(options()).toHaveLength(1));
    await user.type(box, 'b');
    await waitFor(() => expect(pending.ab).toBeDefined());
    pending.ab!.reject(new BridgeError('WORKTREE_MISSING', 'the isolated worktree of this session is missing'));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('WORKTREE_MISSING'));
    await user.type(box, 'c');
    await waitFor(() => expect(suggestFiles).toHaveBeenCalledWith('s1', 'abc', 50));
    expect(screen.getByRole('status')).toHaveTextContent('Files could not be listed');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    pending.abc!.resolve({ files: ['abc.go'], truncated: false, indexing: false });
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['abc.go']));
    expect(screen.queryByText(/could not be listed/)).not.toBeInTheDocument();
  });

  it('shows the answer to the latest query, not a slower earlier one', async () => {
    const pending: Record<string, (r: WorkspaceFiles) => void> = {};
    const { user, box, suggestFiles } = withFiles((q) => new Promise((resolve) => (pending[q] = resolve)));
    await user.type(box, '@l');
    await waitFor(() => expect(suggestFiles).toHaveBeenCalledWith('s1', 'l', 50));
    await user.type(box, 'o');
    await waitFor(() => expect(suggestFiles).toHaveBeenCalledWith('s1', 'lo', 50));
    pending.lo!({ files: ['src/login.ts'], truncated: false, indexing: false });
    await waitFor(() => expect(options()).toHaveLength(1));
    pending.l!({ files: ['late.txt', 'old.txt'], truncated: false, indexing: false });
    await new Promise((r) => setTimeout(r, 20));
    expect(options().map((o) => o.textContent)).toEqual(['login.tssrc']);
  });

  it('an older answer that arrives while the newer query is still on its way is not shown', async () => {
    const pending: Record<string, (r: WorkspaceFiles) => void> = {};
    const { user, box, suggestFiles } = withFiles((q) => new Promise((resolve) => (pending[q] = resolve)));
    await user.type(box, '@l');
    await waitFor(() => expect(suggestFiles).toHaveBeenCalledWith('s1', 'l', 50));
    await user.type(box, 'o');
    await waitFor(() => expect(suggestFiles).toHaveBeenCalledWith('s1', 'lo', 50));
    pending.l!({ files: ['late.txt'], truncated: false, indexing: false });
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Searching files…');
    pending.lo!({ files: ['src/login.ts'], truncated: false, indexing: false });
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['login.tssrc']));
  });

  it('keeps the last list while the next keystroke is being answered, then shows the new one at its top', async () => {
    const pending: Record<string, (r: WorkspaceFiles) => void> = {};
    const { user, box, suggestFiles } = withFiles((q) => new Promise((resolve) => (pending[q] = resolve)));
    await user.type(box, '@lo');
    await waitFor(() => expect(suggestFiles).toHaveBeenCalledWith('s1', 'lo', 50));
    pending.lo!({ files: ['src/login.ts', 'src/logout.ts'], truncated: false, indexing: false });
    await waitFor(() => expect(options()).toHaveLength(2));
    await user.keyboard('{ArrowDown}');
    await user.type(box, 'g');
    await waitFor(() => expect(suggestFiles).toHaveBeenCalledWith('s1', 'log', 50));
    expect(options().map((o) => o.textContent)).toEqual(['login.tssrc', 'logout.tssrc']);
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByText('Searching files…')).not.toBeInTheDocument();
    pending.log!({ files: ['src/logout.ts', 'src/login.ts', 'log.md'], truncated: false, indexing: false });
    await waitFor(() => expect(options()).toHaveLength(3));
    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
  });

  it('a new reference starts from "Searching files…", not the list of the previous one', async () => {
    const pending: Record<string, (r: WorkspaceFiles) => void> = {};
    const { user, box } = withFiles((q) => new Promise((resolve) => (pending[q] = resolve)));
    await user.type(box, '@a');
    await waitFor(() => expect(pending.a).toBeDefined());
    pending.a!({ files: ['a.go'], truncated: false, indexing: false });
    await waitFor(() => expect(options()).toHaveLength(1));
    await user.type(box, ' then @b');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Searching files…');
    await waitFor(() => expect(pending.b).toBeDefined());
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    pending.b!({ files: ['b.go'], truncated: false, indexing: false });
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['b.go']));
  });

  it("caches each answer under the session's files key", async () => {
    const client = createQueryClient();
    bridge.workspaceFiles.mockImplementation(async (_sessionId, query) => ({ files: FILES.filter((f) => f.includes(query)), truncated: false, indexing: false }));
    const user = userEvent.setup();
    render(<Composer onSend={vi.fn()} onStop={vi.fn()} running={false} filesOf="s1" />, { wrapper: dataWrapper(client) });
    await user.type(screen.getByRole('textbox', { name: 'Message' }), '@READ');
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(client.getQueryData(queryKeys.files('s1', 'READ', 50))).toEqual({ query: 'READ', files: ['README.md'], truncated: false, indexing: false });
  });

  it('an e-mail address is not a reference', async () => {
    const { user, box, suggestFiles } = withFiles();
    await user.type(box, 'mail ada@example');
    await new Promise((r) => setTimeout(r, 100));
    expect(suggestFiles).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('without a file source @ is plain text', async () => {
    const { user, box } = setup();
    expect(box).not.toHaveAttribute('aria-autocomplete');
    await user.type(box, '@src');
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
