import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bridgeModule as bridge, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import type { SessionCost } from '../../bridge/types';
import { renderWithData } from '../../test/render';
import { SessionCostMeter } from './SessionCostMeter';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;
beforeEach(() => {
  backend = resetFakeBridge({ sessions: [session('s1', 'p1', 'One', 1)] });
});

function figures(costUsd: number | null, contextTokens: number, contextWindow: number, extra: Partial<SessionCost['usage']> = {}): SessionCost {
  return {
    usage: {
      sessionId: 's1',
      costUsd,
      unpriced: 0,
      responses: 2,
      usage: { inputTokens: 4000, outputTokens: 50, cacheReadTokens: 3000, cacheWriteTokens: 0 },
      contextTokens,
      ...extra,
    },
    contextWindow,
  };
}

describe('SessionCostMeter', () => {
  it('shows the context in use against the window and the cost so far', async () => {
    bridge.sessionCost.mockResolvedValue(figures(0.0123, 50_000, 200_000));
    renderWithData(<SessionCostMeter sessionId="s1" />);
    expect(await screen.findByText('Context 50k / 200k (25%)')).toBeInTheDocument();
    expect(screen.getByText('Cost $0.0123')).toBeInTheDocument();
    expect(bridge.sessionCost).toHaveBeenCalledWith('s1');
  });

  it('shows an unknown cost as a dash, never $0, and tokens alone without a window', async () => {
    bridge.sessionCost.mockResolvedValue(figures(null, 950, 0, { unpriced: 2 }));
    renderWithData(<SessionCostMeter sessionId="s1" />);
    expect(await screen.findByText('Cost —')).toBeInTheDocument();
    expect(screen.getByText('Context 950 tokens')).toBeInTheDocument();
    expect(screen.queryByText(/\$0/)).not.toBeInTheDocument();
  });

  it('reads the figures again when a model response of this session ends', async () => {
    bridge.sessionCost.mockResolvedValueOnce(figures(0.01, 1000, 100_000)).mockResolvedValue(figures(0.02, 2000, 100_000));
    renderWithData(<SessionCostMeter sessionId="s1" />);
    expect(await screen.findByText('Cost $0.0100')).toBeInTheDocument();
    const base = { sessionId: 's1', turnId: 't1', messageId: 'm1', role: 'assistant', kind: 'model' };
    // Streaming, and other sessions' responses, do not count.
    act(() => backend.emit('agent:message', { ...base, state: 'streaming' }));
    act(() => backend.emit('agent:message', { ...base, sessionId: 's2', state: 'end_turn' }));
    expect(bridge.sessionCost).toHaveBeenCalledTimes(1);
    act(() => backend.emit('agent:message', { ...base, state: 'end_turn' }));
    await waitFor(() => expect(screen.getByText('Cost $0.0200')).toBeInTheDocument());
    expect(screen.getByText('Context 2.0k / 100k (2%)')).toBeInTheDocument();
  });
});
