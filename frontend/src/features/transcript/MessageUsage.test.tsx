import { act, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';
import { MessageUsageLine } from './MessageUsageLine';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

describe('MessageUsageLine', () => {
  it('shows the input with its cache read and write, the output and a small cost to four places', () => {
    render(<MessageUsageLine usage={{ usage: usage(12_345, 321, 10_000, 2_000), costUsd: 0.0042 }} />);
    expect(screen.getByRole('note', { name: 'Usage of this response' })).toHaveTextContent(
      '12,345 tokens in (10,000 from cache, 2,000 written to cache) · 321 out · $0.0042',
    );
  });

  it('shows an unknown cost as a dash, never as $0, and leaves out cache figures that are zero', () => {
    render(<MessageUsageLine usage={{ usage: usage(900, 12), costUsd: null }} />);
    const line = screen.getByRole('note', { name: 'Usage of this response' });
    expect(line).toHaveTextContent(/^900 tokens in · 12 out · —$/);
    expect(line).not.toHaveTextContent('$');
    expect(within(line).getByText('—')).toHaveAttribute('title', 'No price is known for this model');
  });

  it('a known cost of a fraction of a hundredth of a cent keeps its digits', () => {
    render(<MessageUsageLine usage={{ usage: usage(100, 5, 90), costUsd: 0.0000312 }} />);
    expect(screen.getByRole('note')).toHaveTextContent('100 tokens in (90 from cache) · 5 out · $0.000031');
  });
});

describe('Transcript: usage under each model response', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = resetFakeBridge({ projects: [project('p1', 'alpha-app')], sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)] });
  });
  const emit = (name: string, payload: Record<string, unknown>) => act(() => backend.emit(name, { sessionId: 's1', turnId: 't1', ...payload }));

  it('appears when a response ends: under its text, or under its last call when it has none', async () => {
    const { user } = await renderApp();
    await user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    const log = () => within(screen.getByRole('log', { name: 'Transcript' }));
    emit('agent:turn', { state: 'running' });
    emit('agent:message', { messageId: 'm1', role: 'assistant', kind: 'model', state: 'streaming' });
    emit('agent:text', { messageId: 'm1', delta: 'Let me read it.' });
    await waitFor(() => expect(log().getByText('Let me read it.')).toBeInTheDocument());
    expect(log().queryByRole('note', { name: 'Usage of this response' })).toBeNull();

    emit('agent:message', { messageId: 'm1', role: 'assistant', kind: 'model', state: 'end_turn', usage: usage(3200, 41, 2800, 350), costUsd: 0.0042 });
    await waitFor(() =>
      expect(log().getByRole('note', { name: 'Usage of this response' })).toHaveTextContent('3,200 tokens in (2,800 from cache, 350 written to cache) · 41 out · $0.0042'),
    );

    emit('agent:message', { messageId: 'm2', role: 'assistant', kind: 'model', state: 'streaming' });
    emit('agent:tool_call', { messageId: 'm2', toolCallId: 'c2', toolUseId: 'u2', tool: 'Read', phase: 'ready', args: { path: 'a.go' } });
    emit('agent:message', { messageId: 'm2', role: 'assistant', kind: 'model', state: 'tool_use', usage: usage(4100, 12, 3150) });
    await waitFor(() => expect(log().getAllByRole('note', { name: 'Usage of this response' })).toHaveLength(2));
    expect(log().getAllByRole('note', { name: 'Usage of this response' })[1]).toHaveTextContent('4,100 tokens in (3,150 from cache) · 12 out · —');
  });
});
