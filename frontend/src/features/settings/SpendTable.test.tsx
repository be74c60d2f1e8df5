import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { bridgeModule as bridge, resetFakeBridge } from '../../test/fakeBridge';
import type { DaySpend } from '../../bridge/types';
import { SpendTable } from './SpendTable';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge();
});

function day(d: string, providerId: string, providerName: string, costUsd: number | null, extra: Partial<DaySpend> = {}): DaySpend {
  return {
    day: d,
    providerId,
    providerName,
    model: 'claude-sonnet-4-5',
    costUsd,
    unpriced: 0,
    responses: 3,
    usage: { inputTokens: 12_000, outputTokens: 900, cacheReadTokens: 0, cacheWriteTokens: 0 },
    ...extra,
  };
}

describe('SpendTable', () => {
  it('lists each day and provider with its responses, tokens and cost', async () => {
    bridge.spendPerDay.mockResolvedValue([
      day('2026-05-04', 'a', 'Claude', 1.5),
      day('2026-05-04', 'b', 'Ollama', null),
      day('2026-05-03', 'gone', '', 0.25, { model: 'gpt-5' }),
    ]);
    render(<SpendTable />);
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['2026-05-04', 'Claude', '3', '12k / 900', '$1.50'],
      ['2026-05-04', 'Ollama', '3', '12k / 900', '—'],
      ['2026-05-03', 'gpt-5 (removed provider)', '3', '12k / 900', '$0.2500'],
    ]);
  });

  it('says so when nothing was spent', async () => {
    render(<SpendTable />);
    expect(await screen.findByText('No model responses in the last 30 days.')).toBeInTheDocument();
  });

  it('says so when the spend cannot be read', async () => {
    bridge.spendPerDay.mockRejectedValue(new BridgeError('STORAGE_UNAVAILABLE', 'the database did not answer'));
    render(<SpendTable />);
    expect(await screen.findByText(/Could not read the spend: the database did not answer/)).toBeInTheDocument();
  });
});
