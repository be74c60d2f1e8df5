import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as norm from '../../bridge/normalize';
import { initialTranscript, transcriptReducer, type TranscriptState } from '../../state/transcript';
import { resetFakeBridge } from '../../test/fakeBridge';
import { Transcript, type TranscriptProps } from './Transcript';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge();
});

/** Turns from..to-1 of a session: a prompt and an answer each. */
function turns(from: number, to: number) {
  const ts = [];
  const messages = [];
  for (let t = from; t < to; t++) {
    ts.push({ id: `t${t}`, sessionId: 's1', prompt: `question ${t}`, state: 'done', createdAt: t + 1 });
    messages.push({ seq: 2 * t + 1, id: `p${t}`, turnId: `t${t}`, role: 'user', kind: 'prompt', content: [{ type: 'text', text: `question ${t}` }], stopReason: 'end_turn' });
    messages.push({ seq: 2 * t + 2, id: `m${t}`, turnId: `t${t}`, role: 'assistant', kind: 'model', content: [{ type: 'text', text: `answer ${t}` }], stopReason: 'end_turn' });
  }
  return norm.transcript({ sessionId: 's1', turns: ts, messages });
}

function setup(state: TranscriptState, onLoadOlder: () => void, jumpTo: TranscriptProps['jumpTo']) {
  const onJumped = vi.fn();
  const props = { reviews: {}, onResolve: vi.fn(async () => {}), onRollback: vi.fn(async () => {}), onRetryLoad: vi.fn(), onLoadOlder, onJumped };
  const view = render(<Transcript state={state} running={false} jumpTo={jumpTo} {...props} />);
  return { onJumped, update: (next: TranscriptState) => view.rerender(<Transcript state={next} running={false} jumpTo={jumpTo} {...props} />) };
}

describe('Transcript jump to a message', () => {
  it('marks a loaded message at once without paging', async () => {
    const state = transcriptReducer(initialTranscript('s1'), { type: 'loaded', transcript: turns(60, 90), more: true });
    const onLoadOlder = vi.fn();
    const { onJumped } = setup(state, onLoadOlder, { messageId: 'm80', seq: 1 });
    await waitFor(() => expect(onJumped).toHaveBeenCalledWith(1, true));
    expect(onLoadOlder).not.toHaveBeenCalled();
    const row = screen.getByRole('log').querySelector('[data-key="m80:0"]');
    expect(row).toHaveClass('is-marked');
    await waitFor(() => expect(row).toHaveFocus());
  });

  it('pages in one page at a time until the message is there', async () => {
    // Pages of 30 turns fill the view: the transcript's own paging (rows too few to
    // scroll) stays out of it.
    let state = transcriptReducer(initialTranscript('s1'), { type: 'loaded', transcript: turns(60, 90), more: true });
    const onLoadOlder = vi.fn(() => {
      state = transcriptReducer(state, { type: 'olderRequested' });
    });
    const { onJumped, update } = setup(state, onLoadOlder, { messageId: 'm5', seq: 1 });
    await waitFor(() => expect(onLoadOlder).toHaveBeenCalledTimes(1));
    update(state);
    state = transcriptReducer(state, { type: 'olderLoaded', before: 't60', transcript: turns(30, 60), more: true });
    update(state);
    await waitFor(() => expect(onLoadOlder).toHaveBeenCalledTimes(2));
    update(state);
    expect(onJumped).not.toHaveBeenCalled();
    state = transcriptReducer(state, { type: 'olderLoaded', before: 't30', transcript: turns(0, 30), more: false });
    update(state);
    await waitFor(() => expect(onJumped).toHaveBeenCalledWith(1, true));
    expect(onLoadOlder).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('log').querySelector('[data-key="m5:0"]')).toHaveClass('is-marked');
  });

  it('gives up when a page fails to load, rather than asking forever', async () => {
    let state = transcriptReducer(initialTranscript('s1'), { type: 'loaded', transcript: turns(60, 90), more: true });
    const onLoadOlder = vi.fn(() => {
      state = transcriptReducer(state, { type: 'olderRequested' });
    });
    const { onJumped, update } = setup(state, onLoadOlder, { messageId: 'm5', seq: 1 });
    await waitFor(() => expect(onLoadOlder).toHaveBeenCalledTimes(1));
    update(state);
    state = transcriptReducer(state, { type: 'olderFailed' });
    update(state);
    await waitFor(() => expect(onJumped).toHaveBeenCalledWith(1, false));
    expect(onLoadOlder).toHaveBeenCalledTimes(1);
  });

  it('gives up when no earlier page is left', async () => {
    const state = transcriptReducer(initialTranscript('s1'), { type: 'loaded', transcript: turns(0, 10), more: false });
    const onLoadOlder = vi.fn();
    const { onJumped } = setup(state, onLoadOlder, { messageId: 'gone', seq: 3 });
    await waitFor(() => expect(onJumped).toHaveBeenCalledWith(3, false));
    expect(onLoadOlder).not.toHaveBeenCalled();
  });
});
