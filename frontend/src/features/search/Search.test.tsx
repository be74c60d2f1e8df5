import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchHit } from '../../bridge/history';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const HOUR = 3_600_000;
/** Turns in the long session: 400 turns of 2 messages are three pages of PAGE_MESSAGES. */
const TURNS = 400;

/** A stored transcript of n turns, each a prompt and a one-line answer; answer 3 holds the needle. */
function longTranscript(sessionId: string, n: number) {
  const turns = [];
  const messages = [];
  for (let t = 0; t < n; t++) {
    turns.push({ id: `t${t}`, sessionId, prompt: `question ${t}`, state: 'done', createdAt: t + 1 });
    messages.push({ seq: 2 * t + 1, id: `p${t}`, turnId: `t${t}`, role: 'user', kind: 'prompt', content: [{ type: 'text', text: `question ${t}` }], stopReason: 'end_turn' });
    const text = t === 3 ? 'the needle is in config.yaml' : `answer ${t}`;
    messages.push({ seq: 2 * t + 2, id: `m${t}`, turnId: `t${t}`, role: 'assistant', kind: 'model', content: [{ type: 'text', text }], stopReason: 'end_turn' });
  }
  return { sessionId, turns, messages };
}

function hit(extra: Partial<SearchHit> = {}): SearchHit {
  return {
    kind: 'message',
    sessionId: 's-long',
    sessionTitle: 'Long investigation',
    projectId: 'p1',
    messageId: 'm3',
    createdAt: NOW - 3 * HOUR,
    snippet: [{ text: 'the ', match: false }, { text: 'needle', match: true }, { text: ' is in <b>config</b>.yaml', match: false }],
    ...extra,
  };
}

beforeEach(() => {
  resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s-long', 'p1', 'Long investigation', NOW - 3 * HOUR), session('s-new', 'p1', 'Fix login bug', NOW - HOUR)],
    transcripts: { 's-long': longTranscript('s-long', TURNS) },
    initialSessionId: 's-new',
  });
});

describe('Sidebar search', () => {
  it('asks for three letters before it searches', async () => {
    const { user } = await renderApp();
    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'ne');
    expect(await screen.findByText('Type at least 3 letters of a word.')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 300));
    expect(bridge.searchHistory).not.toHaveBeenCalled();
  });

  it('lists hits with the matched words marked as text, their session and time, once typing pauses', async () => {
    bridge.searchHistory.mockImplementation(async () => [hit()]);
    const { user } = await renderApp();
    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'needle');
    const list = await screen.findByRole('list', { name: 'Matching messages' });
    // Debounced: one search for the whole word, not one per letter.
    expect(bridge.searchHistory.mock.calls.map((c) => c[0])).toEqual(['needle']);
    const mark = within(list).getByText('needle');
    expect(mark.tagName).toBe('MARK');
    // The snippet is text: markup in a message is shown, never rendered.
    expect(within(list).getByText(/is in <b>config<\/b>\.yaml/)).toBeInTheDocument();
    expect(list.querySelector('b')).toBeNull();
    expect(within(list).getByText(/Long investigation/)).toBeInTheDocument();
    expect(list.querySelector('time')).toHaveAttribute('dateTime', new Date(NOW - 3 * HOUR).toISOString());
    expect(screen.getByText('1 message')).toBeInTheDocument();
  });

  it('opens the hit’s session at its message, paging earlier turns in until it is loaded, and marks it', async () => {
    bridge.searchHistory.mockImplementation(async () => [hit()]);
    const { user } = await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Fix login bug' });
    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'needle');
    const list = await screen.findByRole('list', { name: 'Matching messages' });
    await user.click(within(list).getByRole('button'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Long investigation' })).toBeInTheDocument();
    const log = screen.getByRole('log', { name: 'Transcript' });
    const row = await waitFor(() => {
      const r = log.querySelector<HTMLElement>('[data-key="m3:0"]');
      expect(r).not.toBeNull();
      return r!;
    });
    // The message was two pages back: both earlier pages were asked for, by the first turn shown.
    const befores = bridge.transcriptPage.mock.calls.filter((c) => c[0] === 's-long').map((c) => c[1].before ?? '');
    expect(befores).toEqual(['', 't250', 't100']);
    expect(row).toHaveTextContent('the needle is in config.yaml');
    await waitFor(() => expect(row).toHaveClass('is-marked'));
    await waitFor(() => expect(row).toHaveFocus());
    // The mark fades; the focus stays.
    await waitFor(() => expect(row).not.toHaveClass('is-marked'), { timeout: 5000 });
    expect(row).toHaveFocus();
  });

  it('says so when the message is no longer in the session', async () => {
    bridge.searchHistory.mockImplementation(async () => [hit({ messageId: 'gone' })]);
    const { user } = await renderApp();
    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'needle');
    const list = await screen.findByRole('list', { name: 'Matching messages' });
    await user.click(within(list).getByRole('button'));
    expect(await screen.findByText('That message is no longer in this session.')).toBeInTheDocument();
    // Every page was read before giving up.
    await waitFor(() => expect(bridge.transcriptPage.mock.calls.filter((c) => c[0] === 's-long')).toHaveLength(3));
  });

  it('moves into the results with the Down arrow and clears with Esc', async () => {
    bridge.searchHistory.mockImplementation(async () => [hit(), hit({ messageId: 'm4', kind: 'tool_call' })]);
    const { user } = await renderApp();
    const field = screen.getByRole('searchbox', { name: 'Search messages' });
    await user.type(field, 'needle');
    const list = await screen.findByRole('list', { name: 'Matching messages' });
    const [first, second] = within(list).getAllByRole('button');
    expect(second).toHaveTextContent(/Tool call/);
    await user.keyboard('{ArrowDown}');
    expect(first).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(second).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(field).toHaveFocus();
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(field).toHaveValue('');
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Matching messages' })).not.toBeInTheDocument());
  });

  it('shows why a search failed', async () => {
    const { BridgeError } = await import('../../bridge/errors');
    bridge.searchHistory.mockRejectedValue(new BridgeError('INTERNAL', 'the index is unreadable'));
    const { user } = await renderApp();
    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'needle');
    expect(await screen.findByText('Search failed: the index is unreadable')).toBeInTheDocument();
  });
});
