import { describe, expect, it } from 'vitest';
import { contextShare, formatTokens, formatUSD } from './cost';

describe('cost formatting', () => {
  it.each([
    [null, '—'],
    [0, '$0.0000'],
    [0.001486, '$0.0015'],
    [0.0042, '$0.0042'],
    [0.0000312, '$0.000031'],
    [0.0000004, '<$0.000001'],
    [0.25, '$0.2500'],
    [12.345, '$12.35'],
  ])('formatUSD(%s) = %s', (usd, want) => {
    expect(formatUSD(usd)).toBe(want);
  });

  it.each([
    [950, '950'],
    [1234, '1.2k'],
    [12_345, '12k'],
    [1_234_567, '1.2M'],
  ])('formatTokens(%s) = %s', (n, want) => {
    expect(formatTokens(n)).toBe(want);
  });

  it('gives no share without a window', () => {
    expect(contextShare(50_000, 200_000)).toBe(25);
    expect(contextShare(50_000, 0)).toBeNull();
  });
});
