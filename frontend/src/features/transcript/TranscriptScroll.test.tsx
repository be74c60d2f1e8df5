import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as norm from '../../bridge/normalize';
import { initialTranscript, transcriptReducer, type TranscriptAction, type TranscriptState } from '../../state/transcript';
import { NOW, resetFakeBridge } from '../../test/fakeBridge';
import { flushResize, setLayout } from '../../test/layout';
import { Transcript } from './Transcript';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge();
});

const VIEWPORT = 600; // test/layout.ts default
const ROW = 40;

/** A stored transcript of n messages: n/2 turns of a prompt and a one-line answer. */
function stored(n: number, opts: { toolFirst?: boolean } = {}) {
  const turns = [];
  const messages: Array<Record<string, unknown>> = [];
  for (let t = 0; t < n / 2; t++) {
    turns.push({ id: `t${t}`, sessionId: 's1', prompt: `question ${t}`, state: 'done', createdAt: t + 1 });
    messages.push({ seq: 2 * t + 1, id: `p${t}`, turnId: `t${t}`, role: 'user', kind: 'prompt', content: [{ type: 'text', text: `question ${t}` }], stopReason: 'end_turn' });
    const answer: Record<string, unknown> = { seq: 2 * t + 2, id: `m${t}`, turnId: `t${t}`, role: 'assistant', kind: 'model', content: [{ type: 'text', text: `answer ${t}` }], stopReason: 'end_turn' };
    if (t === 0 && opts.toolFirst) {
      answer.content = [{ type: 'text', text: 'answer 0' }, { type: 'tool_use', toolUseId: 'u1', toolName: 'Write', input: { path: 'a.txt' } }];
      answer.toolCalls = [{ id: 'c1', turnId: 't0', messageId: 'm0', toolUseId: 'u1', tool: 'Write', args: { path: 'a.txt' }, state: 'pending' }];
    }
    messages.push(answer);
  }
  return norm.transcript({ sessionId: 's1', turns, messages });
}

function loaded(n: number, opts: { toolFirst?: boolean } = {}): TranscriptState {
  return transcriptReducer(initialTranscript('s1'), { type: 'loaded', transcript: stored(n, opts) });
}

function reduce(state: TranscriptState, ...events: Array<Record<string, unknown>>): TranscriptState {
  return events.reduce<TranscriptState>(
    (s, event) => transcriptReducer(s, { type: 'event', event: { sessionId: 's1', ...event }, at: NOW } as TranscriptAction),
    state,
  );
}

function renderTranscript(state: TranscriptState, running = false) {
  const props = { reviews: {}, onResolve: vi.fn(async () => {}), onRollback: vi.fn(async () => {}), onRetryLoad: vi.fn() };
  const view = render(<Transcript state={state} running={running} {...props} />);
  const scroller = screen.getByRole('log', { name: 'Transcript' });
  return {
    ...view,
    props,
    scroller,
    update: (next: TranscriptState, nextRunning = running) => view.rerender(<Transcript state={next} running={nextRunning} {...props} />),
  };
}

const rowStart = (row: HTMLElement) => Number(/translateY\((-?[\d.]+)px\)/.exec(row.style.transform)?.[1]);

/** The row at the top edge of the viewport and how far into it the view starts. */
function topRow(scroller: HTMLElement) {
  const top = scroller.scrollTop;
  // The gap after a row counts as part of it.
  const row = rows(scroller).find((r) => rowStart(r) <= top && top < rowStart(r) + r.offsetHeight + 10)!;
  return { key: row.dataset.key, into: top - rowStart(row) };
}

async function pause(ms: number) {
  await act(async () => {
    await new Promise((r) => setTimeout(r, ms));
  });
}

const rows = (scroller: HTMLElement) => Array.from(scroller.querySelectorAll<HTMLElement>('.transcript-row'));
const maxTop = (scroller: HTMLElement) => scroller.scrollHeight - scroller.clientHeight;

/** At the end, and the rows on screen are the last ones (the window followed the scroll). */
async function settledAtBottom(scroller: HTMLElement) {
  await waitFor(() => {
    expect(scroller.scrollTop).toBeGreaterThan(0);
    expect(scroller.scrollTop).toBe(maxTop(scroller));
    const list = scroller.querySelector<HTMLElement>('.transcript-list')!;
    const inDom = rows(scroller);
    const last = inDom.at(-1)!;
    expect(rowStart(last) + last.offsetHeight).toBe(parseFloat(list.style.height));
    // Above the viewport only the overscan (6 rows, and one at the edge) remains.
    expect(inDom.filter((r) => rowStart(r) + r.offsetHeight <= scroller.scrollTop).length).toBeLessThanOrEqual(7);
  });
}

/** Scrolls as a user would (the layout mock fires "scroll" after the write). */
async function userScrollTo(scroller: HTMLElement, top: number) {
  await act(async () => {
    scroller.scrollTop = top;
    await Promise.resolve();
  });
}

describe('Transcript virtualization', () => {
  it('keeps only a window of rows in the DOM for 5,000 messages and opens at the latest', async () => {
    const { scroller } = renderTranscript(loaded(5000));
    await settledAtBottom(scroller);
    const inDom = rows(scroller);
    // 600px of 40px rows plus overscan: a few dozen, never thousands.
    expect(inDom.length).toBeGreaterThan(VIEWPORT / ROW);
    expect(inDom.length).toBeLessThan(60);
    expect(await within(scroller).findByText('answer 2499')).toBeInTheDocument();
    expect(within(scroller).queryByText('question 0')).not.toBeInTheDocument();
    // Rendered rows are measured: the last one sits at the very end of the list.
    const list = scroller.querySelector<HTMLElement>('.transcript-list')!;
    expect(rowStart(inDom.at(-1)!)).toBe(parseFloat(list.style.height) - ROW);
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).not.toBeInTheDocument();
  });

  it('follows streamed text while at the bottom, with rows measured as they grow', async () => {
    // A row is as tall as its text: 20px per 40 characters, at least 40px.
    setLayout({ rowHeight: (row) => Math.max(ROW, Math.ceil((row.textContent ?? '').length / 40) * 20) });
    let state = reduce(loaded(200), { type: 'turn', turnId: 'live', state: 'running' }, { type: 'message', turnId: 'live', messageId: 'mx', role: 'assistant', kind: 'model', state: 'streaming' });
    const view = renderTranscript(state, true);
    await settledAtBottom(view.scroller);
    for (let i = 0; i < 8; i++) {
      state = reduce(state, { type: 'text', turnId: 'live', messageId: 'mx', delta: `streamed part ${i} `.repeat(20) });
      view.update(state);
      act(() => flushResize());
      await settledAtBottom(view.scroller);
    }
    expect(await within(view.scroller).findByText(/streamed part 7/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).not.toBeInTheDocument();
  });

  it('stays put once the user scrolls up, offers Jump to latest, and follows again after it', async () => {
    let state = reduce(loaded(400), { type: 'turn', turnId: 'live', state: 'running' }, { type: 'message', turnId: 'live', messageId: 'mx', role: 'assistant', kind: 'model', state: 'streaming' });
    const view = renderTranscript(state, true);
    await settledAtBottom(view.scroller);
    await userScrollTo(view.scroller, 3000);
    const jump = await screen.findByRole('button', { name: /Jump to latest/ });
    await pause(50); // rows revealed above get measured (and compensated) first
    const reading = topRow(view.scroller);

    for (let i = 0; i < 3; i++) {
      state = reduce(state, { type: 'text', turnId: 'live', messageId: `mx`, delta: `more ${i} ` }, { type: 'message', turnId: 'live', messageId: `n${i}`, role: 'assistant', kind: 'model', state: 'streaming' }, { type: 'text', turnId: 'live', messageId: `n${i}`, delta: `new message ${i}` });
      view.update(state);
      act(() => flushResize());
    }
    await pause(50);
    expect(topRow(view.scroller)).toEqual(reading);
    expect(within(view.scroller).queryByText('new message 2')).not.toBeInTheDocument();

    await userEvent.setup().click(jump);
    await settledAtBottom(view.scroller);
    expect(await within(view.scroller).findByText('new message 2')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).not.toBeInTheDocument();
    // Following again: the next message keeps it at the bottom.
    state = reduce(state, { type: 'message', turnId: 'live', messageId: 'n9', role: 'assistant', kind: 'model', state: 'streaming' }, { type: 'text', turnId: 'live', messageId: 'n9', delta: 'after the jump' });
    view.update(state);
    await settledAtBottom(view.scroller);
    expect(await within(view.scroller).findByText('after the jump')).toBeInTheDocument();
  });

  it('keeps the reading position when a row above it changes height', async () => {
    const grown = new Set<string>();
    setLayout({ rowHeight: (row) => (grown.has(row.dataset.key ?? '') ? 300 : ROW) });
    const view = renderTranscript(loaded(1000));
    await settledAtBottom(view.scroller);
    await userScrollTo(view.scroller, 20_000);
    await screen.findByRole('button', { name: /Jump to latest/ });
    // Let the scroll settle (the virtualizer only compensates once the user stopped scrolling up).
    await pause(250);
    const reading = topRow(view.scroller);
    const before = view.scroller.scrollTop;
    const above = rows(view.scroller).find((r) => rowStart(r) + ROW <= before)!;
    expect(above).toBeDefined();
    grown.add(above.dataset.key!);
    act(() => flushResize());
    await waitFor(() => expect(view.scroller.scrollTop).toBe(before + 300 - ROW));
    expect(topRow(view.scroller)).toEqual(reading);
  });

  it('scrolls with the keyboard: Page Up, Home and End', async () => {
    const view = renderTranscript(loaded(5000));
    await settledAtBottom(view.scroller);
    const user = userEvent.setup();
    view.scroller.focus();
    expect(view.scroller).toHaveFocus();
    // Page Up moves the content down by 90% of the viewport: the row at the top edge
    // ends up about that far below it (give or take the rows revealed above it being
    // measured).
    const top = topRow(view.scroller);
    await user.keyboard('{PageUp}');
    await waitFor(() => {
      const row = view.scroller.querySelector<HTMLElement>(`[data-key="${top.key}"]`)!;
      expect(Math.abs(rowStart(row) - view.scroller.scrollTop - (VIEWPORT * 0.9 - top.into))).toBeLessThan(ROW);
    });
    expect(await screen.findByRole('button', { name: /Jump to latest/ })).toBeInTheDocument();
    await user.keyboard('{Home}');
    expect(await within(view.scroller).findByText('question 0')).toBeInTheDocument();
    expect(view.scroller.scrollTop).toBe(0);
    await user.keyboard('{End}');
    await settledAtBottom(view.scroller);
    expect(await within(view.scroller).findByText('answer 2499')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).not.toBeInTheDocument();
  });

  it('announces a pending approval card that is out of view and jumps to it', async () => {
    const state = transcriptReducer(loaded(5000, { toolFirst: true }), {
      type: 'approvalsLoaded',
      requests: [
        norm.approvalRequest({
          id: 'r1', sessionId: 's1', turnId: 't0', toolCallId: 'c1', tool: 'Write', risk: 'medium', reason: 'writes a file',
          preview: 'a.txt', path: 'a.txt', external: false, workspace: '/home/dev/alpha-app', createdAt: NOW,
        }),
      ],
    });
    const view = renderTranscript(state);
    await settledAtBottom(view.scroller);
    expect(within(view.scroller).queryByRole('region', { name: 'Allow Write?' })).not.toBeInTheDocument();
    const chip = await screen.findByRole('button', { name: '1 pending approval' });

    await userEvent.setup().click(chip);
    const card = await within(view.scroller).findByRole('region', { name: 'Allow Write?' });
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Allow once' })).toHaveFocus());
    await waitFor(() => expect(screen.queryByRole('button', { name: /pending approval/ })).not.toBeInTheDocument());

    // Answering it settles the card; no chip comes back.
    await userEvent.setup().keyboard('{Enter}');
    expect(view.props.onResolve).toHaveBeenCalledWith('r1', 'allow-once');
  });

  it('the focused row stays rendered while the list scrolls away from it', async () => {
    const view = renderTranscript(loaded(2000));
    await settledAtBottom(view.scroller);
    const lastRow = rows(view.scroller).at(-1)!;
    const key = lastRow.dataset.key!;
    lastRow.tabIndex = -1;
    act(() => lastRow.focus());
    await userScrollTo(view.scroller, 0);
    await within(view.scroller).findByText('question 0');
    expect(view.scroller.querySelector(`[data-key="${key}"]`)).toHaveFocus();
  });

  // The page may arrive while the view still scrolls, or once it has settled (the
  // virtualizer's scrolling state ends 150 ms after the last scroll; a host answering
  // later is the usual case): the rows on screen stay put either way.
  it.each([
    ['while the view still scrolls', 50],
    ['after the scroll settled', 250],
  ])('pages earlier turns in near the top and keeps the rows on screen in place (%s)', async (_when, answerAfterMs) => {
    // The newest 200 messages shown, 200 older ones stored.
    const all = stored(400);
    const newest = { ...all, turns: all.turns.slice(100), messages: all.messages.slice(200) };
    const older = { ...all, turns: all.turns.slice(0, 100), messages: all.messages.slice(0, 200) };
    let state = transcriptReducer(initialTranscript('s1'), { type: 'loaded', transcript: newest, more: true });
    expect(state.firstTurnId).toBe('t100');
    const onLoadOlder = vi.fn(() => {
      state = transcriptReducer(state, { type: 'olderRequested' });
    });
    const props = { reviews: {}, onResolve: vi.fn(async () => {}), onRollback: vi.fn(async () => {}), onRetryLoad: vi.fn(), onLoadOlder };
    const view = render(<Transcript state={state} running={false} {...props} />);
    const scroller = screen.getByRole('log', { name: 'Transcript' });
    await settledAtBottom(scroller);
    expect(onLoadOlder).not.toHaveBeenCalled();

    await userScrollTo(scroller, 2000);
    await pause(50);
    expect(onLoadOlder).not.toHaveBeenCalled(); // not near the top yet
    await userScrollTo(scroller, 100);
    await waitFor(() => expect(onLoadOlder).toHaveBeenCalledTimes(1));
    view.rerender(<Transcript state={state} running={false} {...props} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading earlier messages…');
    await pause(answerAfterMs);
    const reading = topRow(scroller);
    expect(reading.key).toMatch(/^(prompt:p|m)10\d$/);

    state = transcriptReducer(state, { type: 'olderLoaded', before: 't100', transcript: older, more: false });
    view.rerender(<Transcript state={state} running={false} {...props} />);
    await pause(50);
    expect(topRow(scroller)).toEqual(reading);
    expect(scroller.scrollTop).toBeGreaterThan(200 * ROW);
    expect(screen.queryByText('Loading earlier messages…')).not.toBeInTheDocument();
    // Everything is here now: the top is the first question, and nothing more is asked for.
    await userScrollTo(scroller, 0);
    expect(await within(scroller).findByText('question 0')).toBeInTheDocument();
    await pause(50);
    expect(onLoadOlder).toHaveBeenCalledTimes(1);
  });

  it('pages in right away when the shown turns do not fill the view', async () => {
    const all = stored(40);
    const state = transcriptReducer(initialTranscript('s1'), { type: 'loaded', transcript: { ...all, turns: all.turns.slice(19), messages: all.messages.slice(38) }, more: true });
    const onLoadOlder = vi.fn();
    render(<Transcript state={state} running={false} reviews={{}} onResolve={vi.fn(async () => {})} onRollback={vi.fn(async () => {})} onRetryLoad={vi.fn()} onLoadOlder={onLoadOlder} />);
    await waitFor(() => expect(onLoadOlder).toHaveBeenCalled());
  });
});

